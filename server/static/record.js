// A deal entered in the editor, on the table: kept in this browser as a deal of the list
// ("Entered here"), and while its play is being recorded each card clicked on the table is
// the real play's next card — only the legal cards are lit (the server's /api/table), each
// trick's winner shown as for any deal — with Undo.  Nothing is lost on a reload.
import { state, $, plural } from "./state.js";
import { emit } from "./events.js";

const ENTERED_KEY = "atout-entered";
export const ENTERED_GROUP = "Entered here";

function stored() {
  try { return JSON.parse(localStorage.getItem(ENTERED_KEY) || "null"); } catch (e) { return null; }
}

function store() {
  const d = state.deals.find((x) => x.entered);
  try {
    if (d) localStorage.setItem(ENTERED_KEY, JSON.stringify({ obj: d.obj, recording: !!state.recording }));
  } catch (e) { /* storage full or off: kept while the page is open */ }
}

// the entered deal kept in this browser, for the list at start: {obj, recording} or null
export function keptEntered() { return stored(); }

// is the deal shown the one being recorded?
export function recordingShown() {
  return !!state.recording && state.deal !== null && state.deals[state.dealIndex] && state.deals[state.dealIndex].entered;
}

export function drawRecording() {
  const bar = $("recording");
  const on = recordingShown();
  bar.hidden = !on;
  if (!on) return;
  const n = state.real.length;
  const over = state.table && state.table.outcome;
  $("recording-text").textContent = over
    ? "The play is entered: all " + plural(n, "card") + ". Step through it, review it, or undo a card."
    : "Entering the play: click each card as it was played (only the legal cards are lit) — " +
      plural(n, "card") + " so far.";
  $("record-undo").disabled = n === 0;
}

// a legal card clicked while recording: the real play's next card (a card clicked before
// the end of the play replaces the cards after it)
export function recordCard(token) {
  const k = state.cursor;
  state.real = state.real.slice(0, k).concat([token]);
  changed(k + 1);
}

export function undoCard() {
  if (!state.real.length) return;
  state.real = state.real.slice(0, -1);
  changed(Math.min(state.cursor, state.real.length));
}

function changed(cursor) {
  const d = state.deals[state.dealIndex];
  d.obj = Object.assign({}, d.obj, { played: state.real.slice() });
  d.payload = null;                  // its link carries the new play
  state.deal = d.obj;
  state.line = state.real.slice();
  state.whatIfFrom = null;
  store();
  emit("recorded", state.real);
  emit("go", cursor);
  emit("line-changed");
}

export function stopRecording() {
  state.recording = false;
  store();
  drawRecording();
}

// the deal the editor hands over: the list's entered deal (one: the newest replaces it)
export function enteredDeal(obj, recording) {
  let i = state.deals.findIndex((x) => x.entered);
  const entry = { obj, label: (obj.id !== undefined ? obj.id : "your deal") + " · " + obj.game, group: ENTERED_GROUP,
                  shared: true, entered: true };
  if (i < 0) { state.deals.push(entry); i = state.deals.length - 1; } else state.deals[i] = entry;
  state.recording = !!recording;
  store();
  return i;
}
