// atout hand viewer: draws what the server's rules engine says (/api/table) and the
// double-dummy values of the search (/api/solve, /api/analyze), and from one seat's view
// the advice of /api/advise. No number is computed here except a card's cost, the
// difference between its value and the best card's.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { K: "king", Q: "queen", N: "cavalier", J: "jack" };
const TAB = Math.random().toString(36).slice(2);     // this page's slots on the server

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

const state = {
  deals: [],          // [{obj, label, group}]
  dealIndex: -1,
  deal: null,         // the position object as given
  real: [],           // the cards really played
  line: [],           // the line shown: the real play, or a what-if line
  cursor: 0,          // cards of `line` on the table
  whatIfFrom: null,   // where `line` leaves the real play
  table: null,        // the /api/table answer for the cursor
  tables: new Map(),  // key -> table
  solves: new Map(),  // key|limit -> solve result
  solving: null,      // {key, controller, started, timer}
  analysis: null,     // the /api/analyze answer for `analysisLine`
  analysisLine: null,
  analysing: null,
  viewSeat: null,     // null: every hand open; a seat: the table as that seat sees it
  advices: new Map(), // key|limit|samples -> the /api/advise answer
  advising: null,     // {key, controller, started, timer}
};

// -- talking to the server -------------------------------------------------------------------

// A server started with --token-file wants every API request to carry its token: asked for
// on the first 401, kept for this tab only (sessionStorage).
async function api(path, init) {
  for (let asked = 0; ; asked++) {
    const token = sessionStorage.getItem("atoutToken");
    const headers = Object.assign({}, init.headers || {}, token ? { Authorization: `Bearer ${token}` } : {});
    const response = await fetch(path, Object.assign({}, init, { headers }));
    if (response.status !== 401 || asked >= 2) return response;
    const given = window.prompt("This server asks for its token (atout serve --token-file):");
    if (!given) return response;
    sessionStorage.setItem("atoutToken", given.trim());
  }
}

async function post(path, body, signal) {
  const response = await api(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { reason: "the server's answer is not JSON" }; }
  return { ok: response.ok, status: response.status, data };
}

const keyOf = (cards) => cards.join(" ");
const positionAt = (k) => Object.assign({}, state.deal, { played: state.line.slice(0, k) });

function fieldMessage(data) {
  if (!data) return "no answer";
  return (data.field ? data.field + ": " : "") + (data.reason || data.error || "refused");
}

// -- cards -----------------------------------------------------------------------------------

function parseCard(token) {
  if (token === "EX") return { kind: "excuse" };
  if (token[0] === "T") return { kind: "trump", n: Number(token.slice(1)) };
  return { kind: "suit", rank: token.slice(0, -1), suit: token.slice(-1) };
}

function excuseName() {
  if (state.table) return state.table.excuse;
  return { priest5: "Narr", at4: "Sküs" }[state.deal ? state.deal.game : ""] || "Excuse";
}

function cardName(token) {
  const c = parseCard(token);
  if (c.kind === "excuse") return excuseName();
  if (c.kind === "trump") return trumpWord() + " " + c.n;
  return (RANK_NAMES[c.rank] || c.rank) + " of " + SUIT_NAMES[c.suit];
}

function trumpWord() {
  return state.deal && !state.deal.game.startsWith("fr") ? "tarock" : "atout";
}

function cardEl(token) {
  const c = parseCard(token);
  const e = el("span", "card");
  e.dataset.card = token;
  e.title = cardName(token);
  if (c.kind === "excuse") {
    e.classList.add("excuse");
    e.append(el("span", "rank", "★"), el("span", "pip", excuseName()));
  } else if (c.kind === "trump") {
    e.classList.add("trump");
    e.append(el("span", "rank", String(c.n)), el("span", "pip", trumpWord()));
  } else {
    e.classList.add("suit-" + c.suit);
    e.append(el("span", "rank", c.rank), el("span", "pip", SUITS[c.suit]));
  }
  return e;
}

function tokenEl(token, compact) {
  // a card inside a sentence: its rank and suit symbol, coloured; compact: a trump as its
  // number and the Excuse as ★ (their colours tell them apart), for lists of tricks
  const c = parseCard(token);
  const e = el("span", "token");
  e.dataset.card = token;
  e.title = cardName(token);
  e.classList.add(c.kind === "suit" ? "suit-" + c.suit : c.kind);
  e.textContent = compact && c.kind !== "suit" ? (c.kind === "trump" ? String(c.n) : "★") : cardText(token);
  return e;
}

function cardText(token) {
  // a card as a player writes it: J♥, 21 atout, ★ Excuse (never the file's code)
  const c = parseCard(token);
  if (c.kind === "excuse") return "★ " + excuseName();
  if (c.kind === "trump") return c.n + " " + trumpWord();
  return c.rank + SUITS[c.suit];
}

function tokensEl(tokens) {
  const span = el("span", "tokens");
  tokens.forEach((t, i) => { if (i) span.append(" "); span.append(tokenEl(t)); });
  return span;
}

function signed(v) { return v > 0 ? "+" + v : String(v); }
function oneDecimal(v) { return (v > 0 ? "+" : "") + v.toFixed(1); }

function valueText(v) {
  // French Tarot and Priestertarock values are gains or losses (+60, −12); Austrian Tarock's
  // are points or counts (49 of 106), where a plus sign would read as a win
  const t = state.table;
  return t && !t.scale.signed ? String(v) : signed(v);
}

// -- the table -------------------------------------------------------------------------------

// where each seat sits, seat 0 at the bottom, when the play goes clockwise (the next seat on
// the player's left); an anticlockwise game (the next seat on the right) mirrors it
const PLACES = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
};
const MIRROR = { left: "right", right: "left", topleft: "topright", topright: "topleft" };

function placeOf(t, seat) {
  const p = PLACES[t.seats][seat];
  return t.turn === "anticlockwise" ? MIRROR[p] || p : p;
}

function groupHand(cards) {
  // the server sorts a hand as a player does; rows: trumps (and the Excuse), then each suit
  const rows = [];
  let current = null;
  for (const t of cards) {
    const c = parseCard(t);
    const group = c.kind === "suit" ? c.suit : "T";
    if (!current || current.group !== group) { current = { group, cards: [] }; rows.push(current); }
    current.cards.push(t);
  }
  return rows;
}

function drawTable() {
  const t = state.table;
  const box = $("table");
  box.replaceChildren();
  box.className = "table seats-" + t.seats + " " + t.turn;
  box.title = "play goes " + t.turn;
  $("contract").replaceChildren(el("strong", null, gameName(t.game)), document.createTextNode(" · " + t.contract),
                                el("span", "turning", t.turn === "anticlockwise" ? " · play goes anticlockwise ↺" : " · play goes clockwise ↻"));
  const solved = currentSolve();
  for (let s = 0; s < t.seats; s++) {
    const seat = el("div", "seat place-" + placeOf(t, s) + " camp-" + campClass(s));
    seat.dataset.seat = s;
    if (t.to_play === s) seat.classList.add("to-play");
    const head = el("div", "seat-head");
    head.append(el("span", "seat-name", "Seat " + s), el("span", "role", t.roles[s]));
    if (t.to_play === s) head.append(el("span", "turn", "to play"));
    seat.append(head);
    const hand = el("div", "hand");
    for (const row of groupHand(t.hands[s])) {
      const r = el("div", "suit-row");
      for (const token of row.cards) r.append(handCard(token, s, solved));
      hand.append(r);
    }
    const hidden = t.hidden ? t.hidden[s] : 0;
    if (hidden) {
      // another seat's hand, seen from the view seat: face down
      const r = el("div", "suit-row backs");
      r.dataset.hidden = hidden;
      for (let i = 0; i < hidden; i++) r.append(el("span", "card back"));
      r.append(el("span", "meaning", hidden + " card" + (hidden === 1 ? "" : "s") + " unseen"));
      hand.append(r);
    } else if (!t.hands[s].length) hand.append(el("span", "empty", "no cards left"));
    seat.append(hand);
    box.append(seat);
  }
  box.append(drawCentre(t));
  drawSide(t);
  drawTricks(t);
}

