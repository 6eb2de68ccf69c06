// The front page: start a table (against bots at once, or to invite friends) or join one by its code.

import { api, markSeatDone, navigate, savedTables, saveSeat, toast } from "./api.js";
import { cardHTML } from "./cards.js";
import { botName, errorText, escapeHtml, t } from "./i18n.js";

const PRESETS = ["classic", "wikipedia", "denexa", "online", "complex"];
const LEVELS = ["easy", "medium", "hard"];

function select(id, options, value, label = "") {
  const aria = label ? ` aria-label="${escapeHtml(label)}"` : "";
  return `<select id="${id}"${aria}>${options.map(([v, label]) => `<option value="${v}" ${v === value ? "selected" : ""}>${escapeHtml(label)}</option>`).join("")}</select>`;
}

export function mountHome(root) {
  const saved = JSON.parse(localStorage.getItem("opentrix:new") || "{}");
  let resumable = []; // tables not finished that this browser holds a seat at: [{ code, status }]
  let gone = false;

  /** The way back to a table left mid-match ("New table", a closed tab): its seat token is kept here. */
  function resumeHTML() {
    if (!resumable.length) return "";
    const rows = resumable.map(({ code, status }) => `<div class="resume-row"><span>${escapeHtml(t(`home.resume.${status}`, { code }))}</span>`
      + `<a class="btn" href="/t/${encodeURIComponent(code)}" data-link data-testid="resume">${t("home.resume")}</a></div>`).join("");
    return `<section class="panel resume" data-testid="resume-panel"><h2>${t("home.resume.title")}</h2>${rows}</section>`;
  }

  async function findResumable() {
    const codes = savedTables(5);
    const found = await Promise.all(codes.map(async (code) => {
      try {
        const info = await api(`/api/tables/${encodeURIComponent(code)}`);
        if (info.status === "finished") markSeatDone(code); // not asked about again
        return info.status === "playing" || info.status === "lobby" ? { code, status: info.status } : null;
      } catch { return null; } // gone, or another server's: nothing to offer
    }));
    resumable = found.filter(Boolean).slice(0, 2);
    const slot = !gone && root.querySelector("#resume-slot");
    if (slot) slot.innerHTML = resumeHTML(); // the form stays as it is, typing and focus too
  }

  function render() {
    const name = saved.name || "";
    const bots = saved.bots || ["medium", "medium", "medium"];
    const levelOpts = LEVELS.map((l) => [l, t(`level.${l}`)]);
    root.innerHTML = `<div class="page">
      <section class="hero">
        <div class="hero-cards" aria-hidden="true">${["KH", "QS", "JD", "AC", "QH"].map((c, i) => cardHTML(c, { attrs: `style="--r:${(i - 2) * 7}deg"` })).join("")}</div>
        <h1>${t("home.title")}</h1><p>${t("home.tagline")}</p>
      </section>
      <div id="resume-slot">${resumeHTML()}</div>
      <div class="grid2">
        <form class="panel" id="create-form">
          <h2>${t("home.create")}</h2>
          <label class="field">${t("home.name")}<input type="text" id="name" maxlength="40" value="${escapeHtml(name)}" placeholder="${escapeHtml(t("you"))}"></label>
          <div style="display:flex;gap:10px;flex-wrap:wrap;margin:4px 0 12px">
            <button class="btn" type="submit" data-start="1" id="play-bots">${t("home.playbots")}</button>
            <button class="btn secondary" type="submit" data-start="0" id="create-invite">${t("home.invite")}</button>
          </div>
          <h3 class="options-title">${t("home.options")}</h3>
          <label class="field">${t("home.rules")}${select("rules", PRESETS.map((p) => [p, t(`preset.${p}`)]), saved.rules || "classic")}</label>
          <p class="preset-note" id="preset-note" data-testid="preset-note">${escapeHtml(presetNote(saved.rules || "classic", complexState(saved.rules || "classic").checked))}</p>
          <label class="field">${t("home.doubling")}${select("doubling", [["", t("home.default")], ["on", t("home.default.on")], ["off", t("home.default.off")]], saved.doubling || "")}</label>
          <label class="check"><input type="checkbox" id="partnership" ${saved.partnership ? "checked" : ""}> ${t("home.partnership")}</label>
          <label class="check"><input type="checkbox" id="complex" ${complexAttrs(saved.rules || "classic")}> ${t("home.complex")}</label>
          <label class="field">${t("home.kingdoms")}${select("kingdoms", [["4", t("home.kingdoms.4")], ["1", t("home.kingdoms.1")]], String(saved.kingdoms || 4))}</label>
          <label class="check"><input type="checkbox" id="hints" ${saved.hints ? "checked" : ""}> ${t("home.hints")}</label>
          <label class="field">${t("home.timer")}${select("timer", [["0", t("home.timer.0")], ["20", t("home.seconds", { n: 20 })], ["45", t("home.seconds", { n: 45 })], ["90", t("home.seconds", { n: 90 })]], String(saved.timer || 0))}</label>
          <div class="field" role="group" aria-labelledby="bots-label"><span id="bots-label">${t("home.bots")}</span><span style="display:flex;gap:6px">${[0, 1, 2].map((i) => select(`bot${i}`, levelOpts, bots[i], t("a11y.botseat", { label: t("home.bots"), name: botName(i + 1) }))).join("")}</span></div>
        </form>
        <form class="panel" id="join-form">
          <h2>${t("home.join")}</h2>
          <label class="field">${t("home.code")}<input type="text" id="code" maxlength="300" autocapitalize="characters" spellcheck="false" style="text-transform:uppercase;letter-spacing:.15em"></label>
          <button class="btn" type="submit">${t("home.joinbtn")}</button>
        </form>
      </div></div>`;
  }

  /** What the table form holds now. */
  function readForm() {
    const q = (id) => root.querySelector(`#${id}`);
    return {
      name: q("name").value, rules: q("rules").value, doubling: q("doubling").value,
      // the preset's own Complex contract is not a choice to remember for the other presets
      partnership: q("partnership").checked, complex: q("complex").disabled ? Boolean(saved.complex) : q("complex").checked,
      kingdoms: Number(q("kingdoms").value), timer: Number(q("timer").value), hints: q("hints").checked,
      bots: [q("bot0").value, q("bot1").value, q("bot2").value],
    };
  }

  /** The code typed or pasted: read out with spaces or dashes ("4CK HS9"), or the whole invite link;
   *  null for a link that is not a table's (a replay's, another site's). */
  function tableCode(typed) {
    const link = typed.match(/\/t\/([^/?#\s]+)/);
    if (!link && typed.includes("/")) return null;
    return (link ? link[1] : typed).replace(/[\s-]+/g, "").toUpperCase();
  }

  async function onSubmit(e) {
    e.preventDefault();
    if (e.target.id === "join-form") {
      const typed = root.querySelector("#code").value;
      const code = tableCode(typed);
      if (code === null) { toast(t("home.notatable")); return; }
      if (!code) return;
      const seat = typed.match(/\/t\/[^#]*(#seat=\d&token=[\w-]+)/); // the host's own link keeps its seat
      if (/^[A-Z0-9]+$/.test(code)) navigate(`/t/${code}${seat ? seat[1] : ""}`);
      else toast(t("table.none", { code })); // no code has other characters: not asked, not counted as a miss
      return;
    }
    const start = e.submitter ? e.submitter.dataset.start === "1" : true;
    const prefs = readForm();
    prefs.name = prefs.name.trim();
    localStorage.setItem("opentrix:new", JSON.stringify(prefs));
    Object.assign(saved, prefs);
    const body = {
      // Without a name: "Player" (others would read "You" as themselves), or "Host" for a friends' table.
      name: prefs.name || (start ? t("home.player") : t("home.host")), rules: prefs.rules, partnership: prefs.partnership,
      kingdoms: prefs.kingdoms, timer: prefs.timer, bots: prefs.bots, start,
    };
    // ?seed=N on the front page deals a known match (the same cards for everyone who uses it).
    const seed = new URLSearchParams(location.search).get("seed");
    if (seed !== null && /^\d{1,19}$/.test(seed)) body.seed = BigInt(seed); // every digit, not a rounded number
    if (prefs.complex) body.complex = true;
    if (prefs.hints && !start) body.hints = true; // against bots a player always has hints
    if (prefs.doubling) body.doubling = prefs.doubling === "on";
    try {
      const res = await api("/api/tables", body);
      saveSeat(res.id, res.seat, res.token);
      navigate(`/t/${res.id}`);
    } catch (err) {
      toast(errorText(err));
    }
  }

  /** The chosen preset in a line, so that "Denexa" or "Online apps" says what it plays. */
  /** The Complex contract is part of the complex preset (ticked, fixed) and may be added to the others. */
  function complexState(preset) {
    const fixed = preset === "complex";
    return { fixed, checked: fixed || Boolean(saved.complex) };
  }
  function complexAttrs(preset) {
    const { fixed, checked } = complexState(preset);
    return `${checked ? "checked" : ""}${fixed ? ` disabled aria-describedby="preset-note"` : ""}`;
  }

  /** What the preset plays, and with Complex added to it, that its King of Hearts rules are a tiebreak's. */
  function presetNote(preset, complex) {
    const note = t(`presetnote.${preset}`);
    return complex && preset !== "complex" ? `${note} ${t("presetnote.withcomplex")}` : note;
  }

  function onChange(e) {
    const note = root.querySelector("#preset-note");
    if (e.target.id === "complex") {
      saved.complex = e.target.checked;
      if (note) note.textContent = presetNote(root.querySelector("#rules").value, e.target.checked);
      return;
    }
    if (e.target.id !== "rules") return;
    const { fixed, checked } = complexState(e.target.value);
    if (note) note.textContent = presetNote(e.target.value, checked);
    const box = root.querySelector("#complex");
    if (box) {
      box.disabled = fixed;
      box.checked = checked;
      if (fixed) box.setAttribute("aria-describedby", "preset-note");
      else box.removeAttribute("aria-describedby");
    }
  }

  /** A change of language draws the page again: what was chosen but not yet sent stays chosen. */
  function redraw() {
    if (root.querySelector("#create-form")) Object.assign(saved, readForm());
    render();
  }

  root.addEventListener("submit", onSubmit);
  root.addEventListener("change", onChange);
  window.addEventListener("langchange", redraw);
  render();
  findResumable();
  return () => {
    gone = true;
    root.removeEventListener("submit", onSubmit);
    root.removeEventListener("change", onChange);
    window.removeEventListener("langchange", redraw);
  };
}
