// Draws the felt: four players around the trick or the Trix layouts. Used by the live table and the replay.
// Seats go counter-clockwise in turn order: the seat after yours sits on your right.

import { backHTML, cardHTML, cardLabel, isRed, layoutRun, sortHand, SUIT_SYMBOLS, SUIT_LETTERS } from "./cards.js";
import { cardName, escapeHtml, suitName, t } from "./i18n.js";

export const POSITIONS = ["bottom", "right", "top", "left"];

export function positionOf(seat, me) {
  return POSITIONS[(seat - me + 4) % 4];
}

/** Penalty cards worth showing in front of a player for this contract. */
export function penaltyCards(contract, taken) {
  const wanted = (c) => {
    if (contract === "king_of_hearts") return c === "KH";
    if (contract === "queens") return c[0] === "Q";
    if (contract === "diamonds") return c[1] === "D";
    if (contract === "complex") return c === "KH" || c[0] === "Q" || c[1] === "D";
    return false;
  };
  return sortHand(taken.filter(wanted));
}

function playerHTML(scene, seat) {
  const p = scene.seats[seat];
  const pos = positionOf(seat, scene.me);
  const cls = ["player", `seat-${pos}`, p.isTurn ? "turn" : "", p.away ? "away" : ""].join(" ");
  const meta = [];
  if (scene.contract && scene.contract !== "trix" && p.tricks !== undefined) meta.push(t("table.tricks", { n: p.tricks }));
  // what the cards taken so far cost (the mini cards under the name say which): a newcomer sees the price
  if (p.points) meta.push(`<bdi dir="ltr" class="pts ${p.points < 0 ? "neg" : "pos"}" title="${escapeHtml(t("table.points.title"))}">${p.points > 0 ? "+" : ""}${p.points}</bdi>`);
  if (p.outPlace) meta.push(t("table.out", { n: p.outPlace }));
  const crown = (p.isKing ? `<span class="crown" role="img" aria-label="${escapeHtml(t("a11y.king"))}">♛</span>` : "");
  // a player who left: when a bot takes his seat, counting down (table.js), shorter in a phone's side column
  const standin = p.standin
    ? `<span class="long" data-standin="${seat}" data-where="badge">${escapeHtml(p.status)}</span><span class="short" data-standin="${seat}" data-where="short">${escapeHtml(p.standin)}</span>` : "";
  const status = p.status ? `<div class="status"${standin ? ' data-testid="standin"' : ""}>${standin || escapeHtml(p.status)}</div>` : "";
  const timer = p.timer !== undefined && p.timer !== null
    ? `<div class="timerbar" data-timer-seat="${seat}"><i style="width:${Math.round(p.timer * 100)}%"></i></div><span class="timer-secs" data-timer-secs="${seat}"></span>` : "";
  const badge = `<div class="badge" data-seat="${seat}">${crown}<span class="name" dir="auto" title="${escapeHtml(p.name)}">${p.level ? `${escapeHtml(p.short)}<span class="lvl"> (${escapeHtml(p.level)})</span>` : escapeHtml(p.name)}</span>`
    + `<span class="meta">${meta.join(" · ")}</span>`
    + (p.handCount !== undefined ? `<span class="count">${escapeHtml(t("table.cardsleft", { n: p.handCount }))}</span>` : "")
    + `</div>`;
  // A doubled card still in its holder's hand: a gold tag "×2 K♥" by his name, a label and not a card
  // (a mini card there read as a second K♥). Once played it leaves the tag and is marked ×2 where it
  // lies: in the trick, then in the pile of whoever took it (``scene.doubledBy``).
  // Asked to double and did not (only holders are asked): "held K♥, no double", for the whole deal.
  const declined = p.declined
    ? `<span class="declined-tag" data-testid="declined" title="${escapeHtml(t("table.declined.title"))}"><bdi>${escapeHtml(t("table.declined", { what: p.declined }))}</bdi></span>` : "";
  const group = p.doubled && p.doubled.length
    ? `<div class="doubled-row" role="group" aria-label="${escapeHtml(t("a11y.doubled"))}">${p.doubled.map((c) => doubledTagHTML(c, p.name)).join("")}</div>` : "";
  const doubled = group + (declined ? `<div class="doubled-row">${declined}</div>` : ""); // not read as a doubled card
  const taken = p.taken && p.taken.length ? `<div class="taken" role="group" aria-label="${escapeHtml(t("a11y.taken"))}">${p.taken.map((c) => takenCardHTML(scene, c)).join("")}</div>` : "";
  if (pos === "bottom") {
    return `<div class="${cls} me"><div class="me-info">${badge}${status}${timer}${doubled}${taken}</div>${handHTML(scene, p)}<div class="prompt">${scene.prompt || ""}</div>${scene.extraBottom || ""}</div>`;
  }
  let cards = "";
  if (p.hand) {
    const faces = sortHand(p.hand).map((c) => cardHTML(c, { cls: (p.played || []).includes(c) ? "played" : "" })).join("");
    cards = `<div class="${pos === "top" ? "top-hand" : "side-hand"}">${faces}</div>`;
  } else if (p.handCount) {
    cards = backsHTML(p.handCount);
  }
  return `<div class="${cls}">${badge}${status}${timer}${cards}${doubled}${taken}</div>`;
}