function campClass(seat) {
  const t = state.table;
  if (t.game === "at4" && t.roles[seat] !== "analysed seat" && t.roles.includes("analysed seat")) return "x";
  if (t.camps[seat] === null) return "x";      // from a seat that does not know the partner yet
  return t.camps[seat] === 0 ? "a" : "b";
}

function gameName(game) {
  return { fr4: "French Tarot (4)", fr3: "French Tarot (3)", fr5: "French Tarot (5, called king)",
           priest5: "Tessiner Priestertarock", at4: "Austrian Tarock" }[game] || game;
}

function handCard(token, seat, solved) {
  const t = state.table;
  const wrap = el("span", "slot");
  const card = cardEl(token);
  wrap.append(card);
  if (t.to_play !== seat) return wrap;
  if (!t.legal.includes(token)) { card.classList.add("not-legal"); return wrap; }
  card.classList.add("legal");
  card.tabIndex = 0;
  card.setAttribute("role", "button");
  card.setAttribute("aria-label", "play " + cardName(token));
  card.addEventListener("click", () => playInstead(token));
  card.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); playInstead(token); } });
  if (state.line[state.cursor] === token) card.classList.add("next-played");
  if (solved && solved.cards && token in solved.cards) {
    const v = solved.cards[token];
    const maximizing = t.camps[seat] === t.maximizing_camp;
    const cost = maximizing ? solved.value - v : v - solved.value;
    const level = cost === 0 ? "optimal" : (cost <= t.small_loss ? "small" : "big");
    card.classList.add(level);
    card.dataset.value = v;
    card.dataset.cost = cost;
    const badge = el("span", "badge " + level);
    badge.append(el("span", "v", valueText(v)), el("span", "c", cost === 0 ? "✓ best" : "−" + cost));
    badge.title = cost === 0 ? "an optimal card: value " + v
                             : "value " + v + ": costs " + cost + " against the best card";
    wrap.append(badge);
  } else if (solved && solved.best && solved.best.includes(token)) {
    card.classList.add("optimal");
  }
  const advice = currentAdvice();
  if (advice && state.viewSeat === seat) {
    const row = advice.cards.find((c) => c.card === token);
    if (row && row.mean !== null) {
      const rec = advice.best.includes(token);
      const a = el("span", "advice-badge" + (rec ? " recommended" : ""),
                   "≈" + oneDecimal(row.mean) + " · " + Math.round(100 * row.optimal) + "%");
      a.dataset.mean = row.mean;
      a.title = "seen from seat " + seat + ": mean value " + row.mean + " over " + advice.solved +
                " deals drawn, optimal in " + Math.round(100 * row.optimal) + "% of them" + (rec ? " — recommended" : "");
      card.dataset.adviceMean = row.mean;
      if (rec) card.classList.add("recommended");
      wrap.append(a);
    }
  }
  return wrap;
}

function drawCentre(t) {
  const centre = el("div", "centre");
  const trickNo = Math.min(t.tricks.length + 1, t.tricks_in_deal);
  if (t.outcome) {
    centre.append(el("div", "trick-title", "The deal is over"));
    centre.append(outcomeEl(t));
  } else {
    const title = t.trick.length
      ? "Trick " + trickNo + " of " + t.tricks_in_deal + " · led by seat " + t.leader
      : "Trick " + trickNo + " of " + t.tricks_in_deal + " · seat " + t.leader + " leads";
    centre.append(el("div", "trick-title", title));
  }
  const shown = t.trick.length ? t.trick : (t.tricks.length ? t.tricks[t.tricks.length - 1].cards : []);
  const last = !t.trick.length && t.tricks.length;
  const row = el("div", "trick" + (last ? " last" : ""));
  for (const [seat, token] of shown) {
    const played = el("div", "played");
    const c = cardEl(token);
    if (last && t.tricks[t.tricks.length - 1].winner === seat) played.classList.add("winner");
    played.append(c, el("span", "by", "seat " + seat));
    row.append(played);
  }
  if (shown.length) centre.append(row);
  if (last) centre.append(el("div", "trick-note", "last trick, won by seat " + t.tricks[t.tricks.length - 1].winner));
  return centre;
}

function outcomeEl(t) {
  // the result as a player says it: made or failed and by how much, then every seat's score
  const r = t.result;
  const made = r.made === null ? "" : r.made ? " made" : " lost";
  const box = el("div", "outcome" + made);
  box.append(el("div", "headline", r.headline));
  for (const line of r.details) box.append(el("div", "detail", line));
  const rows = el("table", "scores");
  for (const row of r.seats) {
    const tr = el("tr");
    tr.dataset.seat = row.seat;
    tr.append(el("th", null, "Seat " + row.seat), el("td", "role-name", row.role));
    if (row.score !== undefined) tr.append(el("td", "score", signed(row.score)));
    else tr.append(el("td", "score", row.points + " points, " + row.tricks + " trick" + (row.tricks === 1 ? "" : "s")));
    rows.append(tr);
  }
  rows.prepend(el("caption", null, r.seats[0].score !== undefined ? "Each seat's score" : "Each seat's points"));
  box.append(rows);
  return box;
}

function drawTricks(t) {
  // the tricks played so far, one row each and one column per seat, as a score sheet: the
  // leader's card marked ▸, the winner's ringed; a click shows the table after the trick
  const sheet = $("tricks");
  sheet.replaceChildren();
  const all = t.tricks.slice();
  if (t.trick.length) all.push({ cards: t.trick, winner: null });
  if (!all.length) { sheet.append(el("caption", "empty", "No card played yet.")); return; }
  const head = el("tr");
  head.append(el("th", "no", "#"));
  for (let s = 0; s < t.seats; s++) head.append(el("th", null, "seat " + s));
  sheet.append(head);
  all.forEach((trick, i) => {
    const tr = el("tr", "trick-row" + (trick.winner === null ? " current" : ""));
    tr.dataset.trick = i + 1;
    tr.append(el("td", "no", String(i + 1)));
    const cells = [];
    for (let s = 0; s < t.seats; s++) { cells.push(el("td")); tr.append(cells[s]); }
    trick.cards.forEach(([seat, token], k) => {
      const cell = cells[seat];
      if (k === 0) cell.classList.add("lead");
      if (seat === trick.winner) cell.classList.add("won");
      cell.append(tokenEl(token, true));
    });
    if (trick.winner !== null) {
      const after = (i + 1) * t.seats;
      tr.tabIndex = 0;
      tr.title = "led by seat " + trick.cards[0][0] + ", won by seat " + trick.winner + ": click to see the table after it";
      tr.addEventListener("click", () => go(after));
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(after); });
    }
    sheet.append(tr);
  });
  const box = sheet.parentElement;
  if (box.scrollHeight > box.clientHeight) box.scrollTop = box.scrollHeight;   // the latest in view
}

