// atout hand viewer: draws what the server's rules engine says (/api/table) and the
// double-dummy values of the search (/api/solve, /api/analyze), and from one seat's view
// the advice of /api/advise.  No number is computed here except a card's cost, the
// difference between its value and the best card's.  One module per job, no build step:
//
//   state.js     the page's state and small helpers      api.js      the server's API
//   cards.js     cards as a player writes them            table.js    the table and side panels
//   stepping.js  stepping, what-if lines                  address.js  the address, share links
//   link.js      a deal in a link (atout/link.py)         value.js    the double-dummy value
//   review.js    the review of the play and its chart     seat.js     one seat's view, advice
//   deals.js     the deals offered, files, pasting        picture.js  "Save image"
//   contract-table.js  who could have made what: the deal's contract table
import { state, $ } from "./state.js";
import { go, stepCard, stepTrick, backToReal, update } from "./stepping.js";
import { setViewSeat, adviseCurrent } from "./seat.js";
import { keepGoing, runAnalysis, reviewSettingChanged, stopAnalysis, watchChartWidth } from "./review.js";
import { start, followLink, loadDeal, loadText, notice, openInput, showDealError } from "./deals.js";
import { openShare, copyShare } from "./address.js";
import { openImage, saveImage } from "./picture.js";
import { runContractTable, stopContractTable } from "./contract-table.js";

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
  $("view-seat").addEventListener("change", (e) => setViewSeat(e.target.value));
  $("advice-samples").addEventListener("change", () => adviseCurrent());
  $("analyse").addEventListener("click", () => runAnalysis());
  $("analysis-stop").addEventListener("click", stopAnalysis);
  $("keep-going").addEventListener("click", keepGoing);
  $("deal-select").addEventListener("change", (e) => { notice(""); $("input-error").hidden = true; loadDeal(Number(e.target.value)); });
  $("toggle-input").addEventListener("click", () => openInput($("input-panel").hidden));
  $("share").addEventListener("click", () => { openImage(false); openShare($("share-panel").hidden); });
  $("copy-share").addEventListener("click", copyShare);
  $("save-image").addEventListener("click", () => { openShare(false); openImage($("image-panel").hidden); });
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

wire();
start();
