// A match's result as every page says it (the table's final dialog, a finished table's page, the replay,
// the history): who won, the standings, the team totals. Names come from the caller, which knows how its
// page calls each seat.

import { escapeHtml, t } from "./i18n.js";

export function scoreClass(x) { return x < 0 ? "neg" : x > 0 ? "pos" : ""; }
/** A score kept left to right, so an Arabic page shows −25 and not 25−. */
export function num(x) { return `<bdi dir="ltr">${x}</bdi>`; }

/** The two teams' totals (seats 0 & 2, 1 & 3) in partnership play, else null. */
export function teamTotalsOf(totals, partnership) {
  return partnership ? [totals[0] + totals[2], totals[1] + totals[3]] : null;
}

/** "Lina won!", "Team Lina & Nour won!", "Shared win: …", or "You won!" for the seat ``me``. */
export function headlineText(winners, teamTotals, nameOf, me = null) {
  const names = winners.map((s) => `\u2068${nameOf(s)}\u2069`).join(t("list.and")); // each name isolated: RTL and LTR names mix
  if (winners.length > (teamTotals ? 2 : 1)) return t("dlg.shared", { names });
  if (!teamTotals && me !== null && winners[0] === me) return t("dlg.won.you"); // not "the winner: you"
  return t(teamTotals ? "dlg.won.team" : "dlg.won", { names });
}

/** Final standings: players by total, or in partnership the two teams by team total (each partner's
 *  own total under the team's name), as the match is decided. */
export function standingsHTML(totals, winners, teamTotals, nameOf) {
  let rows;
  if (teamTotals) {
    const teams = [[0, 2], [1, 3]].sort((x, y) => teamTotals[y[0]] - teamTotals[x[0]]);
    rows = teams.map(([a, b]) => `<tr class="${winners.includes(a) ? "winner-row" : ""}"><td><bdi>${escapeHtml(t("team.a", { a: nameOf(a), b: nameOf(b) }))}</bdi>`
      + `<br><small dir="auto">${escapeHtml(nameOf(a))} ${num(totals[a])} · ${escapeHtml(nameOf(b))} ${num(totals[b])}</small></td>`
      + `<td class="${scoreClass(teamTotals[a])}">${num(teamTotals[a])}</td></tr>`).join("");
  } else {
    const order = [0, 1, 2, 3].sort((a, b) => totals[b] - totals[a]);
    rows = order.map((s) => `<tr class="${winners.includes(s) ? "winner-row" : ""}"><td><bdi>${escapeHtml(nameOf(s))}</bdi></td><td class="${scoreClass(totals[s])}">${num(totals[s])}</td></tr>`).join("");
  }
  const who = teamTotals ? t("dlg.team") : t("dlg.player");
  return `<table class="scores" id="standings"><thead><tr><th>${who}</th><th>${t("dlg.total")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** "Team Lina & Nour: 120 · Team Omar & Sami: −40", the team totals in one line. */
export function teamTotalsText(teamTotals, nameOf) {
  return [0, 1].map((i) => `${escapeHtml(t("team.a", { a: nameOf(i), b: nameOf(i + 2) }))}: ${num(teamTotals[i])}`).join(" · ");
}