/** The tag that says a seat doubled ``card`` and holds it still. */
function doubledTagHTML(card, name) {
  const by = t("table.doubledby", { name });
  return `<span class="doubled-tag" data-card="${card}" role="img" aria-label="${escapeHtml(`${cardName(card)}: ${by}`)}" title="${escapeHtml(by)}">`
    + `<b aria-hidden="true">×2</b><bdi dir="ltr" class="${isRed(card) ? "red" : "black"}">${cardLabel(card)}</bdi></span>`;
}

/** A card out of play (taken, or in the trick): marked ×2 if it was doubled, and by whom in its title. */
export function doubledAttrs(scene, card) {
  const by = scene.doubledBy && scene.doubledBy[card];
  if (by === undefined) return { cls: "", attrs: "", label: "" };
  const text = t("table.doubledby", { name: by });
  return { cls: "doubled-mark", attrs: `title="${escapeHtml(text)}"`, label: `${cardName(card)}: ${text}` };
}

function takenCardHTML(scene, card) {
  const d = doubledAttrs(scene, card);
  return cardHTML(card, { cls: `mini ${d.cls}`, attrs: d.attrs, label: d.label });
}

/** Another player's cards, face down: a screen reader hears how many. */
function backsHTML(n) {
  return `<div class="backs" role="img" aria-label="${escapeHtml(t("table.cardsleft", { n }))}">${Array.from({ length: n }, () => backHTML()).join("")}</div>`;
}

function handHTML(scene, p) {
  if (!p.hand) {
    return p.handCount ? backsHTML(p.handCount) : "";
  }
  const cards = sortHand(p.hand);
  const legal = p.legal || null;
  const myTurn = scene.myTurn && legal;
  let prev = null;
  let gaps = 0;
  const faces = cards.map((c) => {
    const cls = [];
    if (myTurn) cls.push(legal.has(c) ? "legal" : "dim");
    if ((p.played || []).includes(c)) cls.push("played");
    if (myTurn && scene.hint === c) cls.push("hinted"); // the card a hint asked for points it out
    if (prev && prev[1] !== c[1]) { cls.push("suit-gap"); gaps += 1; }
    prev = c;
    // A dimmed card answers a click with the rule that holds it back (``data-why``). Tab reaches the
    // playable cards, which a screen reader calls buttons (the rest are pictures); the arrow keys walk
    // the whole hand, dimmed cards too (table.js).
    let attrs = "";
    if (myTurn) attrs = legal.has(c) ? `tabindex="0" data-play="${c}"` : `tabindex="-1" data-why="${c}"`;
    return cardHTML(c, { cls: cls.join(" "), attrs, role: myTurn && legal.has(c) ? "button" : "img" });
  });
  // Two rows, which a portrait phone stacks (cards wide enough to tap) and a wider screen runs together.
  const half = Math.ceil(faces.length / 2);
  const rows = [faces.slice(0, half), faces.slice(half)].filter((r) => r.length)
    .map((r, i) => `<div class="hand-row${i ? " second" : ""}" style="--rn:${Math.max(r.length, 2)}">${r.join("")}</div>`).join("");
  return `<div class="hand ${myTurn ? "my-turn" : ""}" style="--n:${Math.max(cards.length, 2)};--g:${gaps}" data-testid="hand"`
    + ` role="group" aria-label="${escapeHtml(t("a11y.hand"))}" tabindex="-1">${rows}</div>`;
}

