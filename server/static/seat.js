// From one seat's view: the table as that seat sees it (the server hides the other hands,
// the unseen outside cards and, until its card falls, the partner), and when the seat is to
// play the advice of /api/advise — each legal card's mean over the deals it cannot tell
// apart.  This view asks the server only what the seat could know: no double-dummy value,
// best card, line or review (they see every hand), so no hidden card is ever named.  Its
// view: seat-view.js.
import { state, TAB, keepAdvice, setViewSeat } from "./state.js";
import { startRequest, stopRequest } from "./api.js";
import { solveLimit, adviceKey, adviceSamples } from "./position.js";
import { emit } from "./events.js";
import { drawAdviceFailed, drawAdvicePanel, drawAdvising, drawNoAdvice, drawViewOptions,
         showAdvice } from "./seat-view.js";

export function fillViewOptions() {
  if (state.viewSeat !== null && state.viewSeat >= state.deal.hands.length) setViewSeat(null);
  drawViewOptions();
}

export function adviseCurrent() {
  const t = state.table;
  const seat = state.viewSeat;
  drawAdvicePanel(seat);
  if (seat === null) { stopAdvising(); return; }
  const key = adviceKey();
  if (state.advising && state.advising.key === key) return;
  stopAdvising();
  const known = state.advices.get(key);
  if (known) { showAdvice(known); return; }
  if (!t || t.outcome) { drawNoAdvice("The deal is over."); return; }
  if (t.to_play !== seat) {
    drawNoAdvice("Seat " + t.to_play + " is to play: the advice appears when seat " + seat + " is.");
    return;
  }
  const limit = solveLimit();
  const samples = adviceSamples();
  startRequest("advising", key, "/api/advise",
    { position: Object.assign({}, state.deal, { played: state.line.slice(0, state.cursor) }), seat, samples,
      seed: state.cursor, time_limit: limit, slot: TAB + "-advise" }, 150,
    (job) => drawAdvising(job, samples, limit),
    (data, job) => {
      data.waited = job.seconds;
      keepAdvice(key, data);
      showAdvice(data);
      emit("advised");                              // the recommended cards drawn on the table
    },
    drawAdviceFailed);
}

export function stopAdvising() { stopRequest("advising"); }