function drawSide(t) {
  drawWon(t);
  drawOutside(t);
  $("dd-meaning").textContent = "Value: " + t.value_meaning + ".";
  $("legend-small").textContent = t.small_loss > 0 ? "small: a cost of at most " + t.small_loss : "here every loss is big";
}

function drawWon(t) {
  const won = $("won");
  if (!t.won) {
    won.replaceChildren(el("p", "meaning", "Seat " + state.viewSeat + " does not know yet who the partner is: the camps' points stay unseen."));
    return;
  }
  const tbl = el("table", "won");
  const head = el("tr");
  const french = t.game.startsWith("fr");
  head.append(el("th", null, ""), el("th", null, "points"), el("th", null, "tricks"));
  if (french) head.append(el("th", null, "bouts"));
  tbl.append(head);
  for (const row of t.won.rows) {
    const tr = el("tr");
    tr.append(el("th", null, row.label), el("td", null, String(row.points)), el("td", null, String(row.tricks)));
    if (french) tr.append(el("td", null, String(row.bouts)));
    tbl.append(tr);
  }
  const notes = [];
  if (french) notes.push("The taker's camp needs " + t.won.rows[0].needed + " with " + t.won.rows[0].bouts + " bout" + (t.won.rows[0].bouts === 1 ? "" : "s") + ".");
  if (t.outside.length && t.game !== "at4") notes.push("Points include the cards outside the hands.");
  if (t.game === "at4" && t.won.by === "camp") notes.push("Points include the talon cards of each camp.");
  won.replaceChildren(tbl, ...notes.map((n) => el("p", "meaning", n)));
}

function drawOutside(t) {
  // the cards outside the hands; from a seat's view, those it has not seen face down
  const out = $("outside");
  out.replaceChildren();
  for (const part of t.outside) {
    const p = el("div", "outside-part");
    p.append(el("div", "meaning", part.label));
    const row = el("div", "suit-row");
    for (const token of part.cards) row.append(cardEl(token));
    for (let i = 0; i < (part.hidden || 0); i++) row.append(el("span", "card back"));
    p.append(row);
    out.append(p);
  }
}

// -- stepping --------------------------------------------------------------------------------

function trickStart(k) {
  const n = state.table ? state.table.seats : 4;
  return k - (k % n);
}

function go(k) {
  k = Math.max(0, Math.min(k, state.line.length));
  state.cursor = k;
  update();
}

function stepCard(d) {
  if (d > 0 && state.cursor >= state.line.length) { continueLine(); return; }
  go(state.cursor + d);
}

function stepTrick(d) {
  const n = state.table ? state.table.seats : 4;
  if (d < 0) {
    const s = trickStart(state.cursor);
    go(s === state.cursor ? s - n : s);
  } else {
    go(trickStart(state.cursor) + n);
  }
}

function playInstead(token) {
  const k = state.cursor;
  if (state.line[k] === token) { go(k + 1); return; }
  if (state.whatIfFrom === null || k < state.whatIfFrom) state.whatIfFrom = k;
  state.line = state.line.slice(0, k).concat([token]);
  state.cursor = k + 1;
  update();
  scheduleAnalysis();
}

function continueLine() {
  // past the end of a what-if line: play the best card, when it is known
  const s = currentSolve();
  const t = state.table;
  if (!t || t.outcome || !s || !s.best || !s.best.length) return;
  const best = t.legal.filter((c) => s.best.includes(c));
  if (best.length) playInstead(best[0]);
}

function backToReal() {
  const from = state.whatIfFrom;
  state.line = state.real.slice();
  state.whatIfFrom = null;
  state.cursor = Math.min(from === null ? state.cursor : from, state.line.length);
  update();
  scheduleAnalysis();
}

function describeWhere() {
  const t = state.table;
  const k = state.cursor;
  const n = t.seats;
  if (t.outcome) return "all " + state.line.length + " cards played";
  const trick = Math.floor(k / n) + 1;
  return "card " + k + " of " + state.line.length + " played · trick " + trick + ", card " + (k % n + 1);
}

function clearValue() {
  // nothing shown belongs to another position, even for a moment
  const box = $("dd-value");
  box.dataset.value = box.dataset.low = box.dataset.high = box.dataset.played = "";
  barValue("");
}

function barValue(text) {
  // the value again next to the step buttons, where a phone keeps them in view
  $("bar-value").textContent = text ? "value " + text : "";
}

async function update() {
  const k = state.cursor;
  const key = keyOf(state.line.slice(0, k));
  clearValue();
  $("slider").max = String(state.line.length);
  $("slider").value = String(k);
  const seat = state.viewSeat;
  let t = state.tables.get(key + "@" + seat);
  if (!t) {
    const body = { position: positionAt(k) };
    if (seat !== null) body.seat = seat;
    const r = await post("/api/table", body);
    if (state.cursor !== k || keyOf(state.line.slice(0, k)) !== key || state.viewSeat !== seat) return;   // moved on
    if (!r.ok) { showDealError(fieldMessage(r.data)); return; }
    t = r.data;
    state.tables.set(key + "@" + seat, t);
  }
  state.table = t;
  drawTable();
  $("table").dataset.shown = k;
  $("where").textContent = describeWhere();
  $("card-back").disabled = $("to-start").disabled = $("trick-back").disabled = k === 0;
  const atEnd = k >= state.line.length;
  $("to-end").disabled = $("trick-next").disabled = atEnd;
  $("card-next").disabled = atEnd && (state.whatIfFrom === null || !!t.outcome);
  const banner = $("whatif");
  banner.hidden = state.whatIfFrom === null;
  if (state.whatIfFrom !== null) {
    const text = $("whatif-text");
    const really = state.real[state.whatIfFrom];
    text.replaceChildren("What-if: from card " + state.whatIfFrom + " this is not the real play");
    if (really) text.append(" (really played there: ", tokenEl(really), ").");
    else text.append(".");
    if (atEnd && !t.outcome) text.append(" ▶ plays a best card.");
  }
  drawChartCursor();
  history.replaceState(null, "", linkHash());
  solveCurrent();
  adviseCurrent();
}

function linkHash() {
  // what a reload or a shared link shows again: the deal, the card, and a what-if line with
  // the card it leaves the real play at (`from`) — the card shown may be anywhere on the line
  let hash = "#deal=" + state.dealIndex + "&card=" + state.cursor;
  if (state.whatIfFrom !== null) hash += "&from=" + state.whatIfFrom + "&whatif=" + state.line.slice(state.whatIfFrom).join(",");
  if (state.viewSeat !== null) hash += "&seat=" + state.viewSeat;     // from one seat's view
  return hash;
}

// -- the double-dummy values of the position on the table ------------------------------------

function solveLimit() { return Number($("solve-limit").value); }
function currentKey() { return keyOf(state.line.slice(0, state.cursor)) + "|" + solveLimit(); }
function currentSolve() { return state.solves.get(currentKey()) || null; }

