// Finished matches kept by this server: replay or download each as opentrix-record/1.

import { api, toast } from "./api.js";
import { errorText, escapeHtml, lang, recordPlayer, t } from "./i18n.js";
import { teamTotalsText } from "./results.js";

/** The options a host picks on the front page in words; any other option as the record spells it. */
function optionText(key, value) {
  if (key === "doubling" && typeof value === "boolean") return t(value ? "rules.doubling" : "rules.nodoubling");
  if (key === "partnership" && typeof value === "boolean") return t(value ? "rules.partnership" : "rules.individual");
  if (key === "kingdoms" && typeof value === "number") return t("rules.kingdoms", { n: value });
  return `${key}=${JSON.stringify(value)}`;
}

function rulesText(rules) {
  if (typeof rules === "string") return t(`preset.${rules}`);
  const extra = Object.entries(rules).filter(([k]) => k !== "preset").map(([k, v]) => optionText(k, v));
  return `${t(`preset.${rules.preset}`)}${extra.length ? ` (${extra.join(t("list.sep"))})` : ""}`;
}

const PAGE = 50; // matches asked for at a time; "Older matches" asks for the next ones

export function mountHistory(root) {
  let data = null;
  let failed = null;
  let more = false; // the last answer was a full page: there may be older matches
  function render() {
    if (failed) { root.innerHTML = `<div class="page"><div class="panel"><h1 class="sr-only">${t("history.title")}</h1>${escapeHtml(failed)}</div></div>`; return; }
    if (!data) { root.innerHTML = `<div class="page"><p>${t("table.waiting")}</p></div>`; return; }
    const rows = data.matches.map((m) => {
      const when = new Date(m.finished_at).toLocaleString(lang === "ar" ? "ar" : undefined);
      const players = m.players.map((p, s) => `<span dir="auto" class="${m.winners.includes(s) ? "pos" : ""}">${escapeHtml(recordPlayer(p, s, m.players))}</span>`).join(t("list.sep"));
      // each number kept left to right (an Arabic page would show 25- for -25), the list in seat order and
      // in the page's direction, as the players' names run
      let totals = m.totals.map((x, s) => `<bdi dir="ltr">${m.winners.includes(s) ? `<b>${x}</b>` : String(x)}</bdi>`).join(" / ");
      // in partnership play the team totals decided the match: they go under the players' own
      if (m.team_totals) {
        const nameOf = (s) => recordPlayer(m.players[s], s, m.players);
        totals += `<br><small class="team-totals">${teamTotalsText(m.team_totals, nameOf)}</small>`;
      }
      return `<tr data-match="${m.id}"><td data-label="${escapeHtml(t("history.when"))}">${escapeHtml(when)}</td><td data-label="${escapeHtml(t("history.players"))}">${players}</td>`
        + `<td data-label="${escapeHtml(t("history.rules"))}">${escapeHtml(rulesText(m.rules))}</td><td data-label="${escapeHtml(t("history.totals"))}">${totals}</td>`
        + `<td class="actions"><a class="btn small" href="/replay/${m.id}" data-link>${t("nav.replay")}</a> <a class="btn small secondary" href="/api/tables/${m.id}/record" download>${t("dlg.download")}</a></td></tr>`;
    }).join("");
    root.innerHTML = `<div class="page"><div class="panel"><h1>${t("history.title")}</h1>`
      + (data.matches.length
        ? `<div style="overflow-x:auto"><table class="list history"><thead><tr><th>${t("history.when")}</th><th>${t("history.players")}</th><th>${t("history.rules")}</th><th>${t("history.totals")}</th><th><span class="sr-only">${t("nav.replay")} · ${t("dlg.download")}</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
        : `<p>${t("history.empty")}</p>`)
      + (more ? `<p><button class="btn secondary" data-cmd="older">${t("history.older")}</button></p>` : "")
      + `</div></div>`;
  }
  function load() {
    const offset = data ? data.matches.length : 0;
    return api(`/api/history?limit=${PAGE}&offset=${offset}`).then((d) => {
      more = d.matches.length === PAGE;
      // a match finished while the page was open moves the others down one: the oldest shown comes again
      const shown = new Set(data ? data.matches.map((m) => m.id) : []);
      data = { matches: [...(data ? data.matches : []), ...d.matches.filter((m) => !shown.has(m.id))] };
      render();
    });
  }
  function onClick(e) {
    const button = e.target.closest("[data-cmd=older]");
    if (!button) return;
    button.disabled = true;
    const shown = data.matches.length;
    load().then(() => { // the focus goes on to the first match just listed, not back to the page's top
      const row = root.querySelectorAll("tr[data-match] a")[shown * 2];
      if (row) row.focus();
    }).catch((err) => { button.disabled = false; toast(errorText(err)); });
  }
  window.addEventListener("langchange", render);
  root.addEventListener("click", onClick);
  render();
  load().catch((e) => { failed = errorText(e); render(); });
  return () => { window.removeEventListener("langchange", render); root.removeEventListener("click", onClick); };
}
