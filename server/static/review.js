// The review of the play: /api/analyze/stream judges every card of the line shown and sends
// each card's verdict as it is found (one of the best, a mistake of at least N, decisive,
// or not judged yet), from the end of the deal back; the page lists each seat's proven
// mistakes, names the decisive cards and charts the value after every card, as they come.
// Stop keeps everything found; "Keep going" goes on with the same analysis on the server
// (its table warm) instead of starting again.  This is its controller: what is asked of the
// server, kept in the tab and changed in the state; its view: review-view.js.
import { state, $, TAB, keyOf, seatsOf, setAnalysing, setAnalysis, setAnalysisSession, setLine, mergeAnalysis,
         markAnalysis } from "./state.js";
import { postLines, fieldMessage } from "./api.js";
import { emit } from "./events.js";
import { drawAnalysis, drawFailed, drawFinished, drawKept, drawNothing, drawNotReviewable, drawOffer, drawProgress,
         drawRunning, drawSettingNote, drawStarting, drawStoppedEarly, hideReview, showControls } from "./review-view.js";

export { clearStatus as clearReviewStatus, drawAnalysis, drawChartCursor, fillStartOptions, watchChartWidth } from "./review-view.js";

let pending = null;     // a what-if line whose end's value is awaited: can a review judge it?

// Reviews found in this tab outlive a reload (sessionStorage, this tab only): the last
// KEPT_REVIEWS of them, none over KEPT_CHARS characters (a whole deal's is about 30 000).
// A review kept for the line shown is shown again as it was, stopped or not, and no new
// one starts by itself.
const KEPT = "atout-reviews";
const KEPT_REVIEWS = 8;
const KEPT_CHARS = 200000;
const reviewKey = (line) => keyOf(state.deal.hands.flat()) + "|" + keyOf(line);

function keptReviews() {
  try { return JSON.parse(sessionStorage.getItem(KEPT) || "[]"); } catch (e) { return []; }
}

function keepReview() {
  const a = state.analysis;
  if (!a || !state.analysisLine || a.status === "running") return;
  const key = reviewKey(state.analysisLine);
  const entry = { key, analysis: a };
  if (JSON.stringify(entry).length > KEPT_CHARS) return;
  const kept = [entry, ...keptReviews().filter((e) => e.key !== key)].slice(0, KEPT_REVIEWS);
  try { sessionStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* full: not kept */ }
}

// the last review kept for the line shown: shown (from the trick it started at), and true,
// if there is one
function showKeptReview() {
  const key = reviewKey(state.line);
  const found = keptReviews().find((e) => e.key === key);
  if (!found) return false;
  setAnalysis(found.analysis, state.line.slice());
  setAnalysisSession(null);               // the server's analysis is not this tab's any more
  drawKept(found.analysis);
  return true;
}

// A review searches on all the server's cores for up to its time limit, so none starts by
// itself: the line shown gets a review kept from before in this tab, or the offer of one
// (a button in the status line, beside where the review is drawn).  A what-if line whose
// end the search cannot solve in time is said to be one no review could judge.
export function reviewLineChanged() {
  pending = null;
  // a review under way goes on (it was asked for); its status line stays its own
  if (state.viewSeat !== null || state.analysing) return;
  if (showKeptReview()) return;
  offerReview();
  if (state.whatIfFrom === null || !state.line.length) return;
  pending = keyOf(state.line);
  const known = state.solves.get(pending + "|" + $("solve-limit").value);
  if (known) reviewOnSolved(pending, known);
}

// what the review would search, and a button to start it; or why there is nothing to review
function offerReview() {
  const start = Number($("analysis-start").value);
  const nothing = nothingToReview(state.line, start);
  if (nothing) drawNothing(nothing, false);
  else drawOffer(state.line.length - start, start);
}

// a line with no card played from the review's start: why a search would analyse nothing
function nothingToReview(line, start) {
  if (line.length > start) return null;
  return line.length === 0
    ? "No card has been played yet: nothing to analyse. Play a card (click a lit card) and the review follows that line."
    : "No card played from trick " + (start / seatsOf() + 1) + " on: choose an earlier trick to analyse from.";
}

// the value panel's search answered: where a what-if line ends unsolved, no card of it
// could be judged, and the page says so before anyone asks
export function reviewOnSolved(lineKey, result) {
  if (pending === null || lineKey !== pending || state.viewSeat !== null || state.analysing) return;
  pending = null;
  if (result.status !== "ok") drawNotReviewable();
}

// another start or time limit does not throw away the review running or found: it is for
// the next one (Analyse, or Keep going); with none, the offer says what it would search
export function reviewSettingChanged(setting) {
  if (!state.analysing && !state.analysis) {
    if (state.viewSeat === null) offerReview();
    return;
  }
  drawSettingNote(setting);
}