function solveCurrent() {
  const key = currentKey();
  if (state.solving && state.solving.key === key) return;
  stopSolving();
  const known = state.solves.get(key);
  if (known) { showSolve(known); return; }
  if (state.table && state.table.outcome) {
    showFinished(state.table);
    return;
  }
  const limit = solveLimit();
  startRequest("solving", key, "/api/solve",
    { position: positionAt(state.cursor), all: true, time_limit: limit, slot: TAB + "-solve" }, 120,
    (job) => showSearching(job, limit),
    (data) => {
      state.solves.set(key, data);
      drawTable();
      showSolve(data);
      const advice = currentAdvice();
      if (advice) showAdvice(advice);     // its double-dummy column
    },
    (message) => {
      $("dd-status").textContent = "The search failed: " + message;
      $("dd-status").className = "dd-status error";
    });
}

function stopSolving() { stopRequest("solving"); }

// A request for the position shown (state[slot]: the one under way): sent after a short
// pause, so that stepping quickly through cards starts no search for each of them; tick(job)
// shows its progress meanwhile; done(data) or fail(message) when it answers, unless the
// view has moved on (stopRequest aborts it: the server stops the search when the request
// goes away; 409: a newer request from this tab took its place).
function startRequest(slot, key, path, body, delay, tick, done, fail) {
  const job = { key, controller: new AbortController(), started: performance.now(), timer: null };
  state[slot] = job;
  tick(job);
  job.timer = setInterval(() => tick(job), 200);
  job.delay = setTimeout(async () => {
    let r;
    try {
      r = await post(path, body, job.controller.signal);
    } catch (e) {
      if (e.name === "AbortError") return;
      r = { ok: false, data: { reason: "the server did not answer (" + e.message + ")" } };
    }
    if (state[slot] !== job) return;
    clearInterval(job.timer);
    state[slot] = null;
    if (r.ok) done(r.data);
    else if (r.status !== 409) fail(fieldMessage(r.data));
  }, delay);
}

function stopRequest(slot) {
  const job = state[slot];
  if (!job) return;
  clearTimeout(job.delay);
  clearInterval(job.timer);
  job.controller.abort();
  state[slot] = null;
}

function showSearching(job, limit) {
  const seconds = (performance.now() - job.started) / 1000;
  $("dd-value").replaceChildren(el("span", "spinner"), el("span", "searching", "searching…"));
  $("dd-value").dataset.value = "";
  barValue("…");
  $("dd-status").className = "dd-status";
  $("dd-status").textContent = seconds.toFixed(1) + " s of at most " + limit + " s — you can go on stepping.";
}

function showFinished(t) {
  $("dd-value").replaceChildren(el("span", "big-number", valueText(t.outcome.value)));
  $("dd-value").dataset.value = t.outcome.value;
  barValue(valueText(t.outcome.value));
  $("dd-value").dataset.played = state.cursor;
  $("dd-status").className = "dd-status";
  $("dd-status").textContent = "The deal is over: its outcome's value.";
}

function showSolve(s) {
  const box = $("dd-value");
  box.dataset.played = state.cursor;
  const status = $("dd-status");
  status.className = "dd-status";
  if (s.status === "ok") {
    box.replaceChildren(el("span", "big-number", valueText(s.value)));
    box.dataset.value = s.value;
    box.dataset.low = box.dataset.high = "";
    box.dataset.made = madeKey(s.made);
    barValue(valueText(s.value));
    status.textContent = "Exact, solved in " + s.seconds.toFixed(2) + " s (" + s.nodes.toLocaleString("en") + " nodes).";
    if (s.best && s.best.length && state.table && state.table.to_play !== null) {
      status.append(" Best for seat " + state.table.to_play + ": ", tokensEl(s.best), ".");
    }
    if (s.line && s.line.length) {
      const line = el("div", "line", "One best line: ");
      line.append(tokensEl(s.line.slice(0, 12)), s.line.length > 12 ? " …" : "");
      status.append(line);
    }
  } else {
    const [lo, hi] = s.bounds;
    const range = lo === hi ? valueText(lo) : valueText(lo) + " … " + valueText(hi);
    box.replaceChildren(el("span", "big-number bounds", range));
    box.dataset.value = "";
    box.dataset.low = lo;
    box.dataset.high = hi;
    barValue(range);
    status.classList.add("limited");
    const limit = s.time_limit ? s.time_limit + " s" : "its";
    box.dataset.made = madeKey(s.made);
    if (hasContract()) box.append(el("span", "made-word " + madeKey(s.made), madeWord(s.made)));
    status.textContent = "Not solved: the search stopped at " + limit + " limit. Proven so far: the value is at least " +
      valueText(lo) + " and at most " + valueText(hi) + (hasContract() ? "; " + madeSentence(s.made) : "") +
      ". No card values yet — raise the time limit, or step on to a smaller position.";
  }
}

// -- the advice from the view seat -------------------------------------------------------------

function adviceSamples() { return Number($("advice-samples").value); }
function adviceKey() { return currentKey() + "|" + adviceSamples() + "|" + state.viewSeat; }
function currentAdvice() {
  return state.viewSeat === null ? null : state.advices.get(adviceKey()) || null;
}

function adviseCurrent() {
  const panel = $("advice-panel");
  const t = state.table;
  const seat = state.viewSeat;
  panel.hidden = seat === null;
  if (seat === null) { stopAdvising(); return; }
  $("advice-title").textContent = "From seat " + seat + "'s view";
  const key = adviceKey();
  if (state.advising && state.advising.key === key) return;
  stopAdvising();
  const known = state.advices.get(key);
  if (known) { showAdvice(known); return; }
  const status = $("advice-status");
  const body = $("advice-cards");
  body.replaceChildren();
  body.dataset.played = "";
  status.className = "dd-status";
  if (!t || t.outcome) { status.textContent = "The deal is over."; return; }
  if (t.to_play !== seat) {
    status.textContent = "Seat " + t.to_play + " is to play: the advice appears when seat " + seat + " is.";
    return;
  }
  const limit = solveLimit();
  startRequest("advising", key, "/api/advise",
    { position: positionAt(state.cursor), seat, samples: adviceSamples(), seed: state.cursor,
      time_limit: limit, slot: TAB + "-advise" }, 150,
    (job) => status.replaceChildren(el("span", "spinner"), document.createTextNode(
      " drawing and solving " + adviceSamples() + " deals… " +
      ((performance.now() - job.started) / 1000).toFixed(1) + " s of at most " + limit + " s")),
    (data) => {
      state.advices.set(key, data);
      drawTable();
      showAdvice(data);
    },
    (message) => {
      status.textContent = "The advice failed: " + message;
      status.className = "dd-status error";
    });
}

function stopAdvising() { stopRequest("advising"); }

