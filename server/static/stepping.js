// Stepping through the play: card by card, trick by trick, to a card of the list or the
// chart, a what-if card instead of the real one and back; each step redraws the table and
// asks for what the position shown needs (its value, or the view seat's advice).
import { state, $, el, plural, keyOf, positionAt, cardNo, seatsOf } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { tokenEl } from "./cards.js";
import { currentSolve } from "./position.js";
import { emit } from "./events.js";

function trickStart(k) { return k - (k % seatsOf()); }

// (the promise: the table drawn and its value asked for, or the view moved on)
export function go(k) {
  state.cursor = Math.max(0, Math.min(k, state.line.length));
  return update();
}

export function stepCard(d) {
  if (d > 0 && state.cursor >= state.line.length) { continueLine(); return; }
  go(state.cursor + d);
}

export function stepTrick(d) {
  const n = seatsOf();
  if (d < 0) {
    const s = trickStart(state.cursor);
    go(s === state.cursor ? s - n : s);
  } else {
    go(trickStart(state.cursor) + n);
  }
}

export function playInstead(token) {
  const k = state.cursor;
  if (state.line[k] === token) { go(k + 1); return; }
  if (state.whatIfFrom === null || k < state.whatIfFrom) state.whatIfFrom = k;
  state.line = state.line.slice(0, k).concat([token]);
  state.cursor = k + 1;
  update();
  emit("line-changed");
}

// the best card of the position shown, where the search has proven one (never from one
// seat's view: the double-dummy search sees every hand)
function bestCard() {
  const s = currentSolve();
  const t = state.table;
  if (state.viewSeat !== null || !t || t.outcome || !s || s.status !== "ok" || !s.best || !s.best.length) return null;
  return t.legal.find((c) => s.best.includes(c)) || null;
}

// past the end of the line (a puzzle, a what-if): play a best card
function continueLine() {
  const best = bestCard();
  if (best) emit("play-best", best);  // (a what-if, or the next card of a play being entered)
}

export async function backToReal() {
  const from = state.whatIfFrom;
  state.line = state.real.slice();
  state.whatIfFrom = null;
  state.cursor = Math.min(from === null ? state.cursor : from, state.line.length);
  await update();          // the value asked for first (see loadDeal)
  emit("line-changed");
}

// where the table stands, card numbers counted from 1 as everywhere on the page
function describeWhere() {
  const t = state.table;
  const k = state.cursor;
  const total = state.line.length;
  if (t.outcome) return "All " + plural(total, "card") + " played";
  const trick = "trick " + (t.tricks.length + 1) + " of " + t.tricks_in_deal;
  if (k === 0) return "No card played yet · " + trick;
  const of = k < total ? " of " + total : "";
  return "After card " + cardNo(k - 1) + of + " · " + trick;
}

// the step buttons: ▶ past the end of the line plays a best card once one is proven
export function refreshButtons() {
  const k = state.cursor;
  const atEnd = k >= state.line.length;
  $("card-back").disabled = $("to-start").disabled = $("trick-back").disabled = k === 0;
  $("to-end").disabled = $("trick-next").disabled = atEnd;
  const next = $("card-next");
  const best = atEnd ? bestCard() : null;
  next.disabled = atEnd && !best;
  next.title = atEnd ? (best ? "Play a best card (→)" : state.table && state.table.outcome ? "The deal is over"
                                : "Plays a best card once the search has proven one (→)")
                     : "Forward one card (→)";
  const note = $("whatif-next");
  if (note) note.hidden = !best;
}

export async function update() {
  const k = state.cursor;
  const key = keyOf(state.line.slice(0, k));
  emit("leaving");           // nothing shown belongs to another position, even for a moment
  $("slider").max = String(state.line.length);
  $("slider").value = String(k);
  const seat = state.viewSeat;
  let t = state.tables.get(key + "@" + seat);
  if (!t) {
    const body = { position: positionAt(k) };
    if (seat !== null) body.seat = seat;
    const r = await post("/api/table", body);
    if (state.cursor !== k || keyOf(state.line.slice(0, k)) !== key || state.viewSeat !== seat) return;   // moved on
    if (!r.ok) { emit("deal-error", fieldMessage(r.data)); return; }
    t = r.data;
    state.tables.set(key + "@" + seat, t);
  }
  state.table = t;
  emit("table");             // drawn before anything below reads the page
  $("table").dataset.shown = k;
  $("where").textContent = describeWhere();
  drawWhatIf();
  refreshButtons();
  emit("shown");             // the chart's cursor, the address, the value or the advice
}

function drawWhatIf() {
  const banner = $("whatif");
  banner.hidden = state.whatIfFrom === null;
  if (state.whatIfFrom === null) return;
  const text = $("whatif-text");
  const from = state.whatIfFrom;
  const really = state.real[from];
  text.replaceChildren("What-if: from card " + cardNo(from) + " on, this is not the real play");
  // the card really played there, unless the view seat cannot have seen it yet
  const seen = really && (state.viewSeat === null || state.deal.hands[state.viewSeat].includes(really));
  if (seen) text.append(" (really played there: ", tokenEl(really), ").");
  else text.append(".");
  const next = el("span", null, " ▶ plays a best card.");
  next.id = "whatif-next";
  text.append(next);
}
