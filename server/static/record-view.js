// The recording's view: the bar above the table while the play of an entered deal is being
// entered ("Entering the play: … 12 cards so far", Undo).  It reads the state.
import { state, $, plural } from "./state.js";

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