function showAdvice(a) {
  const status = $("advice-status");
  const body = $("advice-cards");
  status.className = "dd-status" + (a.status === "ok" ? "" : " limited");
  const top = a.cards[0];
  const deals = typeof a.deals === "number" ? a.deals.toLocaleString("en") : String(a.deals);
  status.replaceChildren();
  if (a.recommended) {
    status.append(document.createTextNode("Recommended: "), tokensEl(a.best),
                  document.createTextNode(" — mean " + oneDecimal(top.mean) + (top.se !== null ? " ± " + top.se.toFixed(1) : "") +
                                          ", optimal in " + Math.round(100 * top.optimal) + "% of " + a.solved + " deals drawn among " + deals + "."));
  } else {
    status.textContent = "No deal solved in time: raise the time limit.";
  }
  if (a.status !== "ok") status.append(el("div", null, "Stopped by the time limit: " + a.solved + " of " + a.samples + " deals solved."));
  const solved = currentSolve();
  body.replaceChildren();
  const head = el("tr");
  const heads = [["card", ""], ["mean", "mean value over the deals drawn"], ["±", "its standard error"],
                 ["best", "share of the deals where the card is double-dummy optimal"],
                 ["made", "share of the deals where the contract is made after it"],
                 ["DD", "the double-dummy value, every hand open"]];
  for (const [h, title] of heads) { const th = el("th", null, h); th.title = title; head.append(th); }
  body.append(head);
  for (const row of a.cards) {
    const tr = el("tr", a.best.includes(row.card) ? "recommended" : "");
    tr.dataset.card = row.card;
    if (row.mean !== null) tr.dataset.mean = row.mean;
    const dd = solved && solved.cards && row.card in solved.cards ? signed(solved.cards[row.card]) : "";
    tr.append(el("td", null), el("td", null, row.mean === null ? "" : oneDecimal(row.mean)),
              el("td", null, row.se === null || row.se === undefined ? "" : row.se.toFixed(1)),
              el("td", null, row.optimal === null ? "" : Math.round(100 * row.optimal) + "%"),
              el("td", null, row.made === null || row.made === undefined ? "" : Math.round(100 * row.made) + "%"),
              el("td", null, dd));
    tr.firstChild.append(tokenEl(row.card));
    body.append(tr);
  }
  body.dataset.played = state.cursor;
}

// -- the contract question: made or not, where the value itself is not known ------------------

function hasContract() {
  // every game but Trischaken has a contract to make (its chart has a deciding line)
  const scale = state.table ? state.table.scale : null;
  return !!scale && (scale.line !== null || !!scale.fixed);
}

const madeKey = (made) => (made === true ? "made" : made === false ? "down" : "open");
const madeWord = (made) => ({ made: "made", down: "down", open: "made or down: open" })[madeKey(made)];

function madeSentence(made) {
  const who = state.table ? state.table.scale.up : "the declarer's camp";
  if (made === true) return "proven: " + who + " makes its contract with best play";
  if (made === false) return "proven: " + who + " goes down with best play";
  return "whether " + who + " makes its contract is still open";
}

function valueOrRange(v, bounds) {
  return v !== null && v !== undefined ? valueText(v) : valueText(bounds[0]) + " … " + valueText(bounds[1]);
}

// what a card of the analysis is proven to have cost: exact, else its range's low end
const provenCost = (p) => (p.cost !== null ? p.cost : p.cost_bounds[0]);
const costText = (p) => (p.cost !== null ? String(p.cost) : p.cost_bounds[0] + " … " + p.cost_bounds[1]);

// -- the analysis of the play ----------------------------------------------------------------

function defaultStart() {
  // the whole deal: within its time limit every card gets a verdict, exact or bounded
  return 0;
}

function fillStartOptions() {
  const sel = $("analysis-start");
  sel.replaceChildren();
  const n = state.deal.hands.length;
  const tricks = state.deal.hands[0].length;
  for (let i = 0; i < tricks; i++) {
    const o = el("option", null, i === 0 ? "trick 1 (the whole deal)" : "trick " + (i + 1) + " (last " + (tricks - i) + ")");
    o.value = String(i * n);
    sel.append(o);
  }
  sel.value = String(defaultStart());
}

let analysisTimer = null;
function scheduleAnalysis() {
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(runAnalysis, 300);
}

async function runAnalysis() {
  if (state.analysing) state.analysing.abort();
  state.analysing = null;
  const line = state.line.slice();
  const start = Number($("analysis-start").value);
  const limit = Number($("analysis-limit").value);
  const statusEl = $("analysis-status");
  statusEl.className = "dd-status";
  if (line.length <= start) {
    // no card played from there on: a search would analyse nothing
    state.analysis = state.analysisLine = null;
    drawAnalysis();
    statusEl.textContent = line.length === 0
      ? "No card has been played yet: nothing to analyse. Play a card (click a lit card) and the analysis follows that line."
      : "No card played from trick " + (start / state.deal.hands.length + 1) + " on: choose an earlier trick to analyse from.";
    return;
  }
  const controller = new AbortController();
  state.analysing = controller;
  const began = performance.now();
  const tick = setInterval(() => {
    statusEl.replaceChildren(el("span", "spinner"), document.createTextNode(
      " analysing " + (line.length - start) + " cards… " + ((performance.now() - began) / 1000).toFixed(1) + " s of at most " + limit + " s"));
  }, 200);
  let r;
  try {
    r = await post("/api/analyze", { position: Object.assign({}, state.deal, { played: line }), start,
                                     time_limit: limit, slot: TAB + "-analyze" }, controller.signal);
  } catch (e) {
    clearInterval(tick);
    if (e.name !== "AbortError") statusEl.textContent = "The analysis failed: " + e.message;
    return;
  }
  clearInterval(tick);
  if (state.analysing !== controller) return;
  state.analysing = null;
  if (!r.ok) {
    if (r.status === 409) return;
    statusEl.textContent = "The analysis failed: " + fieldMessage(r.data);
    statusEl.className = "dd-status error";
    return;
  }
  state.analysis = r.data;
  state.analysisLine = line;
  const a = r.data;
  const what = state.whatIfFrom !== null ? "the what-if line" : "the real play";
  if (a.status === "ok") {
    statusEl.textContent = "Analysed " + a.plays.length + " cards of " + what + " in " + ((performance.now() - began) / 1000).toFixed(1) + " s.";
  } else {
    // every card has its verdict: exact where solved in time, else proven bounds
    const exact = a.plays.filter((p) => p.cost !== null).length;
    statusEl.className = "dd-status limited";
    statusEl.textContent = "Analysed " + a.plays.length + " cards of " + what + " within " + limit + " s: " + exact +
      " with an exact cost, the others with proven ranges (shaded on the chart)" +
      (hasContract() ? "; at card " + (a.start + 1) + " " + madeSentence(a.made) : "") + ".";
  }
  drawAnalysis();
}

