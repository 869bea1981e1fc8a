// Stepping's view: the slider, where the table stands ("After card 12 of 72 · trick 4 of 18"),
// the what-if banner and the step buttons (▶ past the end of the line plays a best card once
// one is proven).  It reads the state; stepping.js changes it.
import { state, $, el, plural, cardNo } from "./state.js";
import { tokenEl } from "./cards.js";
import { bestCard } from "./position.js";

export function drawSlider() {
  $("slider").max = String(state.line.length);
  $("slider").value = String(state.cursor);
}

// the table drawn for card k: where it stands, the what-if line, the buttons
export function drawPlace(k) {
  $("table").dataset.shown = k;
  $("where").textContent = describeWhere();
  drawWhatIf();
  refreshButtons();
}

// where the table stands, card numbers counted from 1 as everywhere on the page
function describeWhere() {
  const t = state.table;
  const k = state.cursor;
  const total = state.line.length;
  if (t.outcome) return "All " + plural(total, "card") + " played";
  const trick = "trick " + (t.tricks.length + 1) + " of " + t.tricks_in_deal;
  if (k === 0) return "No card played yet · " + trick;
  const of = k < total ? " of " + total : "";
  return "After card " + cardNo(k - 1) + of + " · " + trick;
}

// the step buttons: ▶ past the end of the line plays a best card once one is proven
export function refreshButtons() {
  const k = state.cursor;
  const atEnd = k >= state.line.length;
  $("card-back").disabled = $("to-start").disabled = $("trick-back").disabled = k === 0;
  $("to-end").disabled = $("trick-next").disabled = atEnd;
  const next = $("card-next");
  const best = atEnd ? bestCard() : null;
  next.disabled = atEnd && !best;
  next.title = atEnd ? (best ? "Play a best card (→)" : state.table && state.table.outcome ? "The deal is over"
                                : "Plays a best card once the search has proven one (→)")
                     : "Forward one card (→)";
  const note = $("whatif-next");
  if (note) note.hidden = !best;
}

function drawWhatIf() {
  const banner = $("whatif");
  banner.hidden = state.whatIfFrom === null;
  if (state.whatIfFrom === null) return;
  const text = $("whatif-text");
  const from = state.whatIfFrom;
  const really = state.real[from];
  text.replaceChildren("What-if: from card " + cardNo(from) + " on, this is not the real play");
  // the card really played there, unless the view seat cannot have seen it yet
  const seen = really && (state.viewSeat === null || state.deal.hands[state.viewSeat].includes(really));
  if (seen) text.append(" (really played there: ", tokenEl(really), ").");
  else text.append(".");
  const next = el("span", null, " ▶ plays a best card.");
  next.id = "whatif-next";
  text.append(next);
}
