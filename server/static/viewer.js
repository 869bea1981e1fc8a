// atout hand viewer: draws what the server's rules engine says (/api/table) and the
// double-dummy values of the search (/api/solve, /api/analyze). No number is computed here
// except a card's cost, the difference between its value and the best card's.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { K: "king", Q: "queen", N: "cavalier", J: "jack" };
const TAB = Math.random().toString(36).slice(2);     // this page's slots on the server
const DEFAULT_LAST_TRICKS = { fr4: 8, fr3: 10, fr5: 8, priest5: 8, at4: 12 };

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
};

// -- talking to the server -------------------------------------------------------------------

async function post(path, body, signal) {
  const response = await fetch(path, {
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

function cardName(token) {
  const c = parseCard(token);
  const excuse = state.table ? state.table.excuse : "Excuse";
  if (c.kind === "excuse") return excuse;
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
    e.append(el("span", "rank", "★"), el("span", "pip", state.table ? state.table.excuse : "EX"));
  } else if (c.kind === "trump") {
    e.classList.add("trump");
    e.append(el("span", "rank", String(c.n)), el("span", "pip", trumpWord()));
  } else {
    e.classList.add("suit-" + c.suit);
    e.append(el("span", "rank", c.rank), el("span", "pip", SUITS[c.suit]));
  }
  return e;
}

function tokenEl(token) {
  // a card inside a sentence: its rank and suit symbol, coloured
  const c = parseCard(token);
  const e = el("span", "token");
  e.dataset.card = token;
  e.title = cardName(token);
  if (c.kind === "excuse") { e.classList.add("excuse"); e.textContent = "★ " + (state.table ? state.table.excuse : "EX"); }
  else if (c.kind === "trump") { e.classList.add("trump"); e.textContent = c.n + " " + trumpWord(); }
  else { e.classList.add("suit-" + c.suit); e.textContent = c.rank + SUITS[c.suit]; }
  return e;
}

function tokensEl(tokens) {
  const span = el("span", "tokens");
  tokens.forEach((t, i) => { if (i) span.append(" "); span.append(tokenEl(t)); });
  return span;
}

function signed(v) { return v > 0 ? "+" + v : String(v); }

// -- the table -------------------------------------------------------------------------------

const PLACES = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
};

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
  box.className = "table seats-" + t.seats;
  $("contract").replaceChildren(el("strong", null, gameName(t.game)), document.createTextNode(" · " + t.contract));
  const solved = currentSolve();
  for (let s = 0; s < t.seats; s++) {
    const seat = el("div", "seat place-" + PLACES[t.seats][s] + " camp-" + campClass(s));
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
    if (!t.hands[s].length) hand.append(el("span", "empty", "no cards left"));
    seat.append(hand);
    box.append(seat);
  }
  box.append(drawCentre(t));
  drawSide(t);
}

function campClass(seat) {
  const t = state.table;
  if (t.game === "at4" && t.roles[seat] !== "analysed seat" && t.roles.includes("analysed seat")) return "x";
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
    badge.append(el("span", "v", signed(v)), el("span", "c", cost === 0 ? "✓ best" : "−" + cost));
    badge.title = cost === 0 ? "an optimal card: value " + v
                             : "value " + v + ": costs " + cost + " against the best card";
    wrap.append(badge);
  } else if (solved && solved.best && solved.best.includes(token)) {
    card.classList.add("optimal");
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
  const o = t.outcome;
  const box = el("div", "outcome");
  const made = o.made === undefined ? null : o.made;
  const parts = [];
  if (made !== null) parts.push(made ? "contract made" : "contract lost");
  parts.push("value " + signed(o.value));
  if (o.scores) parts.push("scores " + o.scores.map(signed).join(" / "));
  box.textContent = parts.join(" · ");
  return box;
}

