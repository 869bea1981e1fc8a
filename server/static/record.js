// A deal entered in the editor, on the table: kept in this browser as a deal of the list
// ("Entered here"), and while its play is being recorded each card clicked on the table is
// the real play's next card — only the legal cards are lit (the server's /api/view), each
// trick's winner shown as for any deal — with Undo.  Nothing is lost on a reload.  Its view:
// record-view.js.
import { state, addDeal, recordPlay, setDealAt, setRecording } from "./state.js";
import { emit } from "./events.js";
import { drawRecording } from "./record-view.js";

export { drawRecording, recordingShown } from "./record-view.js";

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

// a legal card clicked while recording: the real play's next card (a card clicked before
// the end of the play replaces the cards after it)
export function recordCard(token) {
  const k = state.cursor;
  changed(state.real.slice(0, k).concat([token]), k + 1);
}

export function undoCard() {
  if (!state.real.length) return;
  const real = state.real.slice(0, -1);
  changed(real, Math.min(state.cursor, real.length));
}

function changed(real, cursor) {
  recordPlay(real);
  store();
  emit("recorded", state.real);
  emit("go", cursor);
  emit("line-changed");
}

export function stopRecording() {
  setRecording(false);
  store();
  drawRecording();
}

// the deal the editor hands over: the list's entered deal (one: the newest replaces it)
export function enteredDeal(obj, recording) {
  let i = state.deals.findIndex((x) => x.entered);
  const entry = { obj, label: (obj.id !== undefined ? obj.id : "your deal") + " · " + obj.game, group: ENTERED_GROUP,
                  shared: true, entered: true };
  if (i < 0) i = addDeal(entry); else setDealAt(i, entry);
  setRecording(recording);
  store();
  return i;
}
