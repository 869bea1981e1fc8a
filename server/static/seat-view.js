// One seat's view's panel: the view options, and the advice of /api/advise for the seat
// to play — each legal card's mean over the deals it cannot tell apart, the recommended
// cards.  It reads the state; seat.js asks the server.
import { state, $, el, plural } from "./state.js";
import { tokenEl, tokensEl, meanText } from "./cards.js";
import { solveLimit, recommendedCards, FEW_DEALS } from "./position.js";

// the view options of the deal shown: every hand open, or one seat's
export function drawViewOptions() {
  const sel = $("view-seat");
  sel.replaceChildren(el("option", null, "every hand open"));
  sel.firstChild.value = "";
  for (let s = 0; s < state.deal.hands.length; s++) {
    const o = el("option", null, "seat " + s + "'s view");
    o.value = String(s);
    sel.append(o);
  }
  sel.value = state.viewSeat === null ? "" : String(state.viewSeat);
}

// the panel shown for the view seat (hidden with every hand open)
export function drawAdvicePanel(seat) {
  $("advice-panel").hidden = seat === null;
  if (seat !== null) $("advice-title").textContent = "Seat " + seat + "'s view";
}

// no advice to ask for the position shown: why
export function drawNoAdvice(text) {
  const body = $("advice-cards");
  body.replaceChildren();
  body.dataset.played = "";
  const status = $("advice-status");
  status.className = "dd-status";
  status.textContent = text;
}

export function drawAdvising(job, samples, limit) {
  const body = $("advice-cards");
  body.replaceChildren();
  body.dataset.played = "";
  const status = $("advice-status");
  status.className = "dd-status";
  status.replaceChildren(el("span", "spinner"), document.createTextNode(
    " drawing and solving " + plural(samples, "deal") + "… " +
    ((performance.now() - job.started) / 1000).toFixed(1) + " s of at most " + limit + " s"));
}

export function drawAdviceFailed(message) {
  const status = $("advice-status");
  status.textContent = "The advice failed: " + message;
  status.className = "dd-status error";
}

export function showAdvice(a) {
  const status = $("advice-status");
  const body = $("advice-cards");
  status.className = "dd-status" + (a.status === "ok" ? "" : " limited");
  status.dataset.status = a.status;
  status.replaceChildren();
  const top = a.cards[0];
  const deals = typeof a.deals === "number" ? a.deals.toLocaleString("en") : String(a.deals);
  const stopped = a.status !== "ok";
  if (a.decided === "one card") {
    status.append(a.cards.length === 1 ? "One legal card: " :
                  "Its legal cards are worth the same in every deal it cannot tell apart: ",
                  tokensEl(a.best), ".");
  } else if (!a.solved) {
    status.append("No deal could be solved within the time limit: choose a longer search time limit below.");
  } else if (stopped && a.solved < FEW_DEALS) {
    status.append("Too few deals to recommend a card: only " + plural(a.solved, "deal") +
                  " solved before the time limit. Choose a longer search time limit below.");
  } else if (a.best.length >= a.cards.length) {
    status.append("Every card is as good as another over the " + plural(a.solved, "deal") + " drawn.");
  } else {
    status.append("Recommended: ", tokensEl(a.best), " — mean " + meanText(top.mean) +
                  (top.se !== null ? " ± " + top.se.toFixed(1) : "") + ", optimal in " +
                  Math.round(100 * top.optimal) + "% of " + plural(a.solved, "deal") + " drawn among " + deals + ".");
  }
  if (stopped) {
    const limit = a.time_limit !== undefined ? a.time_limit : solveLimit();
    const late = a.waited && a.waited > limit + 1 ? " (the answer came after " + a.waited.toFixed(1) + " s)" : "";
    status.append(el("div", "stopped", "Stopped at its time limit of " + limit + " s: " + a.solved + " of " +
                                       plural(a.samples, "deal") + " solved" + late + "."));
  }
  body.replaceChildren();
  const head = el("tr");
  const heads = [["card", ""], ["mean", "mean value over the deals drawn"], ["±", "its standard error"],
                 ["best", "share of the deals where the card is double-dummy optimal"],
                 ["made", "share of the deals where the contract is made after it"]];
  for (const [h, title] of heads) { const th = el("th", null, h); th.title = title; head.append(th); }
  body.append(head);
  const recommended = recommendedCards(a);
  for (const row of a.cards) {
    const tr = el("tr", recommended.includes(row.card) ? "recommended" : "");
    tr.dataset.card = row.card;
    if (row.mean !== null) tr.dataset.mean = row.mean;
    tr.append(el("td", null), el("td", null, row.mean === null ? "" : meanText(row.mean)),
              el("td", null, row.se === null || row.se === undefined ? "" : row.se.toFixed(1)),
              el("td", null, row.optimal === null ? "" : Math.round(100 * row.optimal) + "%"),
              el("td", null, row.made === null || row.made === undefined ? "" : Math.round(100 * row.made) + "%"));
    tr.firstChild.append(tokenEl(row.card));
    body.append(tr);
  }
  body.dataset.played = state.cursor;
}
