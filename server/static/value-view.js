// The value panel's view: the double-dummy value of the position shown (exact, or the
// bounds a search stopped by its time limit proved, and whether the contract is made), its
// best cards and one best line; hidden from one seat's view.  It reads the state; value.js
// asks the server.
import { state, $, el } from "./state.js";
import { tokensEl, valueText } from "./cards.js";
import { hasContract, madeKey, madeWord, madeSentence } from "./position.js";

// nothing shown belongs to another position, even for a moment
export function clearValue() {
  const box = $("dd-value");
  box.dataset.value = box.dataset.low = box.dataset.high = box.dataset.played = "";
  barValue("");
}

// the value again next to the step buttons, where a phone keeps them in view
function barValue(text) {
  $("bar-value").textContent = text ? "value " + text : "";
}

// from one seat's view the panel is hidden, and nothing of the open view stays in the page,
// not even hidden: it names hidden cards
export function drawSeatView(hidden) {
  $("dd-panel").hidden = hidden;
  if (!hidden) return;
  $("dd-value").replaceChildren();
  $("dd-status").replaceChildren();
}

export function drawFailed(message) {
  $("dd-status").textContent = "The search failed: " + message;
  $("dd-status").className = "dd-status error";
}

export function showSearching(job, limit) {
  const seconds = (performance.now() - job.started) / 1000;
  $("dd-value").replaceChildren(el("span", "spinner"), el("span", "searching", "searching…"));
  $("dd-value").dataset.value = "";
  barValue("…");
  $("dd-status").className = "dd-status";
  $("dd-status").textContent = seconds.toFixed(1) + " s of at most " + limit + " s — you can go on stepping.";
}

export function showFinished(t) {
  $("dd-value").replaceChildren(el("span", "big-number", valueText(t.outcome.value)));
  $("dd-value").dataset.value = t.outcome.value;
  barValue(valueText(t.outcome.value));
  $("dd-value").dataset.played = state.cursor;
  $("dd-status").className = "dd-status";
  $("dd-status").textContent = "The deal is over: its outcome's value.";
}

export function showSolve(s) {
  const box = $("dd-value");
  box.dataset.played = state.cursor;
  const status = $("dd-status");
  status.className = "dd-status";
  if (s.status === "ok") {
    box.replaceChildren(el("span", "big-number", valueText(s.value)));
    box.dataset.value = s.value;
    box.dataset.low = box.dataset.high = "";
    box.dataset.made = madeKey(s.made);
    barValue(valueText(s.value));
    status.textContent = "Exact, solved in " + s.seconds.toFixed(2) + " s (" + s.nodes.toLocaleString("en") + " nodes).";
    if (s.best && s.best.length && state.table && state.table.to_play !== null) {
      status.append(" Best for seat " + state.table.to_play + ": ", tokensEl(s.best), ".");
    }
    if (s.line && s.line.length) {
      const line = el("div", "line", "One best line: ");
      line.append(tokensEl(s.line.slice(0, 12)), s.line.length > 12 ? " …" : "");
      status.append(line);
    }
  } else {
    const [lo, hi] = s.bounds;
    const range = lo === hi ? valueText(lo) : valueText(lo) + " … " + valueText(hi);
    box.replaceChildren(el("span", "big-number bounds", range));
    box.dataset.value = "";
    box.dataset.low = lo;
    box.dataset.high = hi;
    barValue(range);
    status.classList.add("limited");
    const limit = s.time_limit ? "its " + s.time_limit + " s" : "its";
    box.dataset.made = madeKey(s.made);
    if (hasContract()) box.append(el("span", "made-word " + madeKey(s.made), madeWord(s.made)));
    status.textContent = "Not solved: the search stopped at " + limit + " limit. Proven so far: the value is at least " +
      valueText(lo) + " and at most " + valueText(hi) + (hasContract() ? "; " + madeSentence(s.made) : "") +
      ". No card values yet — raise the time limit, or step on to a smaller position.";
  }
}
