// Stepping through the play: card by card, trick by trick, to a card of the list or the
// chart, a what-if card instead of the real one and back; each step asks the server for the
// table of the position shown (/api/view), has it drawn, and has what the position needs
// asked for (its value, or the view seat's advice).  Its view: stepping-view.js.
import { state, keyOf, positionAt, seatsOf, setCursor, setLine, showTable,
         playInstead as playInsteadAtCursor } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { bestCard } from "./position.js";
import { emit } from "./events.js";
import { drawPlace, drawSlider } from "./stepping-view.js";

export { refreshButtons } from "./stepping-view.js";

function trickStart(k) { return k - (k % seatsOf()); }

// (the promise: the table drawn and its value asked for, or the view moved on)
export function go(k) {
  setCursor(k);
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
  if (state.line[state.cursor] === token) { go(state.cursor + 1); return; }
  playInsteadAtCursor(token);
  update();
  emit("line-changed");
}

// past the end of the line (a puzzle, a what-if): play a best card
function continueLine() {
  const best = bestCard();
  if (best) emit("play-best", best);  // (a what-if, or the next card of a play being entered)
}

export async function backToReal() {
  const from = state.whatIfFrom;
  const cursor = state.cursor;
  setLine(state.real.slice(), null);
  setCursor(from === null ? cursor : from);
  await update();          // the value asked for first (see loadDeal)
  emit("line-changed");
}

export async function update() {
  const k = state.cursor;
  const key = keyOf(state.line.slice(0, k));
  emit("leaving");           // nothing shown belongs to another position, even for a moment
  drawSlider();
  const seat = state.viewSeat;
  let t = state.tables.get(key + "@" + seat);
  if (!t) {
    const body = { position: positionAt(k) };
    if (seat !== null) body.seat = seat;
    const r = await post("/api/view", body);
    if (state.cursor !== k || keyOf(state.line.slice(0, k)) !== key || state.viewSeat !== seat) return;   // moved on
    if (!r.ok) { emit("deal-error", fieldMessage(r.data)); return; }
    t = r.data;
  }
  showTable(key + "@" + seat, t);
  emit("table");             // drawn before anything below reads the page
  drawPlace(k);
  emit("shown");             // the chart's cursor, the address, the value or the advice
}