export function stopReview() {
  pending = null;
  if (state.analysing) { state.analysing.abort(); setAnalysing(null); }
  showControls(false);
}

// from one seat's view the review is not shown: it names cards the seat cannot see
export function reviewViewChanged() {
  hideReview(state.viewSeat !== null);
  if (state.viewSeat !== null) return;
  // the review shown before, if it is of the line shown still; else the line's own
  if (state.analysis && state.analysisLine && keyOf(state.analysisLine) === keyOf(state.line)) drawAnalysis();
  else reviewLineChanged();
}

let redraw = null;
// verdicts arrive in bursts: the list, the seats and the chart are drawn at most every 150 ms
function drawSoon() {
  if (redraw) return;
  redraw = setTimeout(() => { redraw = null; drawAnalysis(); drawProgress(state.analysis, !!state.analysing); }, 150);
}

// The review of the line shown: a fresh analysis, or (keepGoing) the one shown going on
// for another time limit, its verdicts drawn as the server finds them.
export async function runAnalysis(keepGoing) {
  keepGoing = keepGoing === true;
  pending = null;
  if (state.analysing) state.analysing.abort();
  setAnalysing(null);
  if (state.viewSeat !== null) return;
  const line = keepGoing ? state.analysisLine.slice() : state.line.slice();
  const start = keepGoing ? state.analysis.start : Number($("analysis-start").value);
  const limit = Number($("analysis-limit").value);
  const nothing = nothingToReview(line, start);
  if (nothing) {
    // no card played from there on: a search would analyse nothing
    setAnalysis(null, null);
    drawNothing(nothing, true);
    return;
  }
  drawStarting();
  const controller = new AbortController();
  setAnalysing(controller);
  if (!keepGoing) { setAnalysis(null); setAnalysisSession(null); drawAnalysis(); }
  setAnalysis(state.analysis, line);
  const began = performance.now();
  const tick = () => drawRunning(keepGoing, line.length - start, (performance.now() - began) / 1000, limit);
  tick();
  const ticking = setInterval(tick, 200);
  showControls(true);
  const body = { position: Object.assign({}, state.deal, { played: line }), start, time_limit: limit,
                 slot: TAB + "-analyze" };
  if (keepGoing) body.session = state.analysisSession;
  let r, failure = null;
  const onLine = (msg) => {
    if (state.analysing !== controller) return;
    if (msg.type === "start") {
      setAnalysisSession(msg.session || null);
      if (!keepGoing || !state.analysis || !msg.resumed) {
        setAnalysis({ start, plays: [], seats: [], start_value: null, start_bounds: null, made: null, status: "running" });
      }
    } else if (msg.type === "update") {
      mergeAnalysis(msg);
      drawSoon();
    } else if (msg.type === "report") {
      setAnalysis(msg.report);
    } else if (msg.type === "error") {
      failure = fieldMessage(msg);
    }
  };
  try {
    r = await postLines("/api/analyze/stream", body, controller.signal, onLine);
  } catch (e) {
    clearInterval(ticking);
    if (state.analysing !== controller) return;        // stopped, or a newer review
    setAnalysing(null);
    failure = "the answer stopped (" + e.message + ")";
  }
  clearInterval(ticking);
  if (state.analysing !== controller && !failure) return;
  setAnalysing(null);
  clearTimeout(redraw);
  redraw = null;
  if (r && !r.ok) {
    showControls(false);
    if (r.status !== 409) drawFailed(fieldMessage(r.data), false);
    return;
  }
  if (failure || !state.analysis || state.analysis.status === "running") {
    if (state.analysis) markAnalysis({ status: "limit" });
    keepReview();
    drawFailed(failure || "it ended before its report", true);
    return;
  }
  keepReview();
  drawFinished(performance.now() - began, limit, state.analysis.cached);
}

// Stop: the review keeps every verdict found so far (the server's analysis waits, for
// "Keep going")
export function stopAnalysis() {
  const controller = state.analysing;
  if (!controller) return;
  setAnalysing(null);
  controller.abort();
  if (state.analysis) {
    markAnalysis({ status: "limit", stopped_by: "cancel" });
    keepReview();
    drawFinished(0, Number($("analysis-limit").value), false);
  } else {
    drawStoppedEarly();
  }
}

export function keepGoing() {
  if (state.analysis && state.analysisSession) runAnalysis(true);
}

// to the position before a card of the review (the line reviewed shown again, if another is)
export function goToAnalysed(index) {
  if (state.analysisLine && keyOf(state.analysisLine) !== keyOf(state.line)) setLine(state.analysisLine.slice(), state.whatIfFrom);
  emit("go", index);
}
