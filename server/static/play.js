// Playing a deal against the solver: from the card shown on, the player takes the seats of
// one camp and the opponents play the others — "perfect": each card a best one by the
// double-dummy search (the viewer's own value of the position, /api/solve; proven, or said
// not to be when the time limit stopped it), or "fair": each card the advice of its own seat,
// seeing only its hand (/api/advise, budgeted: the same time limit a card, spent on the cards
// still in contention — docs/single-dummy.md, "Advice in a budget").  The request holds the
// whole deal, as every advice request does; the server draws from what the seat can know of
// it (tests/test_advise_service.py: two deals the seat cannot tell apart, the same card).
// Each of the player's cards is costed against the best card there, shown as it is played or
// kept until the end (a puzzle); a hint names a best card; at the end the whole play can be
// reviewed.  The play is a what-if line of the deal, so stepping back and the review work on
// it as on any line.
import { state, $, el, plural, keyOf, positionAt, TAB, setLine, setPlaying } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { tokenEl, valueText } from "./cards.js";
import { currentSolve, solveLimit, adviceSamples, madeWord } from "./position.js";
import { emit } from "./events.js";

const OPPONENTS = {
  perfect: "the solver, every hand open (each card a best one)",
  fair: "fair bots, each seeing only its own hand (each card its seat's advice)",
};

export function playing() { return state.playing !== null && state.playing !== undefined; }

// the camps the player can take, from the table shown: [{camp, seats, name}]
function camps() {
  const t = state.table;
  if (!t) return [];
  const out = [];
  for (const camp of [0, 1]) {
    const seats = [];
    for (let s = 0; s < t.seats; s++) if (t.camps[s] === camp) seats.push(s);
    if (!seats.length) continue;
    const names = [...new Set(seats.map((s) => t.roles[s]))].join(" and ");
    out.push({ camp, seats, name: names + " (" + (seats.length === 1 ? "seat " : "seats ") + seats.join(", ") + ")" });
  }
  return out;
}