function drawAnalysis() {
  const a = state.analysis;
  const t = state.table;
  const costs = $("seat-costs");
  costs.replaceChildren();
  const mistakes = $("mistakes");
  mistakes.replaceChildren();
  if (!a) { $("chart").replaceChildren(); return; }
  const head = el("tr");
  for (const h of ["seat", "role", "cards", "mistakes", "total cost"]) head.append(el("th", null, h));
  costs.append(head);
  for (const s of a.seats) {
    const tr = el("tr");
    tr.dataset.seat = s.seat;
    // what a seat is proven to have given away (never a sum of upper bounds)
    const low = s.cost !== null ? s.cost : s.at_least;
    tr.append(el("td", null, "Seat " + s.seat), el("td", null, t ? t.roles[s.seat] : ""),
              el("td", null, String(s.cards)), el("td", "mistakes-n", String(s.mistakes)),
              el("td", "cost" + (low > 0 ? " lost" : ""),
                 s.cost !== null ? String(s.cost) : "at least " + s.at_least + " (" + s.not_judged + " not judged)"));
    costs.append(tr);
  }
  const last = a.plays[a.plays.length - 1];
  const summary = el("caption", null, "Value at card " + a.start + ": " + valueOrRange(a.start_value, a.start_bounds) +
    (a.start_value === null && hasContract() ? " (" + madeWord(a.made) + ")" : "") +
    (a.outcome ? " · result: " + valueText(a.outcome.value) : (last ? " · after card " + (last.index + 1) + ": " + valueOrRange(last.value_after, last.bounds_after) : "")));
  costs.prepend(summary);
  if (a.plays.some((p) => p.cost === null)) {
    costs.append(el("caption", "note", "mistakes: the cards proven to have cost something; a range: what is proven of the cost"));
  }
  // the proven mistakes: an exact cost above 0, or a range above 0
  const worst = a.plays.reduce((w, p) => (provenCost(p) > (w ? provenCost(w) : 0) ? p : w), null);
  for (const p of a.plays.filter((p) => provenCost(p) > 0)) {
    const li = el("li", "mistake" + (p === worst ? " worst" : "") + (p.decisive ? " decisive" : ""));
    li.dataset.index = p.index;
    const n = t ? t.seats : state.deal.hands.length;
    li.append(el("span", "where", "trick " + (Math.floor(p.index / n) + 1) + ", seat " + p.seat + " (" + (t ? t.roles[p.seat] : "") + ")"),
              document.createTextNode(" played "), tokenEl(p.card),
              document.createTextNode(" costing "), el("strong", "cost", costText(p)),
              document.createTextNode(" — best: "), p.best ? tokensEl(p.best) : el("span", "open", "not found in the time"));
    if (p.decisive) li.append(el("span", "decisive-note", " — decisive: " + (p.made_before ? "made before it, down after it" : "down before it, made after it")));
    li.title = "show the position before this card";
    li.addEventListener("click", () => goToAnalysed(p.index));
    mistakes.append(li);
  }
  if (!mistakes.children.length && a.plays.length) {
    mistakes.append(el("li", "none", a.plays.every((p) => p.cost !== null)
      ? "No mistake: every card analysed was a best card."
      : "No mistake proven: every card solved was a best card."));
  }
  drawChart();
}

function goToAnalysed(index) {
  if (state.analysisLine && keyOf(state.analysisLine) !== keyOf(state.line)) {
    state.line = state.analysisLine.slice();
  }
  go(index);
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function niceStep(span, count) {
  // a round step (1, 2 or 5 × a power of ten) giving about `count` ticks over `span`
  const raw = span / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

function chartRange(values, scale) {
  // the value's range on the chart: the deciding line always in it, and never less than the
  // game's least span, so that a step's height is what it is worth (see view.chart_scale)
  if (scale.fixed) return { lo: scale.fixed[0] - 0.2, hi: scale.fixed[1] + 0.2, ticks: scale.fixed.slice() };
  const all = scale.line === null ? values : values.concat([scale.line]);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (hi - lo < scale.min_span) {
    const grow = (scale.min_span - (hi - lo)) / 2;
    lo -= grow; hi += grow;
  }
  if (hi === lo) { lo -= 1; hi += 1; }
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v));
  return { lo, hi, ticks };
}

function drawChart() {
  const a = state.analysis;
  const box = $("chart");
  box.replaceChildren();
  box._x = null;
  if (!a || !state.table) return;
  const scale = state.table.scale;
  // each value exact, or (value null) the proven bounds: drawn as a band
  const points = [{ index: a.start, value: a.start_value, bounds: a.start_bounds, play: null }]
    .concat(a.plays.map((p) => ({ index: p.index + 1, value: p.value_after, bounds: p.bounds_after, play: p })));
  const total = state.analysisLine.length;
  // drawn in the box's own pixels, so that its text keeps its size on a phone
  const W = Math.max(280, Math.round(box.clientWidth || 900));
  const narrow = W < 560;
  const H = narrow ? 230 : 250, L = narrow ? 40 : 52, R = 10, T = 22, B = 38;
  const { lo, hi, ticks } = chartRange(points.flatMap((p) => (p.value !== null ? [p.value] : p.bounds)), scale);
  const x = (i) => L + (W - L - R) * (i - a.start) / Math.max(1, total - a.start);
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img",
                         "aria-label": "double-dummy value after every card", "data-lo": lo, "data-hi": hi });
  s.append(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" }));
  for (const v of ticks) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    s.append(svg("text", { x: L - 5, y: y(v) + 4, class: "axis tick", "text-anchor": "end" }, valueText(v)));
  }
  if (scale.line !== null) {
    // the line where the deal is decided, named above it (below it along the top)
    const ly = y(scale.line);
    s.append(svg("line", { x1: L, x2: W - R, y1: ly, y2: ly, class: "decide", "data-value": scale.line }));
    s.append(svg("text", { x: W - R - 4, y: ly - T < 16 ? ly + 14 : ly - 5, class: "axis decide-label", "text-anchor": "end" }, scale.line_label));
  } else if (scale.fixed) {
    s.append(svg("text", { x: W - R - 4, y: (y(scale.fixed[0]) + y(scale.fixed[1])) / 2 + 4, class: "axis decide-label", "text-anchor": "end" }, scale.line_label));
  }
  // which way is good for whom
  s.append(svg("text", { x: 4, y: 14, class: "axis way up" }, "▲ better for " + scale.up));
  s.append(svg("text", { x: 4, y: H - 4, class: "axis way down" }, "▼ better for " + scale.down));
  const n = state.deal.hands.length;
  const every = narrow ? 3 : 2;                  // label every other trick (every third on a phone)
  for (let i = trickStart(a.start); i <= total; i += n) {
    if (i < a.start) continue;
    s.append(svg("line", { x1: x(i), x2: x(i), y1: T, y2: H - B, class: "trick-line" }));
    if ((i / n) % every === 0 && i < total) s.append(svg("text", { x: x(i) + 2, y: H - B + 14, class: "axis" }, "trick " + (i / n + 1)));
  }
  // the value as a step line through the exact values; a bounded value is a band from its
  // low to its high bound, over the card's step (the line breaks there)
  let path = "";
  points.forEach((p, i) => {
    const next = i + 1 < points.length ? x(points[i + 1].index) : x(p.index);
    if (p.value === null) {
      const [b0, b1] = p.bounds;
      const band = svg("rect", { x: x(p.index), y: y(b1), width: Math.max(2, next - x(p.index)), height: Math.max(2, y(b0) - y(b1)),
                                 class: "band", "data-index": p.index });
      band.append(svg("title", {}, (p.play ? "after card " + (p.play.index + 1) + " (seat " + p.play.seat + " " + cardText(p.play.card) + ")" : "at the start") +
        ": between " + valueText(b0) + " and " + valueText(b1) + (hasContract() ? " — " + madeWord(p.play ? p.play.made_after : a.made) : "")));
      band.addEventListener("click", () => goToAnalysed(p.play ? p.play.index : a.start));
      s.append(band);
      return;
    }
    path += (path && points[i - 1].value !== null ? " V" : " M" + x(p.index) + " ") + y(p.value) + " H" + next;
  });
  s.append(svg("path", { d: path.trim(), class: "value-line" }));
  const worst = a.plays.reduce((w, p) => (provenCost(p) > (w ? provenCost(w) : 0) ? p : w), null);
  const small = state.table.small_loss;
  const level = (play) => (!play ? "start" : provenCost(play) === 0 ? "optimal" : provenCost(play) <= small ? "small" : "big");
  for (const p of points) {
    if (p.value === null) continue;
    const play = p.play;
    const dot = svg("circle", { cx: x(p.index), cy: y(p.value), r: play && provenCost(play) ? 5 : 3, class: "dot " + level(play) });
    const label = play ? "card " + (play.index + 1) + ": seat " + play.seat + " " + cardText(play.card) + " → " + valueText(play.value_after) + (provenCost(play) ? " (cost " + costText(play) + ")" : "") : "start: " + valueText(p.value);
    dot.append(svg("title", {}, label));
    dot.addEventListener("click", () => goToAnalysed(play ? play.index : a.start));
    s.append(dot);
  }
  // where a card is: at its dot, or the middle of its band
  const yOf = (p) => (p.value_after !== null ? y(p.value_after) : (y(p.bounds_after[0]) + y(p.bounds_after[1])) / 2);
  // decisive cards: a diamond on the line where the deal is decided, and named in the title
  const lineY = scale.line !== null ? y(scale.line) : scale.fixed ? (y(scale.fixed[0]) + y(scale.fixed[1])) / 2 : null;
  for (const p of a.plays.filter((p) => p.decisive && lineY !== null)) {
    const cx = x(p.index + 1);
    const mark = svg("polygon", { points: [cx, lineY - 7, cx + 7, lineY, cx, lineY + 7, cx - 7, lineY].join(" "),
                                  class: "decisive", "data-index": p.index });
    mark.append(svg("title", {}, "decisive: card " + (p.index + 1) + ", seat " + p.seat + " " + cardText(p.card) + " — " +
      (p.made_before ? "made before it, down after it" : "down before it, made after it")));
    mark.addEventListener("click", () => goToAnalysed(p.index));
    s.append(mark);
  }
  if (worst) s.append(svg("circle", { cx: x(worst.index + 1), cy: yOf(worst), r: 9, class: "worst-ring " + level(worst) }));
  s.append(svg("line", { id: "chart-cursor", x1: 0, x2: 0, y1: T, y2: H - B, class: "cursor" }));
  box.append(s);
  if (worst) {
    // the ringed card in words below the chart (where it never runs off a phone's screen);
    // red only when it is a big loss
    const note = el("div", "chart-note " + level(worst));
    note.append("◯ The costliest card: trick " + (Math.floor(worst.index / n) + 1) + ", seat " + worst.seat +
                " (" + state.table.roles[worst.seat] + ") played ", tokenEl(worst.card),
                worst.cost !== null ? " (−" + worst.cost + ")." : " (−" + worst.cost_bounds[0] + " to −" + worst.cost_bounds[1] + ").");
    if (a.plays.some((p) => p.decisive)) note.append(" ◆ marks a decisive card.");
    box.append(note);
  }
  box._x = x;
  box._width = W;
  drawChartCursor();
}

