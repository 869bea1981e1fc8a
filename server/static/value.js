// The value panel: the double-dummy value of the position shown asked of the server
// (/api/solve, within the chosen time limit), kept for when the position is shown again;
// never from one seat's view: that seat cannot see the hands the search sees.  Its view:
// value-view.js.
import { state, TAB, positionAt, keepSolve } from "./state.js";
import { startRequest, stopRequest } from "./api.js";
import { solveLimit, currentKey } from "./position.js";
import { emit } from "./events.js";
import { drawFailed, drawSeatView, showFinished, showSearching, showSolve } from "./value-view.js";

export { clearValue } from "./value-view.js";

export function solveCurrent() {
  const seat = state.viewSeat;
  drawSeatView(seat !== null);
  if (seat !== null) { stopSolving(); return; }
  const key = currentKey();
  if (state.solving && state.solving.key === key) return;
  stopSolving();
  const known = state.solves.get(key);
  if (known) { showSolve(known); return; }
  if (state.table && state.table.outcome) { showFinished(state.table); return; }
  const limit = solveLimit();
  startRequest("solving", key, "/api/solve",
    { position: positionAt(state.cursor), all: true, time_limit: limit, slot: TAB + "-solve" }, 120,
    (job) => showSearching(job, limit),
    (data) => {
      keepSolve(key, data);
      showSolve(data);
      emit("solved", key.split("|")[0], data);     // the cards' values drawn, a review told
    },
    drawFailed);
}

export function stopSolving() { stopRequest("solving"); }
