// Small helpers for the JSON API and the page.

/** JSON with BigInt values written as plain numbers, every digit kept (a seed may pass 2**53). */
function toJSON(body) {
  return JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? `#bigint:${v}` : v)).replace(/"#bigint:(\d+)"/g, "$1");
}

export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: toJSON(body) };
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && (data.error || data.detail)) || `HTTP ${res.status}`);
    if (data && typeof data.code === "string") { err.code = data.code; err.params = data.params || {}; }
    throw err;
  }
  return data;
}

let toastTimer = null;

/** Take a message away once what it asked for is done. */
export function hideToast() {
  const el = document.getElementById("toast");
  if (el) el.hidden = true;
  clearTimeout(toastTimer);
}
export function toast(text, ms = 3500) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  announce(text); // a live region that only now stops being hidden is not reliably read out
}

/** Say ``text`` to a screen reader, through the page's one polite live region (#announce). Each line
 *  is a node of its own, so quick events queue up instead of replacing each other. */
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box || !text) return;
  const line = document.createElement("div");
  line.textContent = text;
  box.append(line);
  while (box.childElementCount > 6) box.firstElementChild.remove();
}

// How the player last reached the page: the keyboard, or a pointer (a finger, a mouse). Nothing yet
// after a load. The table moves the focus to where play goes on for a keyboard user only: focus set
// by a script before any input shows as :focus-visible, which on a touch screen made the first card
// look picked (raised, ringed) after a reload.
let lastInput = null;
document.addEventListener("keydown", (e) => { if (!e.isComposing) lastInput = "key"; }, true);
document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);

/** Whether the last thing the player did here was to press a key (Tab, an arrow, Enter...). */
export function keyboardUser() {
  return lastInput === "key";
}

const FOCUS_KEYS = ["data-play", "data-why", "data-action", "data-cmd", "id"];
const FOCUSABLE = "button:not([disabled]), a[href], input, select, textarea, summary, [tabindex]";

/** A selector that finds ``el`` again in freshly rendered HTML, or null. */
function focusKey(el) {
  for (const name of FOCUS_KEYS) {
    if (!el.hasAttribute(name)) continue;
    let sel = `[${name}="${CSS.escape(el.getAttribute(name))}"]`;
    if (el.dataset.seat !== undefined) sel += `[data-seat="${CSS.escape(el.dataset.seat)}"]`;
    return sel;
  }
  return null;
}

export function focusable(el) {
  return Boolean(el && el.matches(FOCUSABLE) && !el.closest("[hidden]"));
}

/** The control a keyboard user should land on in ``box``: one marked data-autofocus (the box itself may
 *  be), else the first. */
export function focusInto(box) {
  const target = (box.matches("[data-autofocus]") && box) || box.querySelector("[data-autofocus]")
    || [...box.querySelectorAll(FOCUSABLE)].find((e) => e.tabIndex >= 0);
  const el = target || box;
  el.focus({ preventScroll: true });
  return el;
}

/** Replace what ``root`` shows without throwing the keyboard focus back to the top of the page: the
 *  control that had it gets it back when it is drawn again. Returns where the focus was before (``had``:
 *  in ``root`` or nowhere, so the caller may place it) and whether it was put back (``restored``). */
export function rerender(root, html) {
  const active = document.activeElement;
  const inside = Boolean(active && active !== document.body && root.contains(active));
  const had = inside || !active || active === document.body;
  const key = inside ? focusKey(active) : null;
  root.innerHTML = html;
  let restored = false;
  if (key) {
    const el = root.querySelector(key);
    if (focusable(el)) {
      el.focus({ preventScroll: true });
      restored = true;
      if (el.tagName === "INPUT" && el.type === "text" && typeof active.selectionStart === "number") {
        el.setSelectionRange(active.selectionStart, active.selectionEnd); // typing goes on where it was
      }
    }
  }
  return { had, restored, from: inside ? active : null };
}

/** A screen that asks before the player leaves it (the table, while he plays a match there) sets a
 *  guard: given the way to go on, it returns true to let the link go now, or false, having asked, and
 *  calls ``go`` itself if the player confirms. */
let leaveGuard = null;
export function guardLeaving(guard) { leaveGuard = guard; }
export function mayLeave(go) { return !leaveGuard || leaveGuard(go); }

export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

const SEAT_KEY = "opentrix:seat:";

/** Seat tokens live in localStorage, one per table: whoever holds one owns that seat. */
export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(`${SEAT_KEY}${code}`) || "null"); } catch { return null; }
}
export function forgetSeat(code) {
  try { localStorage.removeItem(`${SEAT_KEY}${code}`); } catch { /* storage refused: nothing kept */ }
}
export function saveSeat(code, seat, token) {
  // ``at``: when, so the front page can offer the way back to the tables of late (home.js)
  localStorage.setItem(`${SEAT_KEY}${code}`, JSON.stringify({ seat, token, at: Date.now() }));
}

/** The codes of the tables this browser holds a seat at and has not seen finished, the latest first
 *  (at most ``n``): the finished ones keep their tokens (a rematch is joined with them) but are not
 *  asked about again, so they never crowd out an older table still in play. */
export function savedTables(n) {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(SEAT_KEY)) continue;
    const seat = savedSeat(key.slice(SEAT_KEY.length));
    if (seat && seat.token && !seat.done) out.push({ code: key.slice(SEAT_KEY.length), at: seat.at || 0 });
  }
  return out.sort((a, b) => b.at - a.at).slice(0, n).map((x) => x.code);
}

const MUTE_KEY = "opentrix:mute:";

/** The players whose chat this browser hides at a table, as "seat:name" (a seat freed in the lobby and
 *  taken by someone else is not hidden with the one who left it). Kept per table, like the seat. */
export function mutedAt(code) {
  try {
    const list = JSON.parse(localStorage.getItem(`${MUTE_KEY}${code}`) || "[]");
    return Array.isArray(list) ? list.filter((x) => typeof x === "string") : [];
  } catch { return []; }
}
export function saveMuted(code, list) {
  try {
    if (list.length) localStorage.setItem(`${MUTE_KEY}${code}`, JSON.stringify(list));
    else localStorage.removeItem(`${MUTE_KEY}${code}`);
  } catch { /* storage refused: hidden for this page only */ }
}

/** Note that a table this browser holds a seat at is finished (its token is kept). */
export function markSeatDone(code) {
  const seat = savedSeat(code);
  if (seat) localStorage.setItem(`${SEAT_KEY}${code}`, JSON.stringify({ ...seat, done: true }));
}
