"""``python -m opentrix``: the ``opentrix`` command, for environments without its script on PATH."""

from opentrix.cli import main

if __name__ == "__main__":
    main()
