// atout hand viewer: draws what the server's rules engine says (/api/view) and the
// double-dummy values of the search (/api/solve, /api/analyze), and from one seat's view
// the advice of /api/advise.  No number is computed here except a card's cost, the
// difference between its value and the best card's.  One module per job, no build step.
//
// This module is the controller: it wires the page's controls, listens to the features'
// events (events.js) and decides what follows each.  The features draw from the state and
// report upward; none imports another feature that could import it back, so the imports
// run one way (tests/test_viewer_modules.py checks that there is no circle):
//
//   viewer.js   the controller (this file); the state changes only by state.js's actions,
//               called by the features' controllers; a feature's view (x-view.js) draws it
//   features:   stepping.js  stepping, what-if lines       table.js    the table and side panels
//               value.js     the double-dummy value        seat.js     one seat's view, advice
//               review.js    the review and its chart      deals.js    the deals offered, files, pasting
//               address.js   the address, share links      picture.js  "Save image"
//               contract-table.js  who could have made what: the deal's contract table
//               editor.js    entering a deal: its cards, bidding (/api/draft)
//               record.js    an entered deal on the table, its play clicked in card by card
//               play.js      a deal played against the solver or fair bots
//   below them: position.js  what is known of the position shown (value, advice, contract words)
//               api.js       the server's API              cards.js    cards as a player writes them
//               link.js      a deal in a link (atout/present/link.py)
//               events.js    the features' events          state.js    the page's state, small helpers
import { state, $, setViewSeat } from "./state.js";
import { on, emit } from "./events.js";
import { go, stepCard, stepTrick, playInstead, backToReal, refreshButtons, update } from "./stepping.js";
import { drawTable, drawValues } from "./table.js";
import { clearValue, solveCurrent, stopSolving } from "./value.js";
import { adviseCurrent, fillViewOptions, stopAdvising } from "./seat.js";
import { clearReviewStatus, drawAnalysis, drawChartCursor, fillStartOptions, goToAnalysed, keepGoing, reviewLineChanged, reviewOnSolved,
         reviewSettingChanged, reviewViewChanged, runAnalysis, stopAnalysis, stopReview, watchChartWidth } from "./review.js";
import { start, followLink, loadDeal, loadText, notice, openInput, showDealError, showEntered } from "./deals.js";
import { openShare, copyShare, writeAddress } from "./address.js";
import { imageChanged, openImage, saveImage } from "./picture.js";
import { contractTableChanged, runContractTable, stopContractTable } from "./contract-table.js";
import { closeEditor, editorOpen, keepPlayed, openEditor, reopenEditor, wireEditor } from "./editor.js";
import { drawRecording, recordCard, recordingShown, stopRecording, undoCard } from "./record.js";
import { hint, openPlayPanel, playerCard, playing, playOnShown, playOnSolved, reviewGame, startPlaying, stopPlaying } from "./play.js";

window.state = state;      // for the browser tests and a curious console

// the chosen time limits outlive a reload
function rememberLimit(id) {
  const sel = $(id);
  try {
    const kept = localStorage.getItem("atout-" + id);
    if (kept && [...sel.options].some((o) => o.value === kept)) sel.value = kept;
  } catch (e) { /* no storage: the page's default */ }
  sel.addEventListener("change", () => { try { localStorage.setItem("atout-" + id, sel.value); } catch (e) { /* kept for this page only */ } });
}

// from one seat's view, or every hand open again: what the other view had under way stops
// here (it would only slow this one's down), and each panel shows what this view may see
function changeView(value) {
  setViewSeat(value === "" || value === null ? null : Number(value));
  $("view-seat").value = state.viewSeat === null ? "" : String(state.viewSeat);
  stopSolving();
  stopAdvising();
  stopReview();
  update();
  reviewViewChanged();
  contractTableChanged();
}

// what follows each feature's event
function listen() {
  on("go", (k) => go(k));                              // a card of the tricks, of the review
  // a card clicked: the player's card in a game against the solver, the next card of a
  // play being entered, else a what-if
  on("play", (token) => (playing() ? playerCard(token) : recordingShown() ? recordCard(token) : playInstead(token)));
  on("play-best", (token) => { if (!playing()) emit("play", token); });   // ▶ past the end: not in a game
  on("play-card", (token) => playInstead(token));      // a card of the game, the player's or the solver's
  on("review-game", () => runAnalysis());            // the game played, reviewed
  on("review-asked", () => runAnalysis());           // the review's own offer taken
  on("to-analysed", goToAnalysed);                   // a card of the review's list or chart
  on("recorded", keepPlayed);                          // the editor keeps the play entered
  on("deal-entered", (obj, recording) => showEntered(obj, recording));
  on("deal-to-edit", (obj) => openEditor(obj));
  on("editing-changed", contractTableChanged);         // its table: of the deal being entered
  on("leaving", clearValue);                           // the table moves to another position
  on("table", drawTable);                              // its table came
  on("shown", () => { drawChartCursor(); writeAddress(); solveCurrent(); adviseCurrent(); imageChanged(); drawRecording(); playOnShown(); });
  on("line-changed", reviewLineChanged);
  on("solved", (lineKey, result) => { drawValues(); refreshButtons(); reviewOnSolved(lineKey, result); imageChanged(); playOnSolved(lineKey, result); });
  on("advised", drawValues);
  on("deal-error", showDealError);
  on("deal-closing", () => { stopPlaying(); stopSolving(); stopAdvising(); stopReview(); });
  on("deal-opened", () => { fillStartOptions(); fillViewOptions(); drawAnalysis(); clearReviewStatus(); contractTableChanged(); });
  on("deal-shown", () => (state.viewSeat === null ? reviewLineChanged() : reviewViewChanged()));
}