function drawSide(t) {
  const won = $("won");
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
  const out = $("outside");
  out.replaceChildren();
  for (const part of t.outside) {
    const p = el("div", "outside-part");
    p.append(el("div", "meaning", part.label));
    const row = el("div", "suit-row");
    for (const token of part.cards) row.append(cardEl(token));
    p.append(row);
    out.append(p);
  }
  $("dd-meaning").textContent = "Value: " + t.value_meaning + ".";
  $("legend-small").textContent = t.small_loss > 0 ? "small: a cost of at most " + t.small_loss : "here every loss is big";
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
}

async function update() {
  const k = state.cursor;
  const key = keyOf(state.line.slice(0, k));
  clearValue();
  $("slider").max = String(state.line.length);
  $("slider").value = String(k);
  let t = state.tables.get(key);
  if (!t) {
    const r = await post("/api/table", { position: positionAt(k) });
    if (state.cursor !== k || keyOf(state.line.slice(0, k)) !== key) return;   // moved on
    if (!r.ok) { showDealError(fieldMessage(r.data)); return; }
    t = r.data;
    state.tables.set(key, t);
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
    $("whatif-text").textContent = "What-if: from card " + state.whatIfFrom + " this is not the real play" +
      (state.real[state.whatIfFrom] ? " (really played there: " + state.real[state.whatIfFrom] + ")." : ".") +
      (atEnd && !t.outcome ? " ▶ plays a best card." : "");
  }
  drawChartCursor();
  history.replaceState(null, "", "#deal=" + state.dealIndex + "&card=" + k + (state.whatIfFrom !== null ? "&whatif=" + state.line.slice(state.whatIfFrom).join(",") : ""));
  solveCurrent();
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
  const controller = new AbortController();
  const job = { key, controller, started: performance.now(), timer: null };
  state.solving = job;
  showSearching(job, limit);
  job.timer = setInterval(() => showSearching(job, limit), 200);
  // a short pause: stepping quickly through cards starts no search for each of them
  job.delay = setTimeout(async () => {
    let r;
    try {
      r = await post("/api/solve", { position: positionAt(state.cursor), all: true,
                                     time_limit: limit, slot: TAB + "-solve" }, controller.signal);
    } catch (e) {
      if (e.name === "AbortError") return;
      r = { ok: false, data: { reason: "the server did not answer (" + e.message + ")" } };
    }
    if (state.solving !== job) return;
    clearInterval(job.timer);
    state.solving = null;
    if (!r.ok) {
      if (r.status === 409) return;
      $("dd-status").textContent = "The search failed: " + fieldMessage(r.data);
      $("dd-status").className = "dd-status error";
      return;
    }
    state.solves.set(key, r.data);
    drawTable();
    showSolve(r.data);
  }, 120);
}

function stopSolving() {
  const job = state.solving;
  if (!job) return;
  clearTimeout(job.delay);
  clearInterval(job.timer);
  job.controller.abort();     // the server stops the search when the request goes away
  state.solving = null;
}

function showSearching(job, limit) {
  const seconds = (performance.now() - job.started) / 1000;
  $("dd-value").replaceChildren(el("span", "spinner"), el("span", "searching", "searching…"));
  $("dd-value").dataset.value = "";
  $("dd-status").className = "dd-status";
  $("dd-status").textContent = seconds.toFixed(1) + " s of at most " + limit + " s — you can go on stepping.";
}

