// Replay viewer: step through a stored match deal by deal and card by card, all four hands face up.

import { announce, api, rerender, toast } from "./api.js";
import { penaltyCards, renderBoard } from "./board.js";
import { rankOf, SUIT_LETTERS } from "./cards.js";
import { cardName, contractName, errorText, escapeHtml, recordPlayer, t } from "./i18n.js";
import { headlineText, standingsHTML, teamTotalsOf } from "./results.js";

/** The table after the first ``j`` plays of ``deal``. */
export function stateAt(deal, j) {
  const played = new Set();
  const tricks = [0, 0, 0, 0];
  const taken = [[], [], [], []];
  let trick = [];
  let winner = null;
  const layouts = [null, null, null, null];
  const counts = deal.hands.map((h) => h.length);
  const out = [];
  for (let k = 0; k < j; k++) {
    const { seat, play, winner: w } = deal.steps[k];
    if (play === "pass") continue;
    played.add(play);
    counts[seat] -= 1;
    if (deal.contract === "trix") {
      const si = SUIT_LETTERS.indexOf(play[1]);
      const cur = layouts[si];
      if (!cur) layouts[si] = [play, play];
      else if (rankOf(play) < rankOf(cur[0])) cur[0] = play;
      else cur[1] = play;
      if (counts[seat] === 0) out.push(seat);
      continue;
    }
    if (winner !== null) { trick = []; winner = null; }
    trick.push([seat, play]);
    if (w !== null) {
      winner = w;
      tricks[w] += 1;
      taken[w].push(...trick.map(([, c]) => c));
    }
  }
  return { played, tricks, taken, trick, winner, layouts, out };
}