function trickHTML(scene) {
  const slots = scene.trick.map(([seat, card]) => {
    const pos = positionOf(seat, scene.me);
    const cls = ["slot", pos, scene.freshCard === card ? "fresh" : "", scene.trickWinner === seat ? "winner" : ""].join(" ");
    const who = scene.seats[seat] ? `${scene.seats[seat].name}: ` : "";
    const d = doubledAttrs(scene, card);
    return `<div class="${cls}" data-trick-seat="${seat}">${cardHTML(card, { cls: d.cls, attrs: d.attrs, label: who + (d.label || cardName(card)) })}</div>`;
  }).join("");
  return `<div class="trick" data-testid="trick" role="group" aria-label="${escapeHtml(t("a11y.trick"))}">${slots}</div>`;
}

function layoutsHTML(scene) {
  const cols = SUIT_LETTERS.split("").map((s, i) => {
    const run = layoutRun(scene.layouts[i]);
    const red = s === "H" || s === "D";
    const stack = run.length
      ? `<div class="stack">${run.map((c) => cardHTML(c, { cls: scene.freshCard === c ? "fresh" : "" })).join("")}</div>`
      : `<div class="empty ${red ? "red" : ""}"><span class="j">J</span>${SUIT_SYMBOLS[s]}</div>`; // a row starts with its jack
    // One picture per layout for a screen reader: "Hearts: 9 of hearts to Queen of hearts".
    const label = run.length
      ? t("a11y.layout", { suit: suitName(i), low: cardName(run[run.length - 1]), high: cardName(run[0]) })
      : t("a11y.layout.empty", { suit: suitName(i) });
    return `<div class="layout" data-suit="${s}" role="img" aria-label="${escapeHtml(label)}">${stack}</div>`;
  }).join("");
  // the longest row, so that a phone can size the cards to fit it in the felt's height (app.css)
  const longest = Math.max(1, ...scene.layouts.map((l) => layoutRun(l).length));
  return `<div class="layouts" data-testid="layouts" style="--run:${longest}" role="group" aria-label="${escapeHtml(t("a11y.layouts"))}">${cols}</div>`;
}

export function renderBoard(scene) {
  const center = scene.contract === "trix" ? layoutsHTML(scene) : scene.contract ? trickHTML(scene) : "";
  const note = scene.centerNote ? `<div class="center-note">${escapeHtml(scene.centerNote)}</div>` : "";
  const players = [0, 1, 2, 3].map((s) => playerHTML(scene, s)).join("");
  // a question asked at the table (``floating``) and a side panel (``overlay``) sit on the felt itself,
  // above the hand (app.css), not in the middle of the trick
  const cls = ["board", scene.mode || "", scene.contract === "trix" ? "trix" : ""].filter(Boolean).join(" ");
  return `<div class="${cls}" data-testid="board">${players}<div class="center">${center}${note}${scene.centerExtra || ""}</div>`
    + `${scene.floating || ""}${scene.overlay || ""}</div>`;
}