function showFinished(t) {
  $("dd-value").replaceChildren(el("span", "big-number", signed(t.outcome.value)));
  $("dd-value").dataset.value = t.outcome.value;
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
    box.replaceChildren(el("span", "big-number", signed(s.value)));
    box.dataset.value = s.value;
    box.dataset.low = box.dataset.high = "";
    const who = state.table && state.table.to_play !== null ? "seat " + state.table.to_play : "";
    const best = s.best && s.best.length ? " Best for " + who + ": " + s.best.join(" ") + "." : "";
    status.textContent = "Exact, solved in " + s.seconds.toFixed(2) + " s (" + s.nodes.toLocaleString("en") + " nodes)." + best;
    if (s.line && s.line.length) status.append(el("div", "line", "One best line: " + s.line.slice(0, 12).join(" ") + (s.line.length > 12 ? " …" : "")));
  } else {
    const [lo, hi] = s.bounds;
    box.replaceChildren(el("span", "big-number bounds", lo === hi ? signed(lo) : signed(lo) + " … " + signed(hi)));
    box.dataset.value = "";
    box.dataset.low = lo;
    box.dataset.high = hi;
    status.classList.add("limited");
    const limit = s.time_limit ? s.time_limit + " s" : "its";
    status.textContent = "Not solved: the search stopped at " + limit + " limit. Proven so far: the value is at least " +
      signed(lo) + " and at most " + signed(hi) + ". No card values yet — raise the time limit, or step on to a smaller position.";
  }
}

// -- the analysis of the play ----------------------------------------------------------------

function defaultStart(line) {
  const n = state.deal.hands.length;
  const k = DEFAULT_LAST_TRICKS[state.deal.game] || 8;
  const full = state.deal.hands[0].length;
  return Math.max(0, (full - k) * n);
}