export function openPlayPanel(open) {
  $("play-panel").hidden = !open;
  $("play-open").setAttribute("aria-expanded", String(open));
  if (!open) return;
  const sel = $("play-camp");
  const chosen = sel.value;
  sel.replaceChildren(...camps().map((c) => { const o = el("option", null, c.name); o.value = String(c.camp); return o; }));
  if ([...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
  const t = state.table;
  const over = !t || t.outcome;
  $("play-start").disabled = over || state.viewSeat !== null;
  $("play-note").textContent = over ? "The deal is over at the card shown: step back to where the play should start."
    : state.viewSeat !== null ? "Play with every hand open (View: every hand open); the fair bots still see only their own hands."
    : "The play starts at the card shown (" + (state.cursor ? "after card " + state.cursor : "the first card") + "); the cards after it are replaced by yours and the opponents'.";
}

export function startPlaying() {
  const t = state.table;
  if (!t || t.outcome) return;
  const camp = Number($("play-camp").value);
  const choice = camps().find((c) => c.camp === camp);
  const k = state.cursor;
  setPlaying({
    seats: choice.seats, campName: choice.name, camp, opponents: $("play-opponents").value,
    hidden: $("play-costs").value === "hidden", from: k, log: [], hints: 0, startValue: null,
    startKey: keyOf(state.line.slice(0, k)), asking: null, note: "",
  });
  openPlayPanel(false);
  // the line from here on is the game's: a what-if of the deal (the real play is kept)
  const from = k < state.real.length || state.whatIfFrom !== null
    ? Math.min(k, state.whatIfFrom === null ? k : state.whatIfFrom) : state.whatIfFrom;
  setLine(state.line.slice(0, k), from);
  document.body.classList.toggle("playing-hidden", state.playing.hidden);
  emit("line-changed");
  emit("go", k);
}

export function stopPlaying() {
  stopAsking();
  setPlaying(null);
  document.body.classList.remove("playing-hidden");
  drawPlay();
}

function stopAsking() {
  const p = state.playing;
  if (p && p.asking) { p.asking.abort(); p.asking = null; }
}

const atEnd = () => state.cursor === state.line.length;
const mine = (seat) => state.playing.seats.includes(seat);

// what the controller does with a card clicked while playing: the player's own seat at the
// end of the line plays it (with its cost noted); any other card is refused, said why
export function playerCard(token) {
  const t = state.table;
  const p = state.playing;
  if (!atEnd()) { say("Step to the last card played (End) to go on playing."); return; }
  if (!mine(t.to_play)) { say("Seat " + t.to_play + " is " + (p.opponents === "perfect" ? "the solver's" : "a bot's") + ": wait for its card."); return; }
  const entry = { k: state.cursor, key: keyOf(state.line.slice(0, state.cursor)), seat: t.to_play, card: token, cost: null };
  costOf(entry, currentSolve());
  p.log.push(entry);
  emit("play-card", token);
  if (entry.cost === null) costLater(p);
}

// a card played before the search of its position ended (the viewer's search stops when
// the table moves on): its position solved again, one at a time, behind the game
async function costLater(p) {
  if (p.costing) return;
  p.costing = true;
  for (;;) {
    const entry = p.log.find((e) => e.cost === null && !e.tried);
    if (!entry || state.playing !== p) break;
    entry.tried = true;
    const position = Object.assign({}, state.deal, { played: state.line.slice(0, entry.k) });
    let r;
    try {
      r = await post("/api/solve", { position, all: true, time_limit: solveLimit(), slot: TAB + "-cost" });
    } catch (e) { r = { ok: false }; }
    if (state.playing !== p) break;
    if (r.ok) { costOf(entry, r.data); drawPlay(); }
  }
  p.costing = false;
}

// the cost of a card of the player: its value against the best card's, for its camp
function costOf(entry, solved) {
  if (!solved || solved.status !== "ok" || !solved.cards || !(entry.card in solved.cards)) return;
  const t = state.table;
  const v = solved.cards[entry.card];
  const maximizing = state.playing.camp === t.maximizing_camp;
  entry.cost = maximizing ? solved.value - v : v - solved.value;
  entry.best = solved.best;
}

// a search answered for a position of the line: a pending cost, or the solver's next card
export function playOnSolved(lineKey, result) {
  if (!playing()) return;
  const p = state.playing;
  for (const entry of p.log) if (entry.key === lineKey && entry.cost === null) costOf(entry, result);
  if (lineKey === p.startKey && p.startValue === null) p.startValue = result;
  drawPlay();
  if (lineKey === keyOf(state.line.slice(0, state.cursor))) nextMove();
}

// each time a position of the line is shown: the opponents' turn is taken, the end said
export function playOnShown() {
  if (!playing()) { drawPlay(); return; }
  const p = state.playing;
  const s = currentSolve();
  if (s && keyOf(state.line.slice(0, state.cursor)) === p.startKey && p.startValue === null) p.startValue = s;
  drawPlay();
  nextMove();
}

function nextMove() {
  const p = state.playing;
  const t = state.table;
  if (!p || !t || t.outcome || !atEnd() || mine(t.to_play)) return;
  if (p.opponents === "perfect") {
    const s = currentSolve();
    if (!s) return;                          // the viewer's search of this position: awaited
    const best = (s.best || []).find((c) => t.legal.includes(c)) || (s.best_guess && t.legal.includes(s.best_guess) ? s.best_guess : null);
    if (!best) { p.note = "The search found no card in its time limit: seat " + t.to_play + " plays its first legal card."; opponentPlays(t.legal[0]); return; }
    p.note = s.status === "ok" ? "" : "Seat " + t.to_play + "'s card is the best the search found in " + solveLimit() + " s, not proven best (a longer time limit proves more).";
    opponentPlays(best);
  } else {
    adviseBot(t);
  }
}

// a fair bot: the advice of its own seat, which sees only its own hand and the cards played
async function adviseBot(t) {
  const p = state.playing;
  if (p.asking) return;
  const k = state.cursor;
  const key = keyOf(state.line.slice(0, k));
  const controller = new AbortController();
  p.asking = controller;
  p.note = "Seat " + t.to_play + " is thinking (it sees only its own hand)…";
  drawPlay();
  let r;
  try {
    // budget: the time limit is the card's time, spent where the decision is, not a
    // deadline on every card's exact mean (which a hidden 10-trick deal seldom meets)
    r = await post("/api/advise", { position: positionAt(k), seat: t.to_play, samples: adviceSamples(),
                                     seed: k, time_limit: solveLimit(), budget: true, slot: TAB + "-play" },
                   controller.signal);
  } catch (e) {
    if (e.name === "AbortError") return;
    r = { ok: false, data: { reason: e.message } };
  }
  if (state.playing !== p || p.asking !== controller) return;
  p.asking = null;
  if (keyOf(state.line.slice(0, state.cursor)) !== key || !atEnd()) return;    // moved since
  if (!r.ok) { p.note = "The bot's advice failed (" + fieldMessage(r.data) + "): press Hint, or stop playing."; drawPlay(); return; }
  const card = r.data.recommended && t.legal.includes(r.data.recommended) ? r.data.recommended : t.legal[0];
  p.note = r.data.recommended ? "" : "Seat " + t.to_play + " drew no deal in time: it plays its first legal card.";
  opponentPlays(card);
}

function opponentPlays(token) {
  const p = state.playing;
  const k = state.cursor;
  // a short pause: the player sees the card come
  setTimeout(() => {
    if (state.playing !== p || state.cursor !== k || !atEnd()) return;
    emit("play-card", token);
  }, 450);
}

// a best card of the position shown (the search sees every hand): counted
export function hint() {
  const p = state.playing;
  const s = currentSolve();
  const t = state.table;
  if (!s) { say("The search of this position is still running: press Hint again in a moment."); return; }
  const best = (s.best || []).filter((c) => t.legal.includes(c));
  p.hints += 1;
  const box = $("play-note");
  box.replaceChildren(best.length ? "A best card here: " : "No card is proven best yet; the best found: ");
  const cards = best.length ? best : (s.best_guess ? [s.best_guess] : []);
  cards.forEach((c, i) => { if (i) box.append(" or "); box.append(tokenEl(c)); });
  for (const c of cards) {
    const e = document.querySelector('.seat.to-play .card[data-card="' + c + '"]');
    if (e) e.classList.add("hinted");
  }
}

function say(text) {
  const box = $("play-message");
  box.textContent = text;
  box.hidden = !text;
}

function costText(entry) {
  if (entry.cost === null) return "cost not known yet";
  return entry.cost === 0 ? "best" : "cost " + entry.cost;
}

// the goal as a puzzle states it: what best play on both sides gives from the first card of
// the game (the points of the camp that has a contract to make, where the end of the best
// line says them), and whether that makes the contract
function goalText(p) {
  const s = p.startValue;
  const o = s.outcome || {};
  const points = o.taker_points !== undefined ? [o.taker_points, "the taker's camp"]
    : o.caller_points !== undefined ? [o.caller_points, "the caller's party"]
    : o.declarer_points !== undefined && o.counting !== "standard" ? [o.declarer_points, "the declarer's camp"] : null;
  const made = s.made === null || s.made === undefined ? "" : " — " + madeWord(s.made);
  const mine = p.camp === state.table.maximizing_camp;
  if (points && o.needed !== undefined) {
    return "Best play from card " + (p.from + 1) + " on: " + points[1] + " takes " + points[0] + " points, " +
      o.needed + " needed" + made + ". " + (mine ? "Can you take as many against best defence?" : "Can you hold it to that?");
  }
  return "Best play from card " + (p.from + 1) + " on: " + valueText(s.value) + made + ". Can you do as well?";
}

export function drawPlay() {
  const bar = $("play-bar");
  const p = state.playing;
  bar.hidden = !p;
  if (!p) return;
  const t = state.table;
  const who = p.opponents === "perfect" ? "the solver" : "fair bots";
  $("play-who").textContent = "You play " + p.campName + " against " + who + ".";
  const goal = $("play-goal");
  goal.textContent = p.startValue && p.startValue.status === "ok" ? goalText(p) : "";
  const over = t && t.outcome;
  const turn = $("play-turn");
  if (over) {
    const known = p.log.filter((e) => e.cost !== null);
    const total = known.reduce((a, e) => a + e.cost, 0);
    turn.textContent = "The deal is over: " + t.result.headline + ". Your " + plural(p.log.length, "card") + " cost " +
      total + " in all" + (known.length < p.log.length ? " (" + (p.log.length - known.length) + " not costed yet: review the play)" : "") +
      (p.hints ? "; " + plural(p.hints, "hint") : "") + ".";
  } else if (!atEnd()) turn.textContent = "Step to the last card played (End) to go on.";
  else if (mine(t.to_play)) turn.textContent = "Your turn: seat " + t.to_play + ".";
  else turn.textContent = "Seat " + t.to_play + " plays…";
  $("play-review").hidden = !over;
  $("play-hint").disabled = !!over || !atEnd() || !mine(t.to_play);
  const note = $("play-note");
  if (!note.querySelector(".token")) note.textContent = p.note;
  const log = $("play-log");
  log.replaceChildren();
  if (p.hidden && !over) { log.hidden = true; return; }
  log.hidden = !p.log.length;
  for (const entry of p.log) {
    const li = el("li", entry.cost === null ? "open" : entry.cost === 0 ? "optimal" : "lost");
    li.append("card " + (entry.k + 1) + ", seat " + entry.seat + ": ", tokenEl(entry.card), " — " + costText(entry));
    log.append(li);
  }
}

// the review of the game: the what-if line from the trick where the play began
export function reviewGame() {
  const n = state.deal.hands.length;
  const start = state.playing.from - (state.playing.from % n);
  $("analysis-start").value = String(start);
  emit("review-game");
}
