// Cards as the server writes them ("QS", "TD") and how they look on the table.

import { cardName, escapeHtml } from "./i18n.js";

export const SUIT_LETTERS = "SHDC";
export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "23456789TJQKA";
const HAND_SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternate black and red in the hand

export function rankOf(card) { return RANKS.indexOf(card[0]); }
export function suitOf(card) { return card[1]; }
export function isRed(card) { return card[1] === "H" || card[1] === "D"; }
export function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }
export function cardLabel(card) { return rankLabel(card) + SUIT_SYMBOLS[card[1]]; }

export function sortHand(cards) {
  return [...cards].sort((a, b) => HAND_SUIT_ORDER[a[1]] - HAND_SUIT_ORDER[b[1]] || rankOf(b) - rankOf(a));
}

/** One card face; ``opts.cls`` adds classes, ``opts.attrs`` adds attributes. To a screen reader it is
 *  an image named after the card ("Queen of spades"), or ``opts.role`` (a playable card is a button),
 *  and ``opts.label`` may say more ("Samir: Queen of spades"). */
export function cardHTML(card, opts = {}) {
  const cls = ["card", isRed(card) ? "red" : "black", opts.cls || ""].join(" ").trim();
  const r = rankLabel(card);
  const s = SUIT_SYMBOLS[card[1]];
  const middle = "JQK".includes(card[0])
    ? `<span class="face"><span>${r}</span><span class="s">${s}</span></span>`
    : `<span class="pip">${s}</span>`;
  const label = escapeHtml(opts.label || cardName(card));
  return `<div class="${cls}" data-card="${card}" role="${opts.role || "img"}" aria-label="${label}" ${opts.attrs || ""}>`
    + `<span class="corner tl"><span>${r}</span><span class="s">${s}</span></span>${middle}`
    + `<span class="corner br"><span>${r}</span><span class="s">${s}</span></span></div>`;
}

export function backHTML(cls = "") {
  return `<div class="card back ${cls}" aria-hidden="true"></div>`;
}

/** The cards of a Trix layout, highest first, from its (lowest, highest) ends. */
export function layoutRun(ends) {
  if (!ends) return [];
  const suit = ends[0][1];
  const lo = rankOf(ends[0]);
  const hi = rankOf(ends[1]);
  const run = [];
  for (let r = hi; r >= lo; r--) run.push(RANKS[r] + suit);
  return run;
}