function fillStartOptions() {
  const sel = $("analysis-start");
  sel.replaceChildren();
  const n = state.deal.hands.length;
  const tricks = state.deal.hands[0].length;
  for (let i = 0; i < tricks; i++) {
    const o = el("option", null, "trick " + (i + 1) + " (last " + (tricks - i) + ")");
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
  const line = state.line.slice();
  const start = Math.min(Number($("analysis-start").value), line.length);
  const limit = Number($("analysis-limit").value);
  const controller = new AbortController();
  state.analysing = controller;
  const statusEl = $("analysis-status");
  statusEl.className = "dd-status";
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
    statusEl.className = "dd-status limited";
    // the analysis goes back from the end: what a limit leaves is the last cards
    statusEl.textContent = "Stopped: " + a.message + (a.plays.length ? " — the last " + a.plays.length + " cards played, shown below." : ". Choose a later trick to start from, or a longer limit.");
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
  if (!a || a.start_value === null) { $("chart").replaceChildren(); return; }
  const head = el("tr");
  for (const h of ["seat", "role", "cards", "mistakes", "total cost"]) head.append(el("th", null, h));
  costs.append(head);
  for (const s of a.seats) {
    const tr = el("tr");
    tr.dataset.seat = s.seat;
    tr.append(el("td", null, "Seat " + s.seat), el("td", null, t ? t.roles[s.seat] : ""),
              el("td", null, String(s.cards)), el("td", "mistakes-n", String(s.mistakes)),
              el("td", "cost" + (s.cost > 0 ? " lost" : ""), String(s.cost)));
    costs.append(tr);
  }
  const summary = el("caption", null, "Value at card " + a.start + ": " + signed(a.start_value) +
    (a.outcome ? " · result: " + signed(a.outcome.value) : (a.plays.length ? " · after card " + (a.plays[a.plays.length - 1].index + 1) + ": " + signed(a.plays[a.plays.length - 1].value_after) : "")));
  costs.prepend(summary);
  const worst = a.plays.reduce((w, p) => (p.cost > (w ? w.cost : 0) ? p : w), null);
  for (const p of a.plays.filter((p) => p.cost > 0)) {
    const li = el("li", "mistake" + (p === worst ? " worst" : ""));
    li.dataset.index = p.index;
    const n = t ? t.seats : state.deal.hands.length;
    li.append(el("span", "where", "trick " + (Math.floor(p.index / n) + 1) + ", seat " + p.seat + " (" + (t ? t.roles[p.seat] : "") + ")"),
              document.createTextNode(" played "), tokenEl(p.card),
              document.createTextNode(" costing "), el("strong", "cost", String(p.cost)),
              document.createTextNode(" — best: "), tokensEl(p.best));
    li.title = "show the position before this card";
    li.addEventListener("click", () => goToAnalysed(p.index));
    mistakes.append(li);
  }
  if (!mistakes.children.length && a.plays.length) mistakes.append(el("li", "none", "No mistake: every card analysed was a best card."));
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

function drawChart() {
  const a = state.analysis;
  const box = $("chart");
  box.replaceChildren();
  if (!a || a.start_value === null) return;
  const points = [{ index: a.start, value: a.start_value, play: null }]
    .concat(a.plays.map((p) => ({ index: p.index + 1, value: p.value_after, play: p })));
  const total = state.analysisLine.length;
  const W = 900, H = 220, L = 56, R = 16, T = 16, B = 30;
  const values = points.map((p) => p.value);
  let lo = Math.min(...values), hi = Math.max(...values);
  // zero (made / lost in French Tarot) is shown when the values come near it
  if (lo > 0 && lo < (hi - lo) * 0.5) lo = 0;
  if (hi < 0 && -hi < (hi - lo) * 0.5) hi = 0;
  if (lo === hi) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const x = (i) => L + (W - L - R) * (i - a.start) / Math.max(1, total - a.start);
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "double-dummy value after every card" });
  s.append(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" }));
  if (lo <= 0 && hi >= 0) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "zero" }));
    s.append(svg("text", { x: L - 6, y: y(0) + 4, class: "axis", "text-anchor": "end" }, "0"));
  }
  const top = Math.max(...points.map((p) => p.value)), bottom = Math.min(...points.map((p) => p.value));
  for (const v of new Set([top, bottom])) {
    if (v !== 0) s.append(svg("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, signed(v)));
  }
  const n = state.deal.hands.length;
  for (let i = trickStart(a.start); i <= total; i += n) {
    if (i < a.start) continue;
    s.append(svg("line", { x1: x(i), x2: x(i), y1: T, y2: H - B, class: "trick-line" }));
    if ((i / n) % 2 === 0 && i < total) s.append(svg("text", { x: x(i) + 2, y: H - B + 14, class: "axis" }, "trick " + (i / n + 1)));
  }
  const path = points.map((p, i) => (i ? "H" + x(p.index) + "V" + y(p.value) : "M" + x(p.index) + " " + y(p.value))).join(" ");
  s.append(svg("path", { d: path, class: "value-line" }));
  const worst = a.plays.reduce((w, p) => (p.cost > (w ? w.cost : 0) ? p : w), null);
  const small = state.table ? state.table.small_loss : 0;
  for (const p of points) {
    const play = p.play;
    const level = !play ? "start" : play.cost === 0 ? "optimal" : play.cost <= small ? "small" : "big";
    const dot = svg("circle", { cx: x(p.index), cy: y(p.value), r: play && play.cost ? 5 : 3, class: "dot " + level });
    const label = play ? "card " + (play.index + 1) + ": seat " + play.seat + " " + play.card + " → " + signed(play.value_after) + (play.cost ? " (cost " + play.cost + ")" : "") : "start: " + signed(p.value);
    dot.append(svg("title", {}, label));
    dot.addEventListener("click", () => goToAnalysed(play ? play.index : a.start));
    s.append(dot);
  }
  if (worst) {
    const px = x(worst.index + 1), py = y(worst.value_after);
    const text = "lost here: seat " + worst.seat + " " + worst.card + " (−" + worst.cost + ")";
    const anchor = px > W * 0.7 ? "end" : "start";
    s.append(svg("circle", { cx: px, cy: py, r: 9, class: "worst-ring" }));
    s.append(svg("text", { x: px + (anchor === "end" ? -12 : 12), y: py < T + 20 ? py + 18 : py - 10, class: "worst-label", "text-anchor": anchor }, text));
  }
  s.append(svg("line", { id: "chart-cursor", x1: 0, x2: 0, y1: T, y2: H - B, class: "cursor" }));
  box.append(s);
  box._x = x;
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

function loadDeal(i, card, whatif) {
  stopSolving();
  if (state.analysing) { state.analysing.abort(); state.analysing = null; }
  state.dealIndex = i;
  state.deal = state.deals[i].obj;
  state.real = (state.deal.played || []).slice();
  state.line = state.real.slice();
  state.whatIfFrom = null;
  state.tables.clear();
  state.solves.clear();
  state.analysis = null;
  state.analysisLine = null;
  $("deal-select").value = String(i);
  $("input-error").hidden = true;
  fillStartOptions();
  drawAnalysis();
  $("analysis-status").textContent = "";
  let k = card === undefined ? 0 : card;
  if (whatif && whatif.length && k <= state.line.length) {
    const from = Math.min(k, state.line.length);
    state.line = state.line.slice(0, from).concat(whatif);
    state.whatIfFrom = from;
    k = state.line.length;
  }
  go(Math.max(0, Math.min(k, state.line.length)));
  scheduleAnalysis();
}

async function addDeals(objs, group) {
  const first = state.deals.length;
  objs.forEach((obj, i) => state.deals.push({ obj, label: label(obj, i), group }));
  fillDeals();
  return first;
}

async function validate(obj) {
  const r = await post("/api/validate", { position: obj });
  return r.ok ? null : fieldMessage(r.data);
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
  if (problems.length) {
    const box = $("input-error");
    box.replaceChildren(el("strong", null, objs.length ? "Some positions were refused:" : "This position is refused:"));
    const ul = el("ul");
    for (const p of problems.slice(0, 20)) ul.append(el("li", null, p));
    box.append(ul);
    box.hidden = false;
    openInput(true);
  }
  if (!objs.length) return;
  if (!problems.length) { $("input-error").hidden = true; openInput(false); }
  const first = await addDeals(objs, source);
  loadDeal(first);
}

async function start() {
  const [mine, examples] = await Promise.all([
    fetch("/api/deals").then((r) => r.json()).catch(() => ({ deals: [] })),
    fetch("/static/examples.jsonl").then((r) => r.text()).catch(() => ""),
  ]);
  for (const [i, obj] of mine.deals.entries()) state.deals.push({ obj, label: label(obj, i), group: "Your file" });
  examples.split("\n").filter((l) => l.trim()).forEach((line, i) => {
    const obj = JSON.parse(line);
    state.deals.push({ obj, label: label(obj, i), group: "Examples" });
  });
  fillDeals();
  const hash = new URLSearchParams(location.hash.slice(1));
  const wanted = Number(hash.get("deal") || 0);
  const card = hash.has("card") ? Number(hash.get("card")) : undefined;
  const whatif = hash.get("whatif") ? hash.get("whatif").split(",") : null;
  if (state.deals.length) loadDeal(wanted >= 0 && wanted < state.deals.length ? wanted : 0, card, whatif);
  else openInput(true);
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
  $("solve-limit").addEventListener("change", () => update());
  $("analyse").addEventListener("click", runAnalysis);
  $("deal-select").addEventListener("change", (e) => loadDeal(Number(e.target.value)));
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
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "textarea" || tag === "select" || (tag === "input" && e.target.type !== "range")) return;
    const keys = {
      ArrowLeft: () => (e.shiftKey ? stepTrick(-1) : stepCard(-1)),
      ArrowRight: () => (e.shiftKey ? stepTrick(1) : stepCard(1)),
      ArrowUp: () => stepTrick(-1), ArrowDown: () => stepTrick(1),
      PageUp: () => stepTrick(-1), PageDown: () => stepTrick(1),
      Home: () => go(0), End: () => go(state.line.length),
    };
    if (keys[e.key] && state.deal) { e.preventDefault(); keys[e.key](); }
  });
}

wire();
start();
