// What the page knows of the position shown, read from the state and the chosen limits:
// its double-dummy value and one seat's advice as found so far, and the contract's words
// (made or down).  Nothing here asks the server or draws anything.
import { state, $, keyOf } from "./state.js";

export function solveLimit() { return Number($("solve-limit").value); }
export function currentKey() { return keyOf(state.line.slice(0, state.cursor)) + "|" + solveLimit(); }

// the value found for the position shown: never from one seat's view (it sees every hand)
export function currentSolve() {
  return state.viewSeat === null ? state.solves.get(currentKey()) || null : null;
}

export function adviceSamples() { return Number($("advice-samples").value); }
export function adviceKey() { return currentKey() + "|" + adviceSamples() + "|" + state.viewSeat; }
export function currentAdvice() {
  return state.viewSeat === null ? null : state.advices.get(adviceKey()) || null;
}

// the best card of the position shown, where the search has proven one (never from one
// seat's view: the double-dummy search sees every hand)
export function bestCard() {
  const s = currentSolve();
  const t = state.table;
  if (state.viewSeat !== null || !t || t.outcome || !s || s.status !== "ok" || !s.best || !s.best.length) return null;
  return t.legal.find((c) => s.best.includes(c)) || null;
}

// fewer deals than this solved say little: no card is recommended on them
export const FEW_DEALS = 10;

// the cards the advice recommends: none on too few deals, nor when every card is as good
export function recommendedCards(a) {
  if (!a.solved || (a.status !== "ok" && a.solved < FEW_DEALS) || a.best.length >= a.cards.length) return [];
  return a.best;
}

// -- the contract question: made or not, where the value itself is not known ------------------

// every game but Trischaken has a contract to make (its chart has a deciding line)
export function hasContract() {
  const scale = state.table ? state.table.scale : null;
  return !!scale && (scale.line !== null || !!scale.fixed);
}

export const madeKey = (made) => (made === true ? "made" : made === false ? "down" : "open");
export const madeWord = (made) => ({ made: "made", down: "down", open: "made or down: open" })[madeKey(made)];

export function madeSentence(made) {
  const who = state.table ? state.table.scale.up : "the declarer's camp";
  if (made === true) return "proven: " + who + " makes its contract with best play";
  if (made === false) return "proven: " + who + " goes down with best play";
  return "whether " + who + " makes its contract is still open";
}