function drawChartCursor() {
  const c = document.getElementById("chart-cursor");
  const box = $("chart");
  if (!c || !box._x || !state.analysis) return;
  const on = state.analysisLine && keyOf(state.analysisLine.slice(0, state.cursor)) === keyOf(state.line.slice(0, state.cursor)) && state.cursor >= state.analysis.start;
  c.setAttribute("visibility", on ? "visible" : "hidden");
  if (on) { const px = box._x(state.cursor); c.setAttribute("x1", px); c.setAttribute("x2", px); }
}

// -- deals and input -------------------------------------------------------------------------

function showDealError(message) {
  const box = $("input-error");
  box.textContent = message;
  box.hidden = false;
  openInput(true);
}

function notice(message) {
  // something about the link or the list the page could not do as asked (not an input error)
  const box = $("notice");
  box.textContent = message || "";
  box.hidden = !message;
}

function openInput(open) {
  $("input-panel").hidden = !open;
  $("toggle-input").setAttribute("aria-expanded", String(open));
}

function label(obj, i) {
  const id = obj.id !== undefined && obj.id !== null ? String(obj.id) : "position " + (i + 1);
  return id + " · " + obj.game;
}

function fillDeals() {
  const sel = $("deal-select");
  sel.replaceChildren();
  const groups = new Map();
  state.deals.forEach((d, i) => {
    if (!groups.has(d.group)) { const g = el("optgroup"); g.label = d.group; groups.set(d.group, g); sel.append(g); }
    const o = el("option", null, d.label);
    o.value = String(i);
    groups.get(d.group).append(o);
  });
  sel.value = String(state.dealIndex);
}

function fillViewOptions() {
  const sel = $("view-seat");
  sel.replaceChildren(el("option", null, "every hand open (double dummy)"));
  sel.firstChild.value = "";
  for (let s = 0; s < state.deal.hands.length; s++) {
    const o = el("option", null, "from seat " + s + "'s view");
    o.value = String(s);
    sel.append(o);
  }
  if (state.viewSeat !== null && state.viewSeat >= state.deal.hands.length) state.viewSeat = null;
  sel.value = state.viewSeat === null ? "" : String(state.viewSeat);
}

function setViewSeat(value) {
  state.viewSeat = value === "" || value === null ? null : Number(value);
  $("view-seat").value = state.viewSeat === null ? "" : String(state.viewSeat);
  update();
}

function cardsInDeal(deal) {
  return deal.hands.reduce((n, hand) => n + hand.length, 0);
}

async function loadDeal(i, link) {
  // link: {card, from, whatif, seat} from the page's address; without one a position part-way
  // through the play (a puzzle) opens where it stands, a finished deal at its first card
  if (link && link.seat !== undefined) state.viewSeat = Number.isInteger(link.seat) && link.seat >= 0 ? link.seat : null;
  stopSolving();
  stopAdvising();
  if (state.analysing) { state.analysing.abort(); state.analysing = null; }
  state.dealIndex = i;
  state.deal = state.deals[i].obj;
  state.real = (state.deal.played || []).slice();
  state.line = state.real.slice();
  state.whatIfFrom = null;
  state.tables.clear();
  state.solves.clear();
  state.advices.clear();
  state.analysis = null;
  state.analysisLine = null;
  $("deal-select").value = String(i);
  fillStartOptions();
  fillViewOptions();
  drawAnalysis();
  $("analysis-status").textContent = "";
  let k = state.real.length < cardsInDeal(state.deal) ? state.real.length : 0;
  if (link && link.card !== undefined) k = link.card;
  if (link && link.whatif) {
    // older links had no `from`: their card was the one right after the what-if line
    const from = link.from !== undefined ? link.from : k - link.whatif.length;
    const line = state.real.slice(0, from).concat(link.whatif);
    const refused = Number.isInteger(from) && from >= 0 && from <= state.real.length
      ? await validate(Object.assign({}, state.deal, { played: line }))
      : "from: must be a card of the real play, 0 to " + state.real.length;
    if (state.dealIndex !== i || state.deal !== state.deals[i].obj) return;   // another deal since
    if (refused) {
      notice("This link's what-if line could not be played (" + refused + "): the real play is shown.");
      k = Math.min(Math.max(0, from || 0), state.real.length);
    } else {
      state.line = line;
      state.whatIfFrom = from;
    }
  }
  go(Number.isInteger(k) ? Math.max(0, Math.min(k, state.line.length)) : 0);
  scheduleAnalysis();
}

// positions opened or pasted in this tab are kept for its reloads (a link names them by number)
const OPENED = "atout-opened";

function keepOpened(objs, group) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(OPENED) || "[]");
    kept.push({ group, objs });
    sessionStorage.setItem(OPENED, JSON.stringify(kept));
  } catch (e) {
    // too large for the tab's storage: these stay until the page is closed or reloaded
  }
}

