// The live table: lobby, play, dialogs and summaries, over one WebSocket that reconnects by itself.

import { announce, api, focusable, focusInto, forgetSeat, guardLeaving, hideToast, keyboardUser, mutedAt, navigate, rerender, savedSeat, saveMuted, saveSeat, toast } from "./api.js";
import { doubledAttrs, penaltyCards, renderBoard } from "./board.js";
import { cardHTML, cardLabel, rankOf, SUIT_SYMBOLS } from "./cards.js";
import { botName, cardName, contractHint, contractName, errorText, escapeHtml, t } from "./i18n.js";
import { headlineText, num, scoreClass, standingsHTML, teamTotalsText } from "./results.js";

const CARD_RE = /^[2-9TJQKA][SHDC]$/;
const TRICK_LINGER_MS = 1100;
const CLAIM_PAUSE_MS = [1200, 2300]; // a hand that cannot claim a redeal answers after 1.2 to 3.5 s

export function mountTable(root, code) {
  code = code.toUpperCase();
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    saveSeat(code, Number(hash.get("seat") || 0), hash.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const st = {
    code, ws: null, closed: false, retry: 0, connected: false, everConnected: false,
    seat: null, token: (savedSeat(code) || {}).token || null,
    n: null, epoch: null, view: null, info: null, drawer: null,
    pending: false, freshCard: null, lingerUntil: 0, lingerTimer: null,
    deadline: null, timerSeat: null, timerTotal: 0, readySent: -1, autoSent: -1, joinName: "",
    finishedOnly: false, pendingSince: null, pendingTries: 0, dialogShown: null, announcedTurn: null, scoresOpen: false, dialogChatOpen: false, freed: null, nextDealAt: null,
    rematchAsked: false, rules: null, invite: null, lastMove: null, leaving: null,
    hint: null, hintAsked: false, // the hard bot's move for this turn, asked for with Hint (an update clears it)
    standinAt: [null, null, null, null], // per seat: when a bot takes over from a player who left (Date.now() ms)
    chat: [], unread: 0, chatDraft: "", chatSent: null, // the table's chat: the last messages, those not yet read,
    // what is being typed, and the last message sent until it comes back (a refused one returns to the field)
    chatAtEnd: true, // the log was scrolled to its latest message (an update keeps a player reading back where he is)
    muted: mutedAt(code), // "seat:name" of the players whose messages this browser hides (no log line, note or count)
  };
  // Where invite links point: the page's own address, unless the server knows a better one (the host
  // opened the page on 127.0.0.1, which no friend can reach, or named a public address).
  api("/api/options").then((o) => { st.invite = o.invite || null; if (st.info && st.info.status === "lobby") render(); }).catch(() => {});

  function inviteLink() {
    const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(location.hostname);
    const base = st.invite && (st.invite.always || local) ? st.invite.base : location.origin;
    return `${base}/t/${code}`;
  }
  const tick = setInterval(() => { updateTimer(root, st); updateStandins(); }, 250);

  // A link away from a match this player is in asks first: his seat goes to a bot while he is gone.
  // (Watching, in the lobby, or once the match is over, a link simply goes.)
  // (Not once the page says the table is gone: nothing here to leave.)
  guardLeaving((go) => {
    const playing = st.seat !== null && st.info && st.info.status !== "lobby" && st.view && !st.view.match_over
      && !st.finishedOnly && !st.closed;
    if (!playing) return true;
    st.leaving = go;
    render();
    const dlg = root.querySelector("#leave-dialog");
    if (!dlg) { st.leaving = null; return true; } // nothing could ask: never swallow the link
    focusInto(dlg); // from the top bar's link: the question takes the focus
    return false;
  });

  function send(msg) {
    if (st.ws && st.ws.readyState === WebSocket.OPEN) st.ws.send(JSON.stringify(msg));
  }

  function connect() {
    if (st.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
    st.ws = ws;
    ws.onopen = () => {
      st.connected = true; st.everConnected = true; st.retry = 0;
      send({ type: "hello", token: st.token, last: st.n, epoch: st.epoch });
    };
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      st.connected = false;
      if (st.closed || st.ws !== ws) return;
      if (e.code === 4404) { showStored(); return; } // the table was finished and put away
      if (e.code === 4409) { waitForTakeUp(); return; } // its stopped server's lease has not run out yet
      render();
      const wait = Math.min(5000, 400 * 2 ** st.retry++);
      setTimeout(connect, wait);
    };
  }

  function reconnect() {
    const old = st.ws;
    st.ws = null;
    if (old) old.close();
    connect();
  }

  function onMessage(msg) {
    if (msg.type === "welcome") {
      st.pendingSince = null; st.pendingTries = 0; // taken up: a later wait starts afresh
      st.seat = msg.seat;
      // What was said before this connection. Back after a dropped connection, what others said meanwhile
      // counts as new (a first connection, or a reload, starts with nothing unread).
      const last = st.chat.length ? st.chat[st.chat.length - 1].at : null;
      const missed = last === null ? [] : (msg.chat || []).filter((m) => m.at > last && m.seat !== msg.seat && !isMuted(m));
      if (!chatInView()) st.unread += missed.length;
      st.chat = msg.chat || [];
      st.rematchAsked = false; // an ask lost with the old connection can be made again
      if (st.epoch !== msg.epoch) st.n = null;
      st.epoch = msg.epoch;
      return;
    }
    if (msg.type === "error" && st.chatSent !== null && /^(you are chatting too fast|a chat message)/.test(msg.message)) {
      if (!st.chatDraft) st.chatDraft = st.chatSent; // refused: the text is not lost
      st.chatSent = null;
      toast(msg.message.startsWith("you are chatting too fast") ? t("chat.toofast") : msg.message);
      render();
      return;
    }
    if (msg.type === "error" && msg.code === "bad_token") { // a token from an old or mistyped link: let it go
      forgetSeat(code);
      st.token = null;
    }
    if (msg.type === "error") {
      st.pending = false; st.rematchAsked = false; st.hintAsked = false; st.lastError = errorText(msg);
      toast(msg.message.startsWith("that move was for a turn gone by") ? t("table.stale") : errorText(msg)); render(); return;
    }
    if (msg.type === "unseated") { // the host gave this seat back to the table: watch, or sit again
      forgetSeat(code);
      st.token = null;
      st.seat = null;
      st.chatSent = null; st.hint = null; st.hintAsked = false;
      toast(t("lobby.unseated"), 8000);
      return; // the update that follows shows the lobby as a visitor sees it
    }
    if (msg.type === "rematch") { // this seat's own token at the table the match goes on at
      saveSeat(msg.code, msg.seat, msg.token);
      if (st.muted.length) saveMuted(msg.code, [...new Set([...mutedAt(msg.code), ...st.muted])]); // the same people
      if (st.rematchAsked) { navigate(`/t/${msg.code}`); return; } // asked too (perhaps at the same moment as another): go
      render();
      return;
    }
    if (msg.type === "hint") { // for the position it was asked in (the server drops one that is not)
      st.hintAsked = false;
      st.hint = msg.action;
      toast(t("hint.says", { what: actionWords(msg.action) }), 6000);
      render();
      return;
    }
    if (msg.type === "chat") {
      const m = msg.message;
      st.chat = [...st.chat, m].slice(-50);
      if (m.seat === st.seat && m.text === st.chatSent) st.chatSent = null; // it arrived: nothing to give back
      if (m.seat !== st.seat && !isMuted(m)) {
        // each part isolated, so "لينا: OK!" keeps its order on a page of either direction
        const said = t("chat.toast", { name: `\u2068${m.name}\u2069`, text: `\u2068${m.text}\u2069` });
        if (!chatInView()) { st.unread += 1; toast(said, 5000); } else announce(said); // read out either way
      }
      render();
      return;
    }
    if (msg.type === "catchup") return; // the update that follows carries the state
    if (msg.type === "watching") {
      if (st.info) { st.info.spectators = msg.spectators; render(); }
      return;
    }
    if (msg.type !== "update") return;
    const firstView = st.view === null;
    if (st.n !== msg.n) { st.hint = null; st.hintAsked = false; } // the hint was for the turn before
    st.n = msg.n;
    st.view = msg.view;
    if (st.info && st.info.status === "lobby" && msg.table.status !== "lobby") st.drawer = null; // the lobby's sheet stays there
    const moved = st.info && st.seat !== null && st.info.host_seat !== msg.table.host_seat && msg.table.status === "lobby";
    const wasHost = moved && st.info.host_seat === st.seat;
    st.info = msg.table;
    if (moved && msg.table.host_seat === st.seat) toast(t("lobby.nowhost"), 6000); // the host left: the start is his now
    else if (wasHost) toast(t("lobby.hostmoved", { name: `\u2068${seatName(msg.table.host_seat)}\u2069` }), 6000); // he was away too long
    st.pending = false;
    const ev = msg.event;
    st.freshCard = null;
    if (ev && ev.kind === "action" && CARD_RE.test(ev.action)) {
      st.freshCard = ev.action;
      const v = msg.view;
      if (v.contract !== "trix" && v.trick.length === 0 && v.last_trick.length === 4 && v.phase !== "choose_contract") {
        st.lingerUntil = Date.now() + TRICK_LINGER_MS;
        clearTimeout(st.lingerTimer);
        st.lingerTimer = setTimeout(render, TRICK_LINGER_MS + 20);
      }
    }
    if (ev && ev.kind === "timeout") toast(ev.seat === st.seat ? t("table.timeout.you") : t("table.timeout", { name: seatName(ev.seat) }));
    if (ev && ev.kind === "deal") st.lingerUntil = 0;
    const timer = msg.table.timer || {};
    st.deadline = timer.remaining === null || timer.remaining === undefined ? null : Date.now() + timer.remaining * 1000;
    st.timerSeat = timer.seat;
    st.timerTotal = timer.total || 0;
    const nextIn = msg.table.next_deal_in;
    st.nextDealAt = typeof nextIn === "number" ? Date.now() + nextIn * 1000 : null;
    // A player who left keeps his seat for the server's grace period, then a bot plays it: the others
    // are told when, and see it count down (the seats' ``away_in``, in seconds).
    const standin = msg.table.seats.map((x) => (typeof x.away_in === "number" ? Date.now() + x.away_in * 1000 : null));
    const newlyAway = standin.map((at, s) => at !== null && st.standinAt[s] === null && s !== st.seat);
    st.standinAt = standin; // first: standinText reads it
    if (!firstView) newlyAway.forEach((away, s) => { if (away) announce(standinText(s)); });
    if (!firstView) announceEvent(ev);
    announceTurn();
    // Your turn comes: a panel that covers the trick, the layouts or a question (on a phone: the felt
    // above the hand) is put away, so the move is made seeing the table. Beside it (a wider screen), it stays.
    const view = st.view;
    const move = myMove() ? `${view.history.length}:${view.phase}:${(view.plays || []).length}` : null; // one per move
    if (move && move !== st.lastMove && st.drawer && drawerInTheWay()) st.drawer = null;
    st.lastMove = move;
    render();
    autoAnswer();
  }

  /** One short line for a screen reader per move of the game (the board itself is redrawn silently). */
  function announceEvent(ev) {
    const v = st.view;
    if (!ev || !v) return;
    if (ev.kind === "timeout") return; // the toast says it
    if (ev.kind === "deal") { st.announcedTurn = null; return; }
    if (ev.kind !== "action" || typeof ev.action !== "string") return;
    const who = seatName(ev.seat);
    const a = ev.action;
    if (CARD_RE.test(a)) {
      announce(`${who}: ${cardName(a)}`);
      if (v.contract !== "trix" && v.trick.length === 0 && v.last_trick.length === 4 && v.last_trick_winner !== null) {
        announce(winnerText(v.last_trick_winner));
      }
    } else if (a.startsWith("contract ")) {
      announce(`${t("table.contract")}: ${contractName(a.slice(9))}`);
    } else if (a.startsWith("double ")) {
      announce(`${who}: ${t("dlg.double.card", { card: a.slice(7).split(" ").map(cardName).join(" + ") })}`);
    } else if (a === "pass") {
      announce(`${who}: ${t("table.pass")}`);
    }
    if (v.phase === "deal_over" && v.history.length) announce(t("dlg.dealover", { n: dealCount(v) }));
    if (v.match_over) announce(t("dlg.matchover"));
  }

  function announceTurn() {
    const v = st.view;
    const mine = st.seat !== null && v.turn === st.seat && v.phase !== "claim";
    const key = mine ? `${v.phase}:${v.hand.length}:${v.trick.length}` : null;
    if (mine && key !== st.announcedTurn) announce(t("table.turn.you"));
    st.announcedTurn = key;
  }

  /** Whether this seat has a move to make now (a hand that cannot claim a redeal has none: the page answers). */
  function myMove() {
    const v = st.view;
    return st.seat !== null && v.turn === st.seat && (v.phase !== "claim" || v.legal_actions.includes("claim"));
  }

  /** Whether the open panel covers what a move is made from: the trick or layouts, a dialog, the hand. */
  function drawerInTheWay() {
    const drawer = root.querySelector(".board > .drawer");
    if (!drawer) return false;
    const a = drawer.getBoundingClientRect();
    return [...root.querySelectorAll(".center > .trick, .center > .layouts, .floating-dialog, [data-testid=hand], [data-testid=pass]")]
      .some((el) => {
        const b = el.getBoundingClientRect();
        return b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      });
  }

  function autoAnswer() {
    // Every seat is asked about a redeal; one whose hand cannot claim just answers "no claim". Not at
    // once: an instant answer would tell the table that this hand could not claim, and so that a slow
    // answer elsewhere comes from a hand that could (a bare K♥ or A♥). A pause like a short thought.
    const v = st.view;
    if (!v || st.seat === null || v.turn !== st.seat || v.phase !== "claim") return;
    if (v.legal_actions.length === 1 && v.legal_actions[0] === "no claim" && st.autoSent !== st.n) {
      const asked = st.n;
      st.autoSent = asked;
      setTimeout(() => { if (st.n === asked) act("no claim"); }, CLAIM_PAUSE_MS[0] + Math.random() * CLAIM_PAUSE_MS[1]);
    }
  }

  function act(action) {
    if (st.pending) return;
    if (st.n === null && st.view) return; // a table loaded afresh: its first update (any moment now) replaces this view
    if (!st.connected) { toast(t("table.notsent")); return; } // said, not lost without a word
    st.pending = true;
    send({ type: "act", action, after: st.n }); // a move that crossed a stand-in's is refused, not played later
  }

  function winnerText(s) {
    return s === st.seat ? t("table.winner.you") : t("table.winner", { name: seatName(s) });
  }

  /** A seat's name as HTML for tables and badges: a bot's level in its own span, which a phone hides. */
  function seatNameHTML(s) {
    const info = st.info && st.info.seats[s];
    if (!info || s === st.seat || info.kind !== "bot") return escapeHtml(seatName(s));
    return `${escapeHtml(botAt(s))}<span class="lvl"> (${escapeHtml(t(`level.${info.level}`))})</span>`;
  }

  /** A seat's name where room is short (the last trick's columns): a bot without its level, which the title gives. */
  function seatShortName(s) {
    const info = st.info && st.info.seats[s];
    return info && s !== st.seat && info.kind === "bot" ? botAt(s) : seatName(s);
  }

  /** Whole seconds until a bot plays for the player who left seat ``s``, or null. */
  function standinSecs(s) {
    const at = st.standinAt[s];
    return at === null || at === undefined ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }

  /** "A bot plays for Omar in 38 s" (the badge says it shorter: its name is just above). */
  function standinText(s, where = "table") {
    const n = standinSecs(s);
    if (n === null) return "";
    if (where === "badge") return t("seat.standin", { n });
    if (where === "short") return t("seat.standin.short", { n });
    return t("table.standin", { name: seatName(s), n });
  }

  /** The countdowns of the seats whose players left, once a second or so (between the server's updates). */
  function updateStandins() {
    for (const el of root.querySelectorAll("[data-standin]")) {
      const text = standinText(Number(el.dataset.standin), el.dataset.where);
      if (text && el.textContent !== text) el.textContent = text;
    }
  }

  /** The bot's name in seat ``s``: never that of a person at the table. */
  function botAt(s) {
    const seats = (st.info && st.info.seats) || [];
    return botName(s, seats.filter((x) => x.kind === "human").map((x) => x.name));
  }

  function seatName(s) {
    const info = st.info && st.info.seats[s];
    if (!info) return `#${s + 1}`;
    if (s === st.seat) return t("you");
    if (info.kind === "human") return info.name;
    if (info.kind === "open") return t("seat.open");
    return t("seat.bot", { name: botAt(s), level: t(`level.${info.level}`) });
  }

  // -- rendering ------------------------------------------------------------------------------------

  function render() {
    if (st.closed) return;
    document.title = titleText();
    if (st.finishedOnly) { rerender(root, finishedOnlyHTML()); return; }
    if (!st.info || !st.view) {
      rerender(root, `<div class="page"><p>${t("table.waiting")}</p></div>`);
      return;
    }
    const oldLog = root.querySelector(".chat-log");
    const readingBack = oldLog && !st.chatAtEnd ? oldLog.scrollTop : null;
    if (st.info.status === "lobby") {
      rerender(root, lobbyHTML());
      keepChatScroll(readingBack);
      const card = st.freed === null ? null : root.querySelector(`#lobby-seat-${st.freed}`);
      if (card && st.info.seats[st.freed].kind !== "human") { // freed: its button went, the keys stay on the seat
        if (!root.contains(document.activeElement)) card.focus();
        st.freed = null;
      }
      return;
    }
    const sheet = root.querySelector("#all-scores");
    if (sheet) st.scoresOpen = sheet.open; // read now: its toggle event may not have come yet
    const talk = root.querySelector("#dialog-chat");
    if (talk && talk.open && !st.dialogChatOpen) st.unread = 0; // opened, its toggle event not come yet
    if (talk) st.dialogChatOpen = talk.open;
    if (st.drawer === "chat" && summaryShown()) { st.drawer = null; st.dialogChatOpen = true; } // the chat goes on in it
    if (!summaryShown()) {
      // The chat typed in went away with the lobby or a summary: it goes on in the drawer, so the keys
      // stay there and the question now on the table is read out, not answered by the next space.
      const typing = document.activeElement && document.activeElement.id === "chat-input" && root.contains(document.activeElement);
      if (typing && chatHere()) st.drawer = "chat";
      st.dialogChatOpen = false; // the next summary opens with its chat folded
    }
    const drawers = { scores: scoresDrawer, last: lastTrickDrawer, rules: rulesDrawer, chat: chatDrawer };
    const drawer = st.drawer ? drawers[st.drawer]() : "";
    const was = rerender(root, `<div class="table-wrap">${headingHTML()}${bannersHTML()}${statusHTML()}${renderBoard(scene(drawer))}</div>${dialogHTML()}`);
    fitDialog();
    settleFocus(was);
    updateTimer(root, st);
    keepChatScroll(readingBack);
  }

  /** The latest chat message in view, unless the player scrolled back to read (``readingBack``). */
  function keepChatScroll(readingBack) {
    const log = root.querySelector(".chat-log");
    if (!log) return;
    log.scrollTop = readingBack === null ? log.scrollHeight : readingBack;
    log.onscroll = () => { st.chatAtEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4; };
  }

  /** The tab says when the player must act, so a player who went to another tab (friends are slow to
   *  play, or the bots' turn is long) sees from there that the table waits for him. */
  /** The page's level-one heading, for those who move by headings: the felt shows the table itself. */
  function headingHTML() {
    return `<h1 class="sr-only">${escapeHtml(t("lobby.title", { code: st.code.toUpperCase() }))}</h1>`;
  }

  function titleText() {
    const v = st.view;
    const mine = st.info && v && st.info.status === "playing" && st.seat !== null && !v.match_over
      && (v.legal_actions || []).length > 0 && myMove() && !st.info.seats[st.seat].away;
    return t(mine ? "title.yourturn" : "title.table", { code: st.code.toUpperCase() });
  }

  /** A question asked at the table fills the felt down to the top of the hand, never over it: the
   *  player decides seeing every card (app.css centres it in that room, and it scrolls if it must). */
  function fitDialog() {
    const board = root.querySelector(".board");
    if (!board || !board.querySelector(":scope > .floating-dialog")) return;
    const cards = [...board.querySelectorAll("[data-testid=hand] .card")].map((c) => c.getBoundingClientRect().top);
    const mine = board.querySelector(".seat-bottom").getBoundingClientRect();
    const top = cards.length ? Math.min(...cards) : mine.top;
    board.style.setProperty("--below-dialog", `${Math.max(0, Math.round(board.getBoundingClientRect().bottom - top + 6))}px`);
  }

  /** The table is redrawn on every update. A keyboard (or screen reader) user keeps the focus where it
   *  was; a dialog that opens takes it; when the focused control went away (the card just played, the
   *  dialog just answered) it goes where play goes on: the playable cards, else the hand. */
  function settleFocus(was) {
    // the leave question above all: a question of the match arriving behind it must not take the focus
    const dlg = root.querySelector("#leave-dialog") || root.querySelector("[role=dialog]");
    const prev = st.dialogShown;
    st.dialogShown = dlg ? dlg.id : null;
    if (!was.had) return; // the focus is in the top bar: leave it there
    const from = was.from;
    // Typing in the chat keeps the focus there: a question that opens meanwhile is read out, not
    // focused, or the next space typed would answer it (double a card, name a contract).
    if (was.restored && document.activeElement && document.activeElement.id === "chat-input") {
      if (dlg && dlg.id !== prev && dlg.id !== "leave-dialog") {
        const title = dlg.querySelector("h2, h3, [id$=-title]");
        if (title) announce(title.textContent);
      }
      return;
    }
    // A question that just opened takes the focus, so that a screen reader reads it and Tab starts in
    // it (after a page load nobody counts as a keyboard user yet, and a reader in browse mode never
    // does): its first answer for a keyboard, the dialog box itself otherwise (no answer ringed).
    if (dlg && dlg.id !== prev) {
      if (from || keyboardUser()) focusInto(dlg);
      else dlg.focus({ preventScroll: true });
      return;
    }
    // Nothing had the focus (the page just loaded, or the last tap was on the felt): only a keyboard
    // user is led to the move. A finger or a mouse would see a card ringed and raised as if picked.
    if (!from && !keyboardUser()) return;
    if (was.restored) return;
    if (dlg && from && from.closest("[role=dialog]")) { focusInto(dlg); return; }
    const turn = root.querySelector("[data-testid=hand] [data-play], [data-testid=pass]");
    const hand = root.querySelector("[data-testid=hand]");
    if (turn && (!from || from.closest("[data-testid=hand], [role=dialog], [data-testid=pass]"))) {
      turn.focus({ preventScroll: true });
    } else if (from && from.closest("[data-testid=hand], [role=dialog], [data-testid=pass]") && hand) {
      hand.focus({ preventScroll: true }); // my card is on its way: wait in the hand for the next turn
    } else if (from && from.closest(".drawer")) {
      const opener = root.querySelector(`[data-cmd="${from.closest(".drawer").dataset.drawer}"]`);
      if (opener) opener.focus({ preventScroll: true });
    }
  }

  function bannersHTML() {
    const out = [];
    if (!st.connected && st.everConnected) out.push(`<div class="banner">${t("table.reconnecting")}</div>`);
    const mine = st.seat !== null && st.info.seats[st.seat];
    if (mine && mine.away) {
      out.push(`<div class="banner">${t("table.away")} <button class="btn small" data-cmd="back">${t("table.back")}</button></div>`);
    }
    if (st.seat === null) out.push(`<div class="banner info">${t("table.watching")}</div>`);
    return out.join("");
  }

  function statusHTML() {
    const v = st.view;
    const kingdoms = v.rules && typeof v.rules === "object" && v.rules.kingdoms ? v.rules.kingdoms : 4;
    const parts = [`<span class="chip code">${t("table.code")} <b>${code}</b></span>`];
    if (v.tiebreak_deal) parts.push(`<span class="chip">${t("table.tiebreak")}</span>`);
    else {
      // past the last kingdom, a further one plays off a tie for the lead (``extra_kingdom``)
      // once the match is over the count has moved past the last kingdom played
      const n = v.match_over ? v.kingdom : v.kingdom + 1;
      const kingdom = n > kingdoms ? t("table.kingdom.extra", { n }) : t("table.kingdom", { n, of: kingdoms });
      parts.push(`<span class="chip">${kingdom} · ${t("table.deal", { n: dealCount(v) })}</span>`);
    }
    // a phone keeps the crown and the name ("King:" takes room a second row would pay for)
    parts.push(`<span class="chip king" title="${escapeHtml(t("table.king", { name: seatName(v.king) }))}">♛ <span class="long">${escapeHtml(t("table.king", { name: seatName(v.king) }))}</span><span class="short">${escapeHtml(seatShortName(v.king))}</span></span>`);
    if (v.contract && v.phase !== "choose_contract") { // what it asks too, so nobody plays it blind
      const goal = contractGoal(v.contract);
      parts.push(`<span class="chip contract" title="${escapeHtml(goal)}"><span data-testid="contract">${escapeHtml(contractName(v.contract))}</span><small class="goal">${escapeHtml(goal)}</small></span>`);
    }
    else if (v.phase === "choose_contract") parts.push(`<span class="chip ${v.king === st.seat ? "warn" : ""}" data-testid="turn">${escapeHtml(v.king === st.seat ? t("table.choosing.you") : t("table.choosing", { name: seatName(v.king) }))}</span>`);
    if (v.turn !== null && v.turn !== undefined && v.phase !== "choose_contract") { // the chip above says whose turn
      // a question is asked, not played: say which (a hand that cannot claim a redeal has nothing to do)
      const asked = { double: "table.asked.double", claim: "table.asked.claim" }[v.phase];
      let who = v.turn === st.seat ? t("table.turn.you") : t(asked ? `${asked}.other` : "table.turn.other", { name: seatName(v.turn) });
      if (asked && v.turn === st.seat) who = myMove() ? t(`${asked}.you`) : t("table.asked.claim.none");
      parts.push(`<span class="chip ${myMove() ? "warn" : ""}" data-testid="turn">${escapeHtml(who)}</span>`);
    }
    // the player to act left: when a bot makes his move (and plays his seat) instead, counting down
    const waiting = v.phase === "choose_contract" ? v.king : v.turn;
    if (waiting !== null && waiting !== undefined && waiting !== st.seat && standinSecs(waiting) !== null) {
      parts.push(`<span class="chip standin" data-standin="${waiting}" data-where="table" data-testid="standin-turn">${escapeHtml(standinText(waiting))}</span>`);
    }
    if (st.info.spectators) parts.push(`<span class="chip">${t("table.spectators", { n: st.info.spectators })}</span>`);
    parts.push(seededChip());
    // the buttons as one group, which wraps to a row of its own rather than leaving one behind
    // once the match is under way every seat is played: whoever opens the link watches (and the button says so)
    const buttons = [`<button class="btn small ghost" data-cmd="invite" title="${escapeHtml(t("table.invite.title"))}">${t("table.invite")}</button>`,
      `<button class="btn small ghost" data-cmd="rules" aria-expanded="${st.drawer === "rules"}">${t("table.rules")}</button>`];
    if (v.contract !== "trix") { // Trix has no tricks; before the first one is taken there is none to show
      const none = v.last_trick.length === 0 ? " disabled" : "";
      buttons.push(`<button class="btn small ghost" data-cmd="last" aria-expanded="${st.drawer === "last"}"${none}>${t("table.lasttrick")}</button>`);
    }
    if (hintsHere()) { // against bots only (the server says the same): among friends it would be help
      const off = v.turn !== st.seat || st.pending || st.hintAsked ? " disabled" : "";
      buttons.push(`<button class="btn small ghost" data-cmd="hint" title="${escapeHtml(t("hint.title"))}"${off}>${t("table.hint")}</button>`);
    }
    if (chatHere()) {
      const label = st.unread ? t("chat.unread", { n: st.unread }) : t("table.chat");
      buttons.push(`<button class="btn small ghost" data-cmd="chat" aria-expanded="${st.drawer === "chat"}">${escapeHtml(label)}</button>`);
    }
    buttons.push(`<button class="btn small secondary" data-cmd="scores" aria-expanded="${st.drawer === "scores"}">${t("table.scores")}</button>`);
    parts.push(`<span class="bar-buttons">${buttons.join("")}</span>`);
    return `<div class="statusbar">${parts.join("")}</div>`;
  }

  /** The chat is for tables with people to talk to: two players or more (spectators read it). */
  function chatHere() {
    return st.info.seats.filter((x) => x.kind === "human").length >= 2;
  }

  /** The chat can be read where the player is: its drawer at the table, or the lobby, which shows it
   *  in the page (friends waiting for the host to start talk there). */
  function chatInView() {
    return st.drawer === "chat" || Boolean(st.info && st.info.status === "lobby" && chatHere())
      || Boolean(root.querySelector("#dialog-chat[open]"));
  }

  function muteKey(m) { return `${m.seat}:${m.name}`; }
  function isMuted(m) { return st.muted.includes(muteKey(m)); }

  /** The others who wrote here, each with a button that hides (or shows again) their messages: a
   *  player who wants quiet, or is pestered, needs nobody's leave. The host can free a seat only in
   *  the lobby; this works at any time, and only in this browser. */
  function chatMutes() {
    const who = new Map();
    for (const m of st.chat) if (m.seat !== st.seat) who.set(muteKey(m), m);
    if (!who.size) return "";
    const buttons = [...who.values()].map((m) => {
      const off = isMuted(m);
      const hidden = st.chat.filter((x) => muteKey(x) === muteKey(m)).length;
      const text = off ? t("chat.muted", { name: m.name, n: hidden }) : m.name;
      return `<button class="btn small ghost" type="button" data-cmd="mute" data-seat="${m.seat}" data-name="${escapeHtml(m.name)}" aria-pressed="${off}" aria-label="${escapeHtml(t("chat.mute.label", { name: m.name }))}" dir="auto">${escapeHtml(text)}</button>`;
    });
    return `<p class="chat-mutes" data-testid="chat-mutes">${t("chat.mutes")} ${buttons.join(" ")}</p>`;
  }

  /** The chat's log and its box (the box only for a seated player). */
  function chatBody() {
    const lines = st.chat.filter((m) => !isMuted(m)).map((m) => `<li><b dir="auto">${escapeHtml(m.name)}</b><span class="sr-only">:</span> <span dir="auto">${escapeHtml(m.text)}</span></li>`);
    const log = lines.length ? `<ol class="chat-log" data-testid="chat-log">${lines.join("")}</ol>`
      : st.chat.length ? "" : `<p class="chat-empty">${t("chat.empty")}</p>`; // all hidden: the buttons say so
    const lobby = st.info.status === "lobby";
    const form = st.seat === null ? `<p>${t(lobby ? "chat.seatfirst" : "chat.watching")}</p>`
      : `<form id="chat-form" class="chat-form"><input type="text" id="chat-input" maxlength="200" autocomplete="off" dir="auto" value="${escapeHtml(st.chatDraft)}" placeholder="${escapeHtml(t("chat.placeholder"))}" aria-label="${escapeHtml(t("chat.placeholder"))}"><button class="btn small" type="submit">${t("chat.send")}</button></form>`;
    return `${log}${chatMutes()}${form}`;
  }

  function chatDrawer() {
    return drawerHTML("chat-drawer", "chat", t("chat.title"), chatBody()); // new messages are read out by announce()
  }

  /** The lobby's chat, in the page under the seats. */
  function lobbyChat() {
    if (!chatHere()) return "";
    return `<section class="lobby-chat" data-testid="lobby-chat" aria-labelledby="lobby-chat-title"><h2 id="lobby-chat-title">${t("chat.title")}</h2>${chatBody()}</section>`;
  }

  /** Hints are offered to a seated player whose table has no other human in the match, or whose host
   * allowed them for everyone. */
  function hintsHere() {
    return st.seat !== null && st.info.status === "playing" && !st.view.match_over
      && (hintsAllowed() || st.info.seats.every((x) => x.seat === st.seat || x.kind !== "human"));
  }

  function hintsAllowed() {
    return Boolean(st.info && st.info.options && st.info.options.hints);
  }

  /** An action as a hint says it: "play Q♠", "name Queens", "double K♥", "pass". */
  function actionWords(a) {
    if (CARD_RE.test(a)) return t("hint.play", { card: cardLabel(a) });
    if (a.startsWith("contract ")) return t("hint.contract", { contract: contractName(a.slice(9)) });
    if (a.startsWith("double ")) return t("hint.double", { cards: a.slice(7).split(" ").map(cardLabel).join(t("list.sep")) });
    return t({ pass: "hint.pass", "no double": "hint.nodouble", claim: "hint.claim", "no claim": "hint.noclaim" }[a] || a);
  }

  function scene(drawer) {
    const v = st.view;
    const me = st.seat ?? 0;
    const myTurn = st.seat !== null && v.turn === st.seat && !st.pending;
    const legalCards = new Set(v.legal_actions.filter((a) => CARD_RE.test(a)));
    const lingering = Date.now() < st.lingerUntil && v.trick.length === 0 && v.last_trick.length === 4;
    const played = playedCards(v);
    const seats = [0, 1, 2, 3].map((s) => {
      const info = st.info.seats[s];
      let status = "";
      let standin = "";
      if (info.kind === "human" && info.away) status = t("seat.away");
      else if (info.kind === "human" && !info.connected && s !== st.seat && standinSecs(s) !== null) {
        status = standinText(s, "badge"); // and counts down (updateStandins)
        standin = standinText(s, "short");
      } else if (info.kind === "human" && !info.connected) status = t("seat.offline");
      const timer = st.deadline !== null && st.timerSeat === s && st.timerTotal ? 1 : null;
      const inDeal = v.contract && v.phase !== "choose_contract";
      const isBotSeat = s !== st.seat && info.kind === "bot";
      return {
        name: seatName(s),
        // a bot's level apart from its name, so a narrow screen can drop the level and keep the name
        short: isBotSeat ? botAt(s) : null,
        level: isBotSeat ? t(`level.${info.level}`) : null,
        isKing: v.king === s,
        isBot: info.kind === "bot" || info.away,
        isTurn: v.turn === s,
        away: info.away,
        status,
        standin,
        timer,
        hand: s === st.seat ? v.hand : null,
        handCount: v.hand_sizes[s],
        legal: s === st.seat && v.phase === "play" ? legalCards : null,  // bright while a dialog asks something else
        tricks: inDeal ? v.tricks_taken[s] : undefined,
        points: inDeal && st.info.deal_points ? st.info.deal_points[s] : 0,
        taken: inDeal ? penaltyCards(v.contract, v.taken[s]) : [],
        // tagged by the holder's name while he holds it; once played, marked where it lies (board.js)
        doubled: inDeal ? v.doubled.filter(([h, c]) => h === s && !played.has(c)).map(([, c]) => c) : [],
        declined: inDeal && s !== st.seat ? declinedWhat(v, s, played) : null,
        outPlace: v.out.indexOf(s) + 1 || (v.contract === "trix" && v.out.length === 3 ? 4 : 0), // three out: the last is 4th
      };
    });
    let prompt = "";
    let extra = "";
    if (myTurn && v.phase === "play") {
      prompt = t("table.turn.you");
      if (v.contract === "trix") { // what a newcomer may do here, said where the cards are
        prompt = v.legal_actions.some((a) => CARD_RE.test(a)) ? t("table.trix.place") : t("why.noplace");
      }
      if (v.legal_actions.includes("pass")) {
        extra = `<button class="btn" data-action="pass" data-testid="pass">${t("table.pass")}</button>`;
      }
    }
    return {
      me, seats, contract: v.phase === "choose_contract" ? null : v.contract,
      doubledBy: doubledBy(v),
      hint: st.hint,
      trick: lingering ? v.last_trick : v.trick,
      trickWinner: lingering ? v.last_trick_winner : null,
      layouts: v.layouts,
      freshCard: st.freshCard,
      // the drawer on the felt itself, beside the trick and above the hand (app.css), not in its middle
      myTurn, prompt, extraBottom: extra, floating: floatingDialogHTML(), overlay: drawer,
      centerNote: lingering && v.last_trick_winner !== null ? winnerText(v.last_trick_winner) : "",
    };
  }

  /** Every card played this deal (a doubled one is then shown where it lies, not by its holder). */
  function playedCards(v) {
    return new Set((v.plays || []).map(([, a]) => a).filter((a) => CARD_RE.test(a)));
  }

  /** Under sequential doubling only holders are asked, one after another for all to see, so a seat that
   *  answered "no double" held a card it could have doubled: what it held ("K♥", "a queen"), shown by its
   *  name while such a card is still in play (the bots keep it in mind too), else null. */
  function declinedWhat(v, s, played) {
    const r = st.rules || {};
    if (!r.doubling || (r.doubling_reveal || "sequential") !== "sequential") return null;
    const answer = (v.doubling_answers || []).find(([seat]) => seat === s);
    if (!answer || answer[1].length) return null;
    const queens = ["QS", "QH", "QD", "QC"];
    const cards = v.contract === "king_of_hearts" ? ["KH"] : v.contract === "queens" ? queens : ["KH", ...queens];
    const doubled = new Set((v.doubled || []).map(([, c]) => c));
    if (cards.every((c) => played.has(c) || doubled.has(c))) return null;
    if (v.contract === "king_of_hearts") return cardLabel("KH");
    return v.contract === "queens" ? t("table.declined.queen") : t("table.declined.either", { card: cardLabel("KH") });
  }

  /** Each doubled card of the deal, and the name of whoever doubled it. */
  function doubledBy(v) {
    return Object.fromEntries((v.doubled || []).map(([h, c]) => [c, seatName(h)]));
  }

  function floatingDialogHTML() {
    const v = st.view;
    if (st.seat === null || v.turn !== st.seat || st.pending) return "";
    if (v.phase === "choose_contract") {
      const buttons = v.legal_actions.map((a) => {
        const id = a.replace(/^contract /, "");
        return `<button class="choice" data-action="${a}"><b>${escapeHtml(contractName(id))}</b><small>${escapeHtml(contractHint(id))}</small></button>`;
      }).join("");
      return `<div class="dialog floating-dialog" id="contract-dialog" ${dialogAttrs("contract-dialog")}><h2 id="contract-dialog-title">${t("dlg.contract")}</h2><p id="contract-dialog-sub">${t("dlg.contract.sub")}</p><div class="choices">${buttons}</div></div>`;
    }
    if (v.phase === "double") {
      // the doubles first (one card, then two, then three), "no double" last
      const size = (a) => a.split(" ").length;
      const answers = [...v.legal_actions.filter((a) => a !== "no double").sort((a, b) => size(a) - size(b)), "no double"];
      const buttons = answers.map((a) => {
        if (a === "no double") return `<button class="btn secondary" data-action="no double">${t("dlg.nodouble")}</button>`;
        const cards = a.replace(/^double /, "").split(" ").map(cardLabel).join(" + ");
        // left to right inside Arabic too: "K♥", not "♥K". With many answers a phone shows only the
        // cards ("Q♠ + Q♥", under the title "Double?"); a screen reader still hears "Double Q♠ + Q♥".
        const [before, after] = t("dlg.double.card", { card: "\u0000" }).split("\u0000");
        const word = (x) => (x.trim() ? `<span class="dbl-word">${escapeHtml(x)}</span>` : "");
        return `<button class="btn n${size(a) - 1}" data-action="${a}">${word(before)}<bdi dir="ltr">${cards}</bdi>${word(after)}</button>`;
      }).join("");
      const many = answers.length > 4 ? " many" : ""; // three queens: seven sets of cards, and no double
      return `<div class="dialog floating-dialog" id="double-dialog" ${dialogAttrs("double-dialog")}><h2 id="double-dialog-title">${t("dlg.double")}</h2><p id="double-dialog-sub">${t(partnerNoBonus(st.rules) ? "dlg.double.sub.team" : "dlg.double.sub")}</p><div class="answers${many}">${buttons}</div></div>`;
    }
    if (v.phase === "claim" && v.legal_actions.includes("claim")) {
      return `<div class="dialog floating-dialog" id="claim-dialog" ${dialogAttrs("claim-dialog")}><h2 id="claim-dialog-title">${t("dlg.claim")}</h2><p id="claim-dialog-sub">${escapeHtml(redealGrounds(v))} ${t("dlg.claim.sub")}</p>`
        + `<div class="row"><button class="btn secondary" data-action="no claim">${t("dlg.claim.no")}</button><button class="btn" data-action="claim">${t("dlg.claim.yes")}</button></div></div>`;
    }
    return "";
  }

  /** A dialog named by its heading and described by its first paragraph. The floating ones leave the
   *  table readable behind them (the king looks at his hand before choosing); the overlays are modal. */
  function dialogAttrs(id, modal = false) {
    return `role="dialog" aria-labelledby="${id}-title" aria-describedby="${id}-sub" tabindex="-1"${modal ? ` aria-modal="true"` : ""}`;
  }

  function scoresTable(highlightLast) {
    const v = st.view;
    const head = `<tr><th>${t("dlg.deal")}</th>${[0, 1, 2, 3].map((s) => `<th dir="auto" title="${escapeHtml(seatName(s))}"><span class="nm">${seatNameHTML(s)}</span></th>`).join("")}</tr>`;
    let n = 1; // deals numbered as the status bar counts them: a thrown-in deal and its redeal share one
    const rows = v.history.map((h, i) => {
      const name = h.thrown_in !== null ? t("scores.thrownin") : contractName(h.contract);
      const cls = highlightLast && i === v.history.length - 1 ? "winner-row" : "";
      const number = h.thrown_in !== null ? n : n++;
      return `<tr class="${cls}"><td>${number}. ${escapeHtml(name)} <small>♛${escapeHtml(seatName(h.king))}</small></td>${h.scores.map((x) => `<td class="${scoreClass(x)}">${num(x)}</td>`).join("")}</tr>`;
    }).join("");
    let foot = `<tr><td>${t("dlg.total")}</td>${v.totals.map((x) => `<td class="${scoreClass(x)}">${num(x)}</td>`).join("")}</tr>`;
    if (v.team_totals) foot += `<tr><td colspan="5">${teamTotalsText(v.team_totals, seatName)}</td></tr>`;
    return `<table class="scores" data-testid="scores"><thead>${head}</thead><tbody>${rows}</tbody><tfoot>${foot}</tfoot></table>`;
  }

  function drawerHTML(id, cmd, title, body) {
    return `<div class="drawer" id="${id}" data-drawer="${cmd}" role="region" aria-labelledby="${id}-title"><div class="drawer-head"><h2 id="${id}-title">${title}</h2>`
      + `<button class="btn small ghost" data-cmd="close" aria-keyshortcuts="Escape">${t("table.close")}</button></div>${body}</div>`;
  }

  function scoresDrawer() {
    return drawerHTML("scores-drawer", "scores", t("table.scores"), scoresTable(false));
  }

  /** What a contract asks, with this table's points: "each queen you take costs 25". */
  function contractGoal(id) {
    const p = (st.rules && st.rules.points) || { king_of_hearts: -75, queen: -25, diamond: -10, trick: -15, trix: [200, 150, 100, 50] };
    const [a, b, c, d] = p.trix;
    const k = Math.abs(p.king_of_hearts), q = Math.abs(p.queen), dd = Math.abs(p.diamond), tr = Math.abs(p.trick);
    const vars = id === "trix" ? { a, b, c, d } : { k, q, d: dd, t: tr };
    return t(`goal.${id}`, vars);
  }

  /** A partner who takes a doubled card pays double and nobody gains (``partner_capture`` "no_bonus"):
   *  then only an opponent's taking it pays the holder. */
  function partnerNoBonus(r) {
    return !!(r && r.partnership && (r.partner_capture || "no_bonus") === "no_bonus");
  }

  /** The rules of this table, for someone who has never played: what each contract asks, with the
   *  table's points, and the options that change play (the same as the terminal's F1 sheet). */
  function rulesDrawer() {
    const r = st.rules || {};
    const v = st.view;
    const kingdoms = r.kingdoms || 4;
    const contracts = r.complex ? ["complex", "trix"] : ["king_of_hearts", "queens", "diamonds", "ltoosh", "trix"];
    const rows = contracts.map((c) => `<li${v && v.contract === c ? ' class="now"' : ""}><b>${escapeHtml(contractName(c))}</b>: ${escapeHtml(contractGoal(c))}</li>`).join("");
    const team = r.partnership ? ".team" : "";
    const notes = [t("rules.firstking", { card: cardLabel(r.first_king_card || "7H") })];
    // a Complex match deals King of Hearts only for a tiebreak of that kind, and then its options apply
    const kohDeals = !r.complex || (r.tiebreak || "extra_koh_deal") === "extra_koh_deal";
    if (kingdoms > 1 && r.kingdom_passes === "against_play") notes.push(t("rules.againstplay"));
    if (r.hearts_lead_ban && kohDeals) notes.push(t("rules.heartsban"));
    if (r.king_must_be_discarded) notes.push(t(r.complex ? "rules.kingdiscard.complex" : "rules.kingdiscard"));
    if (r.early_end && !r.complex) notes.push(t("rules.earlyend")); // Complex always plays its 13 tricks
    if (r.doubling) {
      notes.push(t(partnerNoBonus(r) ? "rules.doublingnote.team" : "rules.doublingnote"));
      notes.push(t(`rules.selfcapture.${r.self_capture || "normal"}`));
    }
    if (r.koh_redeal && kohDeals) notes.push(t("rules.redeal.koh"));
    if (r.trix_throw_in) notes.push(t("rules.redeal.trix"));
    if ((r.koh_redeal && kohDeals) || r.trix_throw_in) notes.push(t("rules.redeal.after"));
    if (r.partnership) notes.push(t("rules.partners"));
    const timer = st.info && st.info.options && st.info.options.timer;
    if (timer) notes.push(t("rules.timernote", { n: timer }));
    if (hintsAllowed()) notes.push(t("rules.hintsnote"));
    notes.push(t(`rules.win${team}`));
    notes.push(t(`rules.tie.${r.tiebreak || "extra_koh_deal"}${team}`));
    const body = `<div class="rules-sheet" data-testid="rules"><p>${escapeHtml(t("rules.intro", { n: kingdoms }))}</p><p>${escapeHtml(t("rules.tricks"))}</p>`
      + `<ul>${rows}</ul>${notes.map((n) => `<p>${escapeHtml(n)}</p>`).join("")}</div>`;
    return drawerHTML("rules-drawer", "rules", t("rules.title"), body);
  }

  /** The lobby's one line about the table: preset, doubling, partners, length, move timer. */
  function rulesLine() {
    const r = st.rules;
    if (!r) return "";
    const bits = [t(`preset.${r.preset}`), t(r.doubling ? "rules.doubling" : "rules.nodoubling")];
    if (r.partnership) bits.push(t("rules.partnership"));
    bits.push(t("rules.kingdoms", { n: r.kingdoms }));
    const timer = st.info.options && st.info.options.timer;
    if (timer) bits.push(t("rules.timer", { n: timer }));
    if (hintsAllowed()) bits.push(t("rules.hints"));
    const open = st.drawer === "rules";
    return `<p class="rules-line" data-testid="lobby-rules">${escapeHtml(t("lobby.rules", { rules: bits.join(" · ") }))} <button class="btn small ghost" data-cmd="rules-lobby" aria-expanded="${open}" aria-controls="rules-drawer">${t("rules.title")}</button></p>`;
  }

  function lastTrickDrawer() {
    const v = st.view;
    const body = v.last_trick.length
      ? `<div class="last-trick">${v.last_trick.map(([s, c]) => `<div class="${s === v.last_trick_winner ? "won" : ""}">${cardHTML(c)}<small dir="auto" title="${escapeHtml(seatName(s))}">${escapeHtml(seatShortName(s))}</small></div>`).join("")}</div>`
        + `<p>${escapeHtml(winnerText(v.last_trick_winner))}</p>`
      : `<p>${t("table.nolast")}</p>`;
    return drawerHTML("last-trick", "last", t("table.lasttrick"), body);
  }

  function tookText(s) {
    const v = st.view;
    if (v.contract === "trix") {
      const place = v.out.indexOf(s);
      return place >= 0 ? t("took.place", { n: place + 1 }) : t("took.place", { n: 4 });
    }
    const cards = penaltyCards(v.contract, v.taken[s]);
    const tricks = v.tricks_taken[s];
    if (!tricks) return t("took.nothing");
    const marks = { doubledBy: doubledBy(v) };
    return `${t("took.tricks", { n: tricks })}<span class="taken-inline">${cards.map((c) => {
      const d = doubledAttrs(marks, c);
      return cardHTML(c, { cls: `mini ${d.cls}`, attrs: d.attrs, label: d.label });
    }).join("")}</span>`;
  }

  /** Deals of the match so far, the one being played included; a thrown-in deal is dealt again and
   *  counts once. */
  function dealCount(v) {
    const played = v.history.filter((h) => h.thrown_in === null).length;
    const last = v.history[v.history.length - 1];
    const over = v.phase === "deal_over" || v.match_over; // the deal just ended is the last in history
    return over && last && last.thrown_in === null ? played : played + 1;
  }

  function headlineFor(winners, teamTotals) { return headlineText(winners, teamTotals, seatName, st.seat); }
  function standingsFor(totals, winners, teamTotals) { return standingsHTML(totals, winners, teamTotals, seatName); }

  /** What the deal just ended gave each seat (or who threw it in): the end-of-deal summary's body,
   *  shown again under the final standings so the last deal of a match is not lost behind them. */
  function lastDealHTML(v) {
    const last = v.history[v.history.length - 1];
    if (last.thrown_in !== null) {
      const by = last.thrown_in === st.seat ? t("dlg.thrownin.you") : t("dlg.thrownin", { name: seatName(last.thrown_in) });
      return `<p id="deal-summary-sub">${escapeHtml(by)}</p>`;
    }
    // Trix rows in the order the players went out (place 1 first), the others in seat order
    const seatsInOrder = last.contract === "trix"
      ? [...v.out, ...[0, 1, 2, 3].filter((s) => !v.out.includes(s))] : [0, 1, 2, 3];
    const rows = seatsInOrder.map((s) => `<tr><td><bdi>${seatNameHTML(s)}</bdi></td><td>${tookText(s)}</td><td class="${scoreClass(last.scores[s])}">${num(last.scores[s])}</td><td class="${scoreClass(v.totals[s])}">${num(v.totals[s])}</td></tr>`).join("");
    return `<p id="deal-summary-sub"><b>${escapeHtml(contractName(last.contract))}</b> · ♛ ${escapeHtml(seatName(last.king))}</p>`
      + `<p class="goal-note">${escapeHtml(contractGoal(last.contract))}</p>` // why these scores
      + `<table class="scores" data-testid="last-deal"><thead><tr><th>${t("dlg.player")}</th><th>${t(last.contract === "trix" ? "dlg.finished" : "dlg.took")}</th><th>${t("dlg.deal")}</th><th>${t("dlg.total")}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  function dialogHTML() {
    const v = st.view;
    if (st.leaving && v.match_over) st.leaving = null; // over meanwhile: nothing to leave, the standings show
    if (st.leaving) return leaveDialogHTML();
    if (Date.now() < st.lingerUntil) return ""; // the deal's last trick is shown before its summary covers it
    if (v.match_over) {
      const headline = headlineFor(v.winners, v.team_totals);
      const lastDeal = v.history.length ? `<h3>${t("dlg.lastdeal")}</h3>${lastDealHTML(v)}` : "";
      return `<div class="overlay"><div class="dialog" id="match-over" ${dialogAttrs("match-over", true)} data-autofocus><h2 id="match-over-title">${t("dlg.matchover")}</h2><p id="match-over-sub"><b>${escapeHtml(headline)}</b></p>`
        + standingsFor(v.totals, v.winners, v.team_totals)
        + lastDeal
        + `<details id="all-scores"${st.scoresOpen ? " open" : ""}><summary id="all-scores-toggle">${t("table.scores")}</summary>${scoresTable(false)}</details>`
        + dialogChat()
        + rematchHTML()
        + `<div class="row"><a class="btn secondary" href="/api/tables/${code}/record" download>${t("dlg.download")}</a>`
        + `<a class="btn secondary" href="/replay/${code}" data-link>${t("dlg.replay")}</a><a class="btn" href="/" data-link>${t("dlg.newtable")}</a></div></div></div>`;
    }
    if (v.phase !== "deal_over" || !v.history.length) return "";
    let body = lastDealHTML(v);
    if (v.team_totals) body += `<p class="team-totals" data-testid="team-totals">${teamTotalsText(v.team_totals, seatName)}</p>`; // what decides
    const kind = st.info.tiebreak;
    if (kind) body += `<p class="tiebreak-note" data-testid="tiebreak-note"><b>${escapeHtml(t(`tiebreak.${kind}`))}</b></p>`;
    body += `<p class="countdown" data-next-in>${escapeHtml(nextDealText(st))}</p>`;
    const ready = st.info.ready || [];
    let action = "";
    if (st.seat !== null) {
      action = ready.includes(st.seat)
        ? `<span>${t("dlg.readywait", { n: ready.length })}</span>`
        : `<button class="btn" id="next-deal" data-cmd="next" data-autofocus>${t("dlg.next")}</button>`;
    }
    return `<div class="overlay"><div class="dialog" id="deal-summary" ${dialogAttrs("deal-summary", true)}><h2 id="deal-summary-title">${t("dlg.dealover", { n: dealCount(v) })}</h2>${body}${dialogChat()}<div class="row">${action}</div></div></div>`;
  }

  /** Whether the end-of-deal summary or the final standings cover the table now. */
  function summaryShown() {
    const v = st.view;
    return Boolean(v) && (!st.leaving || v.match_over) && Date.now() >= st.lingerUntil
      && (v.match_over || (v.phase === "deal_over" && v.history.length > 0));
  }

  /** The chat inside the summary and the standings, which cover the table's Chat button: friends talk
   *  over a deal's result, and say "well played" at the end. Folded, with the count of new messages. */
  function dialogChat() {
    if (!chatHere()) return "";
    const label = st.unread ? t("chat.unread", { n: st.unread }) : t("table.chat");
    return `<details id="dialog-chat" class="dialog-chat"${st.dialogChatOpen ? " open" : ""}><summary id="dialog-chat-toggle">${escapeHtml(label)}</summary>${chatBody()}</details>`;
  }

  /** Asked before a link leaves a match in play: the seat is kept, and a bot plays it meanwhile. */
  function leaveDialogHTML() {
    return `<div class="overlay"><div class="dialog" id="leave-dialog" ${dialogAttrs("leave-dialog", true)}><h2 id="leave-dialog-title">${t("leave.title")}</h2>`
      + `<p id="leave-dialog-sub">${t("leave.sub")}</p>`
      + `<div class="row"><button class="btn secondary" data-cmd="stay" data-autofocus>${t("leave.stay")}</button><button class="btn" data-cmd="leave">${t("leave.go")}</button></div></div></div>`;
  }

  /** Play again with the same people: a button for the players, then the way to the new table (a seat
   *  there for a player whose token came, watching for the others). */
  function rematchHTML() {
    const re = st.info.rematch;
    if (!re) {
      if (st.seat === null) return "";
      return st.rematchAsked
        ? `<div class="row"><button class="btn" disabled>${t("dlg.rematch.wait")}</button></div>`
        : `<div class="row"><button class="btn" data-cmd="rematch" id="rematch">${t("dlg.rematch")}</button></div>`;
    }
    // A player of the old table holds a seat there: its token came (saved), or, if it never reached
    // this browser (away when the rematch was made), his token here takes his seat there too.
    const old = savedSeat(code);
    const mine = Boolean(savedSeat(re.code)) || Boolean(old && (re.players || []).includes(old.seat));
    const carry = !savedSeat(re.code) && old ? `#seat=${old.seat}&token=${encodeURIComponent(old.token)}` : "";
    const asked = re.seat === st.seat ? "" : `<p data-testid="rematch-asked">${escapeHtml(t("dlg.rematch.asked", { name: `\u2068${seatName(re.seat)}\u2069` }))}</p>`;
    return mine
      ? `${asked}<div class="row"><a class="btn" id="rematch-join" href="/t/${re.code}${carry}" data-link>${t("dlg.rematch.join")}</a></div>`
      : `<div class="row"><a class="btn secondary" id="rematch-watch" href="/t/${re.code}" data-link>${t("dlg.rematch.watch")}</a></div>`;
  }

  /** The host chose the seed, so he can know every hand: everyone at the table is told, and the seed
   *  itself is shown so that the others can know as much as he does. Empty when the server drew it. */
  function seededChip() {
    const raw = st.info && st.info.seed;
    if (typeof raw !== "number") return "";
    // every digit: above 2**53 the number itself arrives rounded, its text does not
    const seed = typeof st.info.seed_text === "string" ? st.info.seed_text : String(raw);
    const why = t("seed.why");
    return `<span class="chip seeded" data-testid="seeded" title="${escapeHtml(why)}" aria-label="${escapeHtml(`${t("seed.chip", { seed })}. ${why}`)}" role="note">⚠ ${escapeHtml(t("seed.chip", { seed }))}</span>`;
  }

  function lobbyHTML() {
    const info = st.info;
    const link = inviteLink();
    const seated = st.seat !== null;
    const isHost = seated && st.seat === info.host_seat; // whoever created the table, in this browser
    const seats = info.seats.map((s) => {
      let who;
      if (s.kind === "human") {
        const tags = [s.seat === st.seat ? t("lobby.you") : "", s.seat === info.host_seat ? t("lobby.host") : ""].filter(Boolean).join(t("list.sep"));
        who = `<span class="who" dir="auto">${escapeHtml(s.name)}</span>${tags ? ` <small>(${tags})</small>` : ""}`;
      } else if (s.kind === "bot") { // a rematch seats bots where players did not stay for it
        who = `<span class="who">${escapeHtml(botAt(s.seat))}</span> <small>(${escapeHtml(t(`level.${s.level}`))})</small>`;
      } else {
        who = `<span class="who">${t("seat.open")}</span><small>${t("lobby.open", { level: t(`level.${s.level}`) })}</small>`;
      }
      const take = !seated && s.kind === "open" ? `<button class="btn small" data-cmd="take" data-seat="${s.seat}">${t("lobby.take")}</button>`
        : isHost && s.kind === "human" && s.seat !== st.seat
          ? `<button class="btn small ghost" data-cmd="free" data-seat="${s.seat}" aria-label="${escapeHtml(t("lobby.free.label", { name: s.name }))}">${t("lobby.free")}</button>` : "";
      // where the seat sits: play goes round in seat order, and in partnership seats 1 and 3, 2 and 4 play together
      const where = t("lobby.seat", { n: s.seat + 1 }) + (st.rules && st.rules.partnership ? ` · ${t("lobby.partner", { n: ((s.seat + 2) % 4) + 1 })}` : "");
      return `<div class="seatcard" id="lobby-seat-${s.seat}" tabindex="-1" data-lobby-seat="${s.seat}"><small class="seat-where">${escapeHtml(where)}</small>${who}${take}</div>`;
    }).join("");
    const open = info.seats.some((s) => s.kind === "open"); // none at a rematch: bots hold the other seats
    const nameField = !seated && open
      ? `<label class="field">${t("lobby.yourname")}<input type="text" id="join-name" maxlength="40" value="${escapeHtml(st.joinName)}"></label><p>${t("lobby.watch")}</p>` : "";
    let footer = "";
    if (seated && st.seat === info.host_seat) footer = `<button class="btn" data-cmd="start" id="start-match">${t("lobby.start")}</button>`;
    else if (seated) footer = `<p>${t("lobby.waiting")}</p>`;
    return `<div class="lobby panel" data-testid="lobby"><h1>${t("lobby.title", { code: "" }).trim()}</h1>`
      + `<div class="code-big">${code}</div>`
      + (typeof info.seed === "number" ? `<p class="seeded-note">${seededChip()} <small>${escapeHtml(t("seed.why"))}</small></p>` : "")
      + rulesLine()
      + (st.drawer === "rules" ? rulesDrawer() : "")
      + `<p>${t(seated && st.seat === info.host_seat ? "lobby.invite" : "lobby.invite.guest")}</p>` // "send it to your friends": the host's
      + `<div class="invite"><code id="invite-link">${escapeHtml(link)}</code><button class="btn small secondary" data-cmd="copy">${t("lobby.copy")}</button>`
      + (navigator.share ? `<button class="btn small secondary" data-cmd="share">${t("lobby.share")}</button>` : "") + `</div>`
      // a link naming this machine itself reaches nobody else: say so, and what to do, to the host (who
      // can restart the server); a friend who got here already has a link that works
      + (isHost && /^https?:\/\/(localhost|127\.|\[::1\])/.test(link) ? `<p class="warn-note" data-testid="local-link">${localNote()}</p>` : "")
      + `${nameField}<div class="seats">${seats}</div>${footer}${lobbyChat()}</div>`;
  }

  /** The note about a link only this computer reaches, its command kept whole and left to right. */
  function localNote() {
    const cmd = "opentrix serve --host 0.0.0.0";
    return t("lobby.local").replace(cmd, `<code class="cmd" dir="ltr">${cmd}</code>`);
  }

  function finishedOnlyHTML() {
    const info = st.info;
    const known = info && info.seats && info.totals;
    const result = known && info.winners.length
      ? `<p><b>${escapeHtml(headlineFor(info.winners, info.team_totals))}</b></p>${standingsFor(info.totals, info.winners, info.team_totals)}`
      : "";
    return `<div class="page"><div class="panel finished" data-testid="finished"><h1>${t("dlg.matchover")}</h1>${result}`
      + (info && info.rematch ? rematchHTML() : "")
      + `<div class="row" style="display:flex;gap:10px"><a class="btn" href="/replay/${code}" data-link>${t("dlg.replay")}</a>`
      + `<a class="btn secondary" href="/api/tables/${code}/record" download>${t("dlg.download")}</a></div></div></div>`;
  }

  // -- input ----------------------------------------------------------------------------------------

  async function onClick(e) {
    const el = e.target.closest("[data-play],[data-action],[data-cmd],[data-why]");
    // A tap beside an open panel at the table puts it away, and still does what it tapped (a card, a
    // button). Not in the lobby, where the rules sheet sits in the page among the things to fill in.
    const inside = Boolean(el && root.contains(el)); // asked before a redraw takes el out of the page
    const toggles = ["scores", "last", "rules", "chat", "close"];
    if (st.drawer && st.info && st.info.status !== "lobby" && root.contains(e.target) && !e.target.closest(".drawer")
        && !(el && toggles.includes(el.dataset.cmd))) {
      st.drawer = null;
      render();
    }
    if (!inside) return;
    if (el.dataset.why) { toast(whyNot(el.dataset.why)); return; }
    if (el.dataset.play) { act(el.dataset.play); render(); return; }
    if (el.dataset.action) { act(el.dataset.action); render(); return; }
    const cmd = el.dataset.cmd;
    if (cmd === "hint") {
      if (!st.connected) { toast(t("table.reconnecting")); return; }
      st.hintAsked = true; send({ type: "hint" }); render(); return;
    }
    if (cmd === "stay") { st.leaving = null; render(); return; }
    if (cmd === "leave") { const go = st.leaving; st.leaving = null; if (go) go(); return; }
    if (cmd === "next") { send({ type: "next" }); st.info.ready = [...(st.info.ready || []), st.seat]; render(); }
    else if (cmd === "back") send({ type: "back" });
    else if (cmd === "rematch") {
      if (!st.connected) { toast(t("dlg.rematch.offline")); return; }
      st.rematchAsked = true; send({ type: "rematch" }); render();
    }
    else if (["scores", "last", "rules", "rules-lobby", "chat"].includes(cmd)) {
      const which = cmd === "rules-lobby" ? "rules" : cmd; // the lobby's button opens the same sheet
      st.drawer = st.drawer === which ? null : which;
      if (st.drawer === "chat") st.unread = 0;
      render();
      const drawer = st.drawer && root.querySelector(".drawer");
      const typing = drawer && drawer.querySelector("#chat-input");
      if (typing) typing.focus(); // the chat opens ready to write in
      else if (drawer) focusInto(drawer); // on its Close button
    }
    else if (cmd === "close") closeDrawer();
    else if (cmd === "share") {
      try { await navigator.share({ title: "opentrix", text: t("lobby.invite"), url: inviteLink() }); } catch { /* dismissed */ }
    } else if (cmd === "invite" || cmd === "copy") {
      const link = inviteLink();
      const copied = cmd === "invite" ? t("table.invite.copied") : t("lobby.copied");
      try { await navigator.clipboard.writeText(link); toast(copied); } catch { toast(link, 6000); }
    } else if (cmd === "take") {
      const input = root.querySelector("#join-name");
      const name = input ? input.value.trim() : "";
      if (!name) { toast(t("lobby.needname")); if (input) input.focus(); return; }  // others would read "You"
      try {
        const res = await api(`/api/tables/${code}/join`, { name, seat: Number(el.dataset.seat) });
        saveSeat(code, res.seat, res.token);
        st.token = res.token;
        hideToast(); // "type your name" is answered
        reconnect();
      } catch (err) { toast(errorText(err)); }
    } else if (cmd === "start") {
      try { await api(`/api/tables/${code}/start`, { token: st.token }); } catch (err) { toast(errorText(err)); }
    } else if (cmd === "mute") { // this browser stops (or starts again) showing one player's messages
      const who = `${el.dataset.seat}:${el.dataset.name}`;
      st.muted = st.muted.includes(who) ? st.muted.filter((x) => x !== who) : [...st.muted, who];
      saveMuted(code, st.muted);
      render();
    } else if (cmd === "free") { // the host gives a seat back: a stranger, or a friend seated twice
      const seat = Number(el.dataset.seat);
      el.disabled = true; // one request: a second click must not free whoever sits down next
      st.freed = seat;
      try {
        await api(`/api/tables/${code}/free`, { token: st.token, seat, name: st.info.seats[seat].name });
        render();
      } catch (err) { st.freed = null; el.disabled = false; toast(errorText(err)); }
    }
  }

  /** Why the seat may not play ``card`` now, in the engine's terms (Deal._why_illegal) but addressed to
   *  the player: the table dims such cards, and a click on one should teach the rule, not do nothing. */
  function whyNot(card) {
    const v = st.view;
    const legal = v.legal_actions.filter((a) => CARD_RE.test(a));
    if (v.contract === "trix") {
      if (!legal.length) return t("why.noplace");
      return t("why.place", { card: cardLabel(card), cards: legal.map(cardLabel).join(t("list.sep")) });
    }
    if (v.trick.length) {
      const lead = v.trick[0][1][1];
      if (card[1] !== lead && v.hand.some((c) => c[1] === lead)) return t("why.follow", { suit: SUIT_SYMBOLS[lead] });
      return t("why.kinghearts");
    }
    return t("why.hearts");
  }

  function closeDrawer() {
    const was = st.drawer;
    st.drawer = null;
    render();
    const opener = was && root.querySelector(`[data-cmd="${was}"], [data-cmd="${was}-lobby"]`);
    if (opener) opener.focus(); // back where the drawer was opened from
  }

  /** What in the hand allows the redeal (deal.redeal_grounds in the engine), so the offer is not a riddle. */
  function redealGrounds(v) {
    const hand = v.hand || [];
    if (v.contract === "king_of_hearts") {
      const hearts = hand.filter((c) => c[1] === "H").sort((a, b) => rankOf(b) - rankOf(a)).map(cardLabel);
      return hearts.length === 1 ? t("claim.kh.one", { card: hearts[0] }) : t("claim.kh.two", { a: hearts[0], b: hearts[1] });
    }
    const missing = "SHDC".split("").find((s) => !hand.includes(`2${s}`));
    return missing ? t("claim.twos.three", { card: cardLabel(`3${missing}`) }) : t("claim.twos.four");
  }

  function onKey(e) {
    const el = e.target;
    const card = el && el.closest && root.contains(el) ? el.closest("[data-play],[data-why]") : null;
    if (card && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      if (card.dataset.play) { act(card.dataset.play); render(); } else toast(whyNot(card.dataset.why));
      return;
    }
    if (card && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) {
      // The arrow keys walk the hand (left to right on the felt in both languages), dimmed cards too.
      const cards = [...root.querySelectorAll("[data-testid=hand] [data-play], [data-testid=hand] [data-why]")];
      const i = cards.indexOf(card);
      const j = e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1
        : e.key === "ArrowLeft" || e.key === "ArrowUp" ? Math.max(0, i - 1) : Math.min(cards.length - 1, i + 1);
      e.preventDefault();
      cards[j].focus();
      return;
    }
    if (e.key === "Escape" && st.leaving) { e.preventDefault(); st.leaving = null; render(); return; }
    if (e.key === "Escape" && st.drawer) { e.preventDefault(); closeDrawer(); return; }
    if (e.key === "Tab") trapFocus(e);
  }

  /** Keep Tab inside an end-of-deal or end-of-match dialog and the top bar above it (its language
   *  switch and links stay usable): the table behind is covered. */
  function trapFocus(e) {
    const dlg = root.querySelector(".overlay [role=dialog]");
    if (!dlg) return;
    const bar = document.querySelector(".topbar");
    const usable = (box) => (box ? [...box.querySelectorAll("button, a[href], summary, input")] : []).filter((x) => focusable(x) && x.getClientRects().length);
    const items = [...usable(dlg), ...usable(bar)]; // the dialog's first, then the bar's, round again
    e.preventDefault();
    if (!items.length) { dlg.focus(); return; }
    const at = items.indexOf(document.activeElement); // -1: the dialog itself, or outside both
    const next = at < 0 ? (e.shiftKey ? items.length - 1 : 0) : (at + (e.shiftKey ? -1 : 1) + items.length) % items.length;
    items[next].focus();
  }

  /** A finished match its server stopped with (the players at the final standings) is taken up by
   *  this one once that server's lease runs out: try again, backing off, for a minute and a half, then
   *  show the stored record (a server that is still running keeps it). */
  function waitForTakeUp() {
    st.pendingSince = st.pendingSince || Date.now();
    if (Date.now() - st.pendingSince > 90000) { showStored(true); return; }
    render();
    setTimeout(connect, Math.min(5000, 400 * 2 ** (st.pendingTries = (st.pendingTries || 0) + 1)));
  }

  /** The table was finished and put away while we looked: its page from the store (standings kept).
   *  ``final``: even if a stopped server's lease on it still runs. */
  async function showStored(final = false) {
    try {
      const info = await api(`/api/tables/${code}`);
      if (info.status === "finished" && !final && (info.pending || !info.stored)) {
        // waited for (pending), or taken up by this very look (no longer stored): its socket next
        if (info.pending) waitForTakeUp(); else setTimeout(connect, 200);
        return;
      }
      if (info.status === "finished") {
        st.finishedOnly = true;
        if (info.stored) st.info = info;
        render();
        return;
      }
    } catch { /* said below */ }
    // Not finished, yet not here (another server plays it, or the code is unknown): say so, and let
    // the player try again rather than show a match that is not over as over.
    st.closed = true;
    rerender(root, `<div class="page"><div class="panel">${headingHTML()}<p>${escapeHtml(st.lastError || t("table.none", { code }))}</p>`
      + `<a class="btn" href="/t/${code}" data-link>${t("table.retry")}</a></div></div>`);
  }

  function onInput(e) {
    if (e.target.id === "join-name") st.joinName = e.target.value;
    if (e.target.id === "chat-input") st.chatDraft = e.target.value;
  }

  function onSubmit(e) {
    if (e.target.id !== "chat-form") return;
    e.preventDefault();
    const text = st.chatDraft.trim();
    if (!text) return;
    if (!st.connected) { toast(t("table.reconnecting")); return; }
    send({ type: "chat", text });
    st.chatSent = text;
    st.chatDraft = "";
    st.chatAtEnd = true; // his own message in view
    render(); // the field empties and keeps the focus
  }

  /** Enter in the lobby's name field takes the first open seat, as a form would. */
  function onNameKey(e) {
    if (e.target.id !== "join-name" || e.key !== "Enter") return;
    const take = root.querySelector("[data-cmd=take]");
    if (take) { e.preventDefault(); take.click(); }
  }

  /** Opening the chat in a summary reads its messages: the count goes, and the box takes the keys. */
  function onToggle(e) {
    // a redraw inserts it open, which fires toggle again: only a change the player made counts
    if (e.target.id !== "dialog-chat" || e.target.open === st.dialogChatOpen) return;
    st.dialogChatOpen = e.target.open;
    if (!e.target.open) return;
    st.unread = 0;
    render();
    const box = root.querySelector("#dialog-chat #chat-input");
    if (box) box.focus();
  }

  root.addEventListener("click", onClick);
  root.addEventListener("toggle", onToggle, true); // toggle does not bubble
  document.addEventListener("keydown", onKey);
  root.addEventListener("input", onInput);
  root.addEventListener("submit", onSubmit);
  root.addEventListener("keydown", onNameKey);
  const onLang = () => render();
  window.addEventListener("langchange", onLang);
  window.addEventListener("resize", fitDialog);

  (async () => {
    try {
      const info = await api(`/api/tables/${code}`);
      st.rules = info.rules; // every option, for the rules sheet; updates carry only what changes
      if (info.status === "finished" && info.stored && !info.pending) { st.info = info; st.finishedOnly = true; render(); return; }
    } catch (err) {
      root.innerHTML = `<div class="page"><div class="panel">${headingHTML()}<p>${escapeHtml(errorText(err))}</p><a class="btn" href="/" data-link>${t("nav.new")}</a></div></div>`;
      return;
    }
    render();
    connect();
  })();

  return () => {
    guardLeaving(null);
    st.closed = true;
    clearInterval(tick);
    clearTimeout(st.lingerTimer);
    window.removeEventListener("langchange", onLang);
    window.removeEventListener("resize", fitDialog);
    root.removeEventListener("click", onClick);
    document.removeEventListener("keydown", onKey);
    root.removeEventListener("toggle", onToggle, true);
    root.removeEventListener("input", onInput);
    root.removeEventListener("submit", onSubmit);
    root.removeEventListener("keydown", onNameKey);
    if (st.ws) st.ws.close();
  };
}

/** The summary closes by itself when the server's pause ends: say when, so it does not vanish mid-read. */
function nextDealText(st) {
  if (st.nextDealAt === null) return "";
  return t("dlg.nextin", { n: Math.max(0, Math.ceil((st.nextDealAt - Date.now()) / 1000)) });
}

function updateTimer(root, st) {
  const countdown = root.querySelector("[data-next-in]");
  if (countdown) {
    const text = nextDealText(st);
    if (countdown.textContent !== text) countdown.textContent = text;
  }
  if (st.deadline === null || !st.timerTotal) return;
  const bar = root.querySelector(`[data-timer-seat="${st.timerSeat}"] > i`);
  if (!bar) return;
  const left = Math.max(0, st.deadline - Date.now()) / 1000;
  bar.style.width = `${Math.round((left / st.timerTotal) * 100)}%`;
  bar.parentElement.title = t("unit.s", { n: Math.ceil(left) });
  const secs = root.querySelector(`[data-timer-secs="${st.timerSeat}"]`);
  if (secs) secs.textContent = t("unit.s", { n: Math.ceil(left) }); // the seconds themselves, not only a shrinking bar
}

export { navigate };