export function mountReplay(root, code) {
  const st = { data: null, deal: 0, step: 0, error: null, resultShut: false }; // resultShut: the standings folded away

  function render() {
    // folded or not as the reader left it: read from the page itself, where a click has already changed it
    // (its toggle event comes later, after a redraw that would have unfolded it again)
    const result = root.querySelector(".replay-result");
    if (result) st.resultShut = !result.open;
    if (st.error) {
      rerender(root, `<div class="page"><div class="panel"><h1 class="sr-only">${t("replay.title")}</h1><p>${escapeHtml(st.error)}</p>${uploadHTML()}</div></div>`);
      return;
    }
    if (!st.data) {
      rerender(root, code
        ? `<div class="page"><p>${t("table.waiting")}</p></div>`
        : `<div class="page"><div class="panel"><h1>${t("replay.title")}</h1><p>${t("replay.pick")}</p>${uploadHTML()}</div></div>`);
      return;
    }
    const data = st.data;
    const deal = data.deals[st.deal];
    const s = stateAt(deal, st.step);
    const atEnd = st.step === deal.steps.length;
    const seats = [0, 1, 2, 3].map((seat) => ({
      name: playerName(seat),
      isKing: deal.king === seat,
      isTurn: false,
      hand: deal.hands[seat].filter((c) => !s.played.has(c)),
      tricks: deal.contract === "trix" ? undefined : s.tricks[seat],
      taken: penaltyCards(deal.contract, s.taken[seat]),
      doubled: deal.doubled.filter((c) => deal.hands[seat].includes(c) && !s.played.has(c)), // then marked where it lies
      outPlace: s.out.indexOf(seat) + 1 || (s.out.length === 3 ? 4 : 0), // three out ends Trix: the last is 4th
      // isolated left to right (U+2066 … U+2069): an Arabic page would show 25- for -25
      status: atEnd && deal.scores ? `\u2066${deal.scores[seat] > 0 ? "+" : ""}${deal.scores[seat]} → ${deal.totals[seat]}\u2069` : "",
    }));
    let note = "";
    if (deal.thrown_in !== null) note = t("dlg.thrownin", { name: seats[deal.thrown_in].name });
    else if (s.winner !== null) note = t("table.winner", { name: seats[s.winner].name });
    const scene = {
      mode: "replay", me: 0, seats, contract: deal.contract, trick: s.trick, trickWinner: s.winner,
      doubledBy: Object.fromEntries(deal.doubled.map((c) => [c, (seats[deal.hands.findIndex((h) => h.includes(c))] || {}).name || ""])),
      layouts: s.layouts, myTurn: false, centerNote: note,
    };
    const n = data.deals.length;
    // arrows that point the way they move: back points to where the page begins (the right, in Arabic);
    // the browser mirrors « and » itself in right-to-left text, not the triangles nor ⇥
    const [back, fwd, end] = document.documentElement.dir === "rtl" ? ["▶", "◀", "⇤"] : ["◀", "▶", "⇥"];
    const controls = `<div class="replay-controls" data-testid="replay-controls">
      <button class="btn small ghost" data-cmd="prevdeal" title="${t("replay.prevdeal")}" aria-label="${t("replay.prevdeal")}">«</button>
      <button class="btn small ghost" data-cmd="start" title="${t("replay.start")}" aria-label="${t("replay.start")}">↺</button>
      <button class="btn small" data-cmd="prev" title="${t("replay.prev")}" aria-label="${t("replay.prev")}" id="replay-prev">${back}</button>
      <span class="chip" data-testid="replay-pos">${escapeHtml(positionText())}</span>
      <button class="btn small" data-cmd="next" title="${t("replay.next")}" aria-label="${t("replay.next")}" id="replay-next">${fwd}</button>
      <button class="btn small ghost" data-cmd="end" title="${t("replay.end")}" aria-label="${t("replay.end")}">${end}</button>
      <button class="btn small ghost" data-cmd="nextdeal" title="${t("replay.nextdeal")}" aria-label="${t("replay.nextdeal")}" id="replay-nextdeal">»</button>
      ${code ? `<a class="btn small secondary" href="/api/tables/${code}/record" download>${t("dlg.download")}</a>` : ""}
    </div>`;
    rerender(root, `<div class="table-wrap"><h1 class="sr-only">${t("replay.title")}</h1>${controls}${resultHTML(atEnd)}${renderBoard(scene)}</div>`);
  }

  /** At the end of a finished match's last deal, who won and the standings, as the table showed them. */
  function resultHTML(atEnd) {
    const data = st.data;
    if (!atEnd || st.deal !== data.deals.length - 1 || !data.match_over) return "";
    const teams = teamTotalsOf(data.totals, data.rules && data.rules.partnership);
    return `<details class="replay-result" data-testid="replay-result"${st.resultShut ? "" : " open"}><summary><b>${escapeHtml(t("dlg.matchover"))} · ${escapeHtml(headlineText(data.winners, teams, playerName))}</b></summary>`
      + `${standingsHTML(data.totals, data.winners, teams, playerName)}</details>`;
  }

  /** How the record names a seat's player (a bot by its level). */
  function playerName(seat) {
    const players = st.data.players || [];
    return recordPlayer(players[seat], seat, players);
  }

  function positionText() {
    const deal = st.data.deals[st.deal];
    return `${t("replay.of", { i: st.deal + 1, n: st.data.deals.length })} · ${contractName(deal.contract)} · ${t("replay.step", { i: st.step, n: deal.steps.length })}`;
  }

  function uploadHTML() {
    return `<label class="field">${t("replay.upload")}<input type="file" id="record-file" accept=".json,application/json"></label>`;
  }

  function move(cmd) {
    if (!st.data) return;
    const deals = st.data.deals;
    const steps = deals[st.deal].steps.length;
    if (cmd === "next") {
      if (st.step < steps) st.step += 1;
      else if (st.deal < deals.length - 1) { st.deal += 1; st.step = 0; }
    } else if (cmd === "prev") {
      if (st.step > 0) st.step -= 1;
      else if (st.deal > 0) { st.deal -= 1; st.step = deals[st.deal].steps.length; }
    } else if (cmd === "nextdeal" && st.deal < deals.length - 1) { st.deal += 1; st.step = 0; }
    else if (cmd === "prevdeal" && st.deal > 0) { st.deal -= 1; st.step = 0; }
    else if (cmd === "start") st.step = 0;
    else if (cmd === "end") st.step = steps;
    render();
    // The position, and the play just made, for a screen reader (the board is redrawn silently).
    const deal = deals[st.deal];
    const last = st.step > 0 ? deal.steps[st.step - 1] : null;
    const who = last ? playerName(last.seat) : "";
    const play = last ? (last.play === "pass" ? t("table.pass") : cardName(last.play)) : "";
    announce(last ? `${positionText()} — ${who}: ${play}` : positionText());
  }

  function onClick(e) {
    const el = e.target.closest("[data-cmd]");
    if (el && root.contains(el)) move(el.dataset.cmd);
  }
  function onKey(e) {
    if (e.target.tagName === "INPUT") return;
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight") move(rtl ? "prev" : "next");
    else if (e.key === "ArrowLeft") move(rtl ? "next" : "prev");
    else if (e.key === "PageDown") move("nextdeal");
    else if (e.key === "PageUp") move("prevdeal");
  }
  async function onChange(e) {
    if (e.target.id !== "record-file" || !e.target.files.length) return;
    const text = await e.target.files[0].text();
    try {
      const res = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      const data = await res.json();
      if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { code: data.code, params: data.params });
      Object.assign(st, { data, deal: 0, step: 0, error: null, resultShut: false }); // another match: its result unfolded
      root.querySelector(".replay-result")?.remove(); // (render reads the fold from the page)
      render();
    } catch (err) { // said on the page, which stays until another file is picked (a toast went in 3.5 s)
      const said = t("replay.bad", { why: errorText(err) });
      if (st.data) toast(said, 10000); // a record already shown stays
      else { st.error = said; render(); }
    }
  }

  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  document.addEventListener("keydown", onKey);
  window.addEventListener("langchange", render);
  render();
  if (code) {
    api(`/api/tables/${code}/replay`).then((d) => { st.data = d; render(); }).catch(() => { st.error = t("replay.notfound"); render(); });
  }
  return () => {
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onChange);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("langchange", render);
  };
}