function wire() {
  $("to-start").addEventListener("click", () => go(0));
  $("to-end").addEventListener("click", () => go(state.line.length));
  $("card-back").addEventListener("click", () => stepCard(-1));
  $("card-next").addEventListener("click", () => stepCard(1));
  $("trick-back").addEventListener("click", () => stepTrick(-1));
  $("trick-next").addEventListener("click", () => stepTrick(1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("back-to-real").addEventListener("click", backToReal);
  rememberLimit("solve-limit");
  rememberLimit("analysis-limit");
  rememberLimit("ctable-limit");
  $("ctable-run").addEventListener("click", runContractTable);
  $("ctable-stop").addEventListener("click", stopContractTable);
  // one search time limit, with a control in each panel that uses it: the seat's view hides
  // the double-dummy panel, and its advice is solved within the same limit
  $("advice-limit").value = $("solve-limit").value;
  $("solve-limit").addEventListener("change", () => { $("advice-limit").value = $("solve-limit").value; update(); });
  $("advice-limit").addEventListener("change", () => {
    $("solve-limit").value = $("advice-limit").value;
    $("solve-limit").dispatchEvent(new Event("change"));
  });
  $("analysis-limit").addEventListener("change", () => reviewSettingChanged("time limit"));
  $("analysis-start").addEventListener("change", () => reviewSettingChanged("start"));
  $("view-seat").addEventListener("change", (e) => changeView(e.target.value));
  $("advice-samples").addEventListener("change", () => adviseCurrent());
  $("analyse").addEventListener("click", () => runAnalysis());
  $("analysis-stop").addEventListener("click", stopAnalysis);
  $("keep-going").addEventListener("click", keepGoing);
  $("deal-select").addEventListener("change", (e) => {
    notice("");
    $("input-error").hidden = true;
    if (editorOpen()) closeEditor();
    loadDeal(Number(e.target.value));
  });
  $("open-editor").addEventListener("click", () => (editorOpen() ? closeEditor() : openEditor(null)));
  $("record-undo").addEventListener("click", undoCard);
  $("play-open").addEventListener("click", () => { openShare(false); openImage(false); openPlayPanel($("play-panel").hidden); });
  $("play-start").addEventListener("click", startPlaying);
  $("play-stop").addEventListener("click", stopPlaying);
  $("play-hint").addEventListener("click", hint);
  $("play-review").addEventListener("click", reviewGame);
  $("record-done").addEventListener("click", stopRecording);
  wireEditor();
  $("toggle-input").addEventListener("click", () => openInput($("input-panel").hidden));
  $("share").addEventListener("click", () => { openImage(false); openPlayPanel(false); openShare($("share-panel").hidden); });
  $("copy-share").addEventListener("click", copyShare);
  $("save-image").addEventListener("click", () => { openShare(false); openPlayPanel(false); openImage($("image-panel").hidden); });
  $("save-svg").addEventListener("click", () => saveImage("svg"));
  $("save-png").addEventListener("click", () => saveImage("png"));
  $("load-paste").addEventListener("click", () => {
    const text = $("paste").value.trim();
    if (!text) { showDealError("Paste a position first (one JSON object)."); return; }
    loadText(text, "pasted");
  });
  $("file-input").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await file.text(), file.name);
  });
  // a list chosen with the mouse gives the keys back to the play; one browsed with the keys
  // keeps ↑ ↓, but ← → always step the cards
  let keyed = 0;
  for (const sel of document.querySelectorAll("select")) {
    sel.addEventListener("keydown", () => { keyed = performance.now(); });
    sel.addEventListener("change", () => { if (performance.now() - keyed > 400) sel.blur(); });
  }
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "textarea" || (tag === "input" && e.target.type !== "range")) return;
    if (editorOpen()) return;                         // the editor's keys are its own
    if (tag === "select" && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const keys = {
      ArrowLeft: () => (e.shiftKey ? stepTrick(-1) : stepCard(-1)),
      ArrowRight: () => (e.shiftKey ? stepTrick(1) : stepCard(1)),
      ArrowUp: () => stepTrick(-1), ArrowDown: () => stepTrick(1),
      PageUp: () => stepTrick(-1), PageDown: () => stepTrick(1),
      Home: () => go(0), End: () => go(state.line.length),
    };
    if (keys[e.key] && state.deal) { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("hashchange", followLink);
  watchChartWidth();
}

listen();
wire();
start().then(reopenEditor);