function addDeals(objs, group) {
  const first = state.deals.length;
  objs.forEach((obj, i) => state.deals.push({ obj, label: label(obj, i), group }));
  fillDeals();
  return first;
}

async function validate(obj) {
  // the server's rules engine says whether a position is good: null, or "field: reason"
  const r = await post("/api/validate", { position: obj });
  if (r.ok && r.data.ok) return null;
  return fieldMessage(r.data);
}

async function loadText(text, source) {
  const problems = [];
  const objs = [];
  let records;
  try {
    const whole = JSON.parse(text);
    records = (Array.isArray(whole) ? whole : [whole]).map((obj, i) => ({ n: i + 1, obj }));
  } catch (e) {
    records = [];
    text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try { records.push({ n: i + 1, obj: JSON.parse(line) }); }
      catch (err) { problems.push("line " + (i + 1) + ": json: not valid JSON (" + err.message + ")"); }
    });
  }
  for (const { n, obj } of records) {
    const problem = await validate(obj);
    if (problem) problems.push((records.length > 1 || source !== "pasted" ? "line " + n + ": " : "") + problem);
    else objs.push(obj);
  }
  const box = $("input-error");
  box.hidden = !problems.length;
  if (problems.length) {
    // shown, and left open, even when the good positions are loaded below it
    box.replaceChildren(el("strong", null, objs.length
      ? "Some positions were refused (" + problems.length + "); the other " + objs.length + " are in the list:"
      : "This position is refused:"));
    const ul = el("ul");
    for (const p of problems.slice(0, 20)) ul.append(el("li", null, p));
    if (problems.length > 20) ul.append(el("li", null, "… and " + (problems.length - 20) + " more"));
    box.append(ul);
    openInput(true);
  } else {
    openInput(false);
  }
  if (!objs.length) return;
  const first = addDeals(objs, source);
  keepOpened(objs, source);
  loadDeal(first);
}

function rememberLimit(id) {
  // the chosen time limits outlive a reload
  const sel = $(id);
  try {
    const kept = localStorage.getItem("atout-" + id);
    if (kept && [...sel.options].some((o) => o.value === kept)) sel.value = kept;
  } catch (e) { /* no storage: the page's default */ }
  sel.addEventListener("change", () => { try { localStorage.setItem("atout-" + id, sel.value); } catch (e) { /* kept for this page only */ } });
}

function readLink() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const number = (name) => (hash.has(name) && hash.get(name) !== "" ? Number(hash.get(name)) : undefined);
  const link = { deal: number("deal"), dealText: hash.get("deal"), card: number("card"), from: number("from"),
                 seat: number("seat") };
  if (hash.get("whatif")) link.whatif = hash.get("whatif").split(",");
  return link;
}

async function start() {
  const [mine, examples] = await Promise.all([
    api("/api/deals", {}).then((r) => r.json()).then((d) => (d.deals ? d : { deals: [] }))
      .catch(() => ({ deals: [] })),
    fetch("/static/examples.jsonl").then((r) => r.text()).catch(() => ""),
  ]);
  for (const [i, obj] of mine.deals.entries()) state.deals.push({ obj, label: label(obj, i), group: "Your file" });
  examples.split("\n").filter((l) => l.trim()).forEach((line, i) => {
    const obj = JSON.parse(line);
    state.deals.push({ obj, label: label(obj, i), group: "Examples" });
  });
  let kept = [];
  try { kept = JSON.parse(sessionStorage.getItem(OPENED) || "[]"); } catch (e) { kept = []; }
  for (const { group, objs } of kept) objs.forEach((obj, i) => state.deals.push({ obj, label: label(obj, i), group }));
  fillDeals();
  if (!state.deals.length) { openInput(true); return; }
  const link = readLink();
  let wanted = link.deal === undefined ? 0 : link.deal;
  if (!(Number.isInteger(wanted) && wanted >= 0 && wanted < state.deals.length)) {
    notice("This link names deal " + link.dealText + ", which this page does not have " +
           "(a position opened or pasted in another tab is not in the link): the first deal is shown.");
    loadDeal(0);
    return;
  }
  loadDeal(wanted, link);
}

function followLink() {
  // a link typed or pasted into the address bar of this page changes only its hash
  if (location.hash === linkHash() || !state.deals.length) return;
  const link = readLink();
  const wanted = link.deal === undefined ? state.dealIndex : link.deal;
  notice("");
  if (Number.isInteger(wanted) && wanted >= 0 && wanted < state.deals.length) loadDeal(wanted, link);
  else notice("This link names deal " + link.dealText + ", which this page does not have.");
}

function wire() {
  $("to-start").addEventListener("click", () => go(0));
  $("to-end").addEventListener("click", () => go(state.line.length));
  $("card-back").addEventListener("click", () => stepCard(-1));
  $("card-next").addEventListener("click", () => stepCard(1));
  $("trick-back").addEventListener("click", () => stepTrick(-1));
  $("trick-next").addEventListener("click", () => stepTrick(1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("back-to-real").addEventListener("click", backToReal);
  rememberLimit("solve-limit");
  rememberLimit("analysis-limit");
  $("solve-limit").addEventListener("change", () => update());
  $("analysis-limit").addEventListener("change", scheduleAnalysis);
  $("analysis-start").addEventListener("change", scheduleAnalysis);
  $("view-seat").addEventListener("change", (e) => setViewSeat(e.target.value));
  $("advice-samples").addEventListener("change", () => adviseCurrent());
  $("analyse").addEventListener("click", runAnalysis);
  $("deal-select").addEventListener("change", (e) => { notice(""); $("input-error").hidden = true; loadDeal(Number(e.target.value)); });
  $("toggle-input").addEventListener("click", () => openInput($("input-panel").hidden));
  $("load-paste").addEventListener("click", () => {
    const text = $("paste").value.trim();
    if (!text) { showDealError("Paste a position first (one JSON object)."); return; }
    loadText(text, "pasted");
  });
  $("file-input").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await file.text(), file.name);
  });
  // a list chosen with the mouse gives the keys back to the play; one browsed with the keys
  // keeps ↑ ↓, but ← → always step the cards
  let keyed = 0;
  for (const sel of document.querySelectorAll("select")) {
    sel.addEventListener("keydown", () => { keyed = performance.now(); });
    sel.addEventListener("change", () => { if (performance.now() - keyed > 400) sel.blur(); });
  }
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "textarea" || (tag === "input" && e.target.type !== "range")) return;
    if (tag === "select" && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const keys = {
      ArrowLeft: () => (e.shiftKey ? stepTrick(-1) : stepCard(-1)),
      ArrowRight: () => (e.shiftKey ? stepTrick(1) : stepCard(1)),
      ArrowUp: () => stepTrick(-1), ArrowDown: () => stepTrick(1),
      PageUp: () => stepTrick(-1), PageDown: () => stepTrick(1),
      Home: () => go(0), End: () => go(state.line.length),
    };
    if (keys[e.key] && state.deal) { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("hashchange", followLink);
  // the chart is drawn in its box's pixels: again when the box changes width
  new ResizeObserver(() => {
    const box = $("chart");
    if (state.analysis && box._width && Math.abs(box.clientWidth - box._width) > 8) drawChart();
  }).observe($("chart"));
}

wire();
start();
