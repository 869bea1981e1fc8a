// The review's view: the status line (the offer of a review, its progress, what it found),
// the seats' costs, the list of mistakes, the chart of the value after every card.  It reads
// the state and never changes it; a card picked in the list or on the chart, and the offer's
// button, are events for the controller (review.js).
import { state, $, el, svg, plural, keyOf, cardNo, seatsOf } from "./state.js";
import { tokenEl, tokensEl, cardText, valueText } from "./cards.js";
import { hasContract, madeWord, madeSentence } from "./position.js";
import { emit } from "./events.js";

// Each card's verdict is the analysis' own (p.verdict: {kind, low, high}, atout/verdict.py),
// read here, not worked out again, and written as the type writes itself (Verdict.mark with
// its range, as the terminal's table): "12" a mistake costing 12, "≥12" one of at least 12
// (proven), "0…30" not judged (its cost's range).
// what a card of the analysis is proven to have cost: exact, else its range's low end
export const provenCost = (p) => p.verdict.low;
const costText = (p) => {
  const v = p.verdict;
  if (v.low === v.high) return String(v.low);
  return v.low > 0 ? "≥" + v.low : v.low + "…" + v.high;
};
// (neither: a review stopped or ended after its start, before the first verdict came)
const valueOrRange = (v, bounds) => (v !== null && v !== undefined ? valueText(v)
  : bounds ? valueText(bounds[0]) + " … " + valueText(bounds[1]) : "not known yet");

// A card's verdict as the page's classes name it: "best", "mistake", "decisive" (it turned
// a made contract into a lost one or back), or "open" (not judged in the time).
export function verdictOf(p) {
  return p.verdict.kind === "not_judged" ? "open" : p.verdict.kind;
}

export function fillStartOptions() {
  const sel = $("analysis-start");
  sel.replaceChildren();
  const n = state.deal.hands.length;
  const tricks = state.deal.hands[0].length;
  for (let i = 0; i < tricks; i++) {
    const o = el("option", null, i === 0 ? "trick 1 (the whole deal)" : "trick " + (i + 1) + " (last " + (tricks - i) + ")");
    o.value = String(i * n);
    sel.append(o);
  }
  sel.value = "0";    // the whole deal: within its time limit every card gets a verdict
}

// the cards of the analysis with a verdict a player can act on: exact, or a proven mistake
const judged = (a) => a.plays.filter((p) => verdictOf(p) !== "open").length;

export function drawProgress(a, running) {
  const bar = $("analysis-progress");
  bar.hidden = !a || !a.plays.length;
  if (bar.hidden) return;
  const n = judged(a);
  bar.querySelector(".judged").style.width = (100 * n / a.plays.length).toFixed(1) + "%";
  bar.title = n + " of " + a.plays.length + " cards judged";
  bar.setAttribute("aria-valuenow", String(n));
  bar.setAttribute("aria-valuemax", String(a.plays.length));
  bar.classList.toggle("running", running);
}

export function showControls(running) {
  $("analysis-stop").hidden = !running;
  const a = state.analysis;
  $("keep-going").hidden = running || !a || a.status !== "limit" || !state.analysisSession;
}

function worstOf(a) {
  return a.plays.reduce((w, p) => (provenCost(p) > (w ? provenCost(w) : 0) ? p : w), null);
}

export function drawAnalysis() {
  const a = state.analysis;
  const t = state.table;
  const costs = $("seat-costs");
  costs.replaceChildren();
  $("mistakes").replaceChildren();
  if (!a || state.viewSeat !== null) { $("chart").replaceChildren(); return; }
  const head = el("tr");
  for (const h of ["seat", "role", "cards", "mistakes", "total cost"]) head.append(el("th", null, h));
  costs.append(head);
  for (const s of a.seats) {
    const tr = el("tr");
    tr.dataset.seat = s.seat;
    // what a seat is proven to have given away (never a sum of upper bounds)
    const low = s.cost !== null ? s.cost : s.at_least;
    tr.append(el("td", null, "Seat " + s.seat), el("td", null, t ? t.roles[s.seat] : ""),
              el("td", null, String(s.cards)), el("td", "mistakes-n", String(s.mistakes)),
              el("td", "cost" + (low > 0 ? " lost" : ""),
                 s.cost !== null ? String(s.cost) : "at least " + s.at_least + " (" + s.not_judged + " not judged)"));
    costs.append(tr);
  }
  const last = a.plays[a.plays.length - 1];
  const summary = el("caption", null, (a.start === 0 ? "Value at the start" : "Value before card " + cardNo(a.start)) + ": " +
    valueOrRange(a.start_value, a.start_bounds) +
    (a.start_value === null && hasContract() ? " (" + madeWord(a.made) + ")" : "") +
    (a.outcome ? " · result: " + valueText(a.outcome.value) : (last ? " · after card " + cardNo(last.index) + ": " + valueOrRange(last.value_after, last.bounds_after) : "")));
  costs.prepend(summary);
  if (a.plays.some((p) => p.cost === null)) {
    costs.append(el("caption", "note", "mistakes: the cards proven to have cost something; a range: what is proven of the cost"));
  }
  const worst = worstOf(a);
  for (const p of a.plays) drawVerdict(p, worst);
  const mistakes = $("mistakes");
  if (!mistakes.children.length && a.plays.length) {
    const exact = a.plays.filter((p) => p.cost !== null).length;
    mistakes.append(el("li", "none", exact === a.plays.length ? "No mistake: every card analysed was a best card."
      : exact ? "No mistake proven: the " + plural(exact, "card") + " solved exactly were best cards."
              : "No mistake proven in the time."));
  }
  drawChart();
}

// One card's verdict in the list of mistakes (a proven mistake or a decisive card; a best
// card or one not judged has no entry), at its place in the play.
export function drawVerdict(p, worst) {
  const list = $("mistakes");
  const old = list.querySelector(`li.mistake[data-index="${p.index}"]`);
  const verdict = verdictOf(p);
  if (verdict === "best" || verdict === "open") { if (old) old.remove(); return; }
  const t = state.table;
  const li = el("li", "mistake" + (p === worst ? " worst" : "") + (verdict === "decisive" ? " decisive" : ""));
  li.dataset.index = p.index;
  li.dataset.verdict = verdict;
  li.append(el("span", "where", "card " + cardNo(p.index) + ", trick " + (Math.floor(p.index / seatsOf()) + 1) +
                                ": seat " + p.seat + " (" + (t ? t.roles[p.seat] : "") + ")"),
            document.createTextNode(" played "), tokenEl(p.card),
            document.createTextNode(" costing "), el("strong", "cost", costText(p)),
            document.createTextNode(" — best: "), p.best ? tokensEl(p.best) : el("span", "open", "not found in the time"));
  if (verdict === "decisive") li.append(el("span", "decisive-note", " — decisive: " + (p.made_before ? "made before it, down after it" : "down before it, made after it")));
  li.title = "show the position before this card";
  li.tabIndex = 0;
  li.addEventListener("click", () => pick(p.index));
  li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") pick(p.index); });
  if (old) { old.replaceWith(li); return; }
  const after = [...list.querySelectorAll("li.mistake")].find((x) => Number(x.dataset.index) > p.index);
  list.insertBefore(li, after || null);
}

// -- the chart -----------------------------------------------------------------------------

// a round step (1, 2 or 5 × a power of ten) giving about `count` ticks over `span`
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

// the value's range on the chart: the deciding line always in it, and never less than the
// game's least span, so that a step's height is what it is worth (see view.chart_scale)
function chartRange(values, scale) {
  if (scale.fixed) return { lo: scale.fixed[0] - 0.2, hi: scale.fixed[1] + 0.2, ticks: scale.fixed.slice() };
  const all = scale.line === null ? values : values.concat([scale.line]);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (hi - lo < scale.min_span) {
    const grow = (scale.min_span - (hi - lo)) / 2;
    lo -= grow; hi += grow;
  }
  if (hi === lo) { lo -= 1; hi += 1; }
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v));
  return { lo, hi, ticks };
}

export function drawChart() {
  const a = state.analysis;
  const box = $("chart");
  box.replaceChildren();
  box._x = null;
  if (!a || !a.plays.length || !state.table || state.viewSeat !== null) return;
  const scale = state.table.scale;
  // each value exact, or (value null) the proven bounds: drawn as a band
  // (the start's value is not known until the first verdict: no point for it before)
  const points = (a.start_value !== null || a.start_bounds ? [{ index: a.start, value: a.start_value, bounds: a.start_bounds, play: null }] : [])
    .concat(a.plays.map((p) => ({ index: p.index + 1, value: p.value_after, bounds: p.bounds_after, play: p })));
  const total = state.analysisLine.length;
  // drawn in the box's own pixels, so that its text keeps its size on a phone
  const W = Math.max(280, Math.round(box.clientWidth || 900));
  const narrow = W < 560;
  const H = narrow ? 230 : 220, L = narrow ? 40 : 52, R = 10, T = 22, B = 38;
  const { lo, hi, ticks } = chartRange(points.flatMap((p) => (p.value !== null ? [p.value] : p.bounds)), scale);
  const x = (i) => L + (W - L - R) * (i - a.start) / Math.max(1, total - a.start);
  const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
  const s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img",
                         "aria-label": "double-dummy value after every card", "data-lo": lo, "data-hi": hi });
  s.append(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" }));
  for (const v of ticks) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    s.append(svg("text", { x: L - 5, y: y(v) + 4, class: "axis tick", "text-anchor": "end" }, valueText(v)));
  }
  const n = seatsOf();
  const every = narrow ? 3 : 2;                  // label every other trick (every third on a phone)
  for (let i = a.start - (a.start % n); i <= total; i += n) {
    if (i < a.start) continue;
    s.append(svg("line", { x1: x(i), x2: x(i), y1: T, y2: H - B, class: "trick-line" }));
    if ((i / n) % every === 0 && i < total) s.append(svg("text", { x: x(i) + 2, y: H - B + 14, class: "axis" }, "trick " + (i / n + 1)));
  }
  // the value as a step line through the exact values; a bounded value is a band from its
  // low to its high bound, over the card's step (the line breaks there)
  let path = "";
  points.forEach((p, i) => {
    const next = i + 1 < points.length ? x(points[i + 1].index) : x(p.index);
    if (p.value === null) {
      const [b0, b1] = p.bounds;
      const band = svg("rect", { x: x(p.index), y: y(b1), width: Math.max(2, next - x(p.index)), height: Math.max(2, y(b0) - y(b1)),
                                 class: "band", "data-index": p.index });
      band.append(svg("title", {}, (p.play ? "after card " + cardNo(p.play.index) + " (seat " + p.play.seat + " " + cardText(p.play.card) + ")" : "at the start") +
        ": between " + valueText(b0) + " and " + valueText(b1) + (hasContract() ? " — " + madeWord(p.play ? p.play.made_after : a.made) : "")));
      band.addEventListener("click", () => pick(p.play ? p.play.index : a.start));
      s.append(band);
      return;
    }
    path += (path && points[i - 1].value !== null ? " V" : " M" + x(p.index) + " ") + y(p.value) + " H" + next;
  });
  s.append(svg("path", { d: path.trim(), class: "value-line" }));
  // the line where the deal is decided, drawn over the grid and the value, its name on a
  // plate of the chart's colour so that no line crosses it
  if (scale.line !== null) {
    const ly = y(scale.line);
    s.append(svg("line", { x1: L, x2: W - R, y1: ly, y2: ly, class: "decide", "data-value": scale.line }));
    chartLabel(s, W - R - 4, ly - T < 16 ? ly + 14 : ly - 5, scale.line_label);
  } else if (scale.fixed) {
    chartLabel(s, W - R - 4, (y(scale.fixed[0]) + y(scale.fixed[1])) / 2 + 4, scale.line_label);
  }
  const worst = worstOf(a);
  const small = state.table.small_loss;
  const level = (play) => (!play ? "start" : provenCost(play) === 0 ? "optimal" : provenCost(play) <= small ? "small" : "big");
  for (const p of points) {
    if (p.value === null) continue;
    const play = p.play;
    const dot = svg("circle", { cx: x(p.index), cy: y(p.value), r: play && provenCost(play) ? 5 : 3, class: "dot " + level(play) });
    const label = play ? "card " + cardNo(play.index) + ": seat " + play.seat + " played " + cardText(play.card) + " → " + valueText(play.value_after) + (provenCost(play) ? " (cost " + costText(play) + ")" : "") : "start: " + valueText(p.value);
    dot.append(svg("title", {}, label));
    dot.addEventListener("click", () => pick(play ? play.index : a.start));
    s.append(dot);
  }
  // where a card is: at its dot, or the middle of its band
  const yOf = (p) => (p.value_after !== null ? y(p.value_after) : (y(p.bounds_after[0]) + y(p.bounds_after[1])) / 2);
  // decisive cards: a diamond on the line where the deal is decided, and named in the title
  const lineY = scale.line !== null ? y(scale.line) : scale.fixed ? (y(scale.fixed[0]) + y(scale.fixed[1])) / 2 : null;
  for (const p of a.plays.filter((p) => verdictOf(p) === "decisive" && lineY !== null)) {
    const cx = x(p.index + 1);
    const mark = svg("polygon", { points: [cx, lineY - 7, cx + 7, lineY, cx, lineY + 7, cx - 7, lineY].join(" "),
                                  class: "decisive", "data-index": p.index });
    mark.append(svg("title", {}, "decisive: card " + cardNo(p.index) + ", seat " + p.seat + " " + cardText(p.card) + " — " +
      (p.made_before ? "made before it, down after it" : "down before it, made after it")));
    mark.addEventListener("click", () => pick(p.index));
    s.append(mark);
  }
  if (worst) s.append(svg("circle", { cx: x(worst.index + 1), cy: yOf(worst), r: 9, class: "worst-ring " + level(worst) }));
  // which way is good for whom, above and below the plot
  s.append(svg("text", { x: 4, y: 14, class: "axis way up" }, "▲ better for " + scale.up));
  s.append(svg("text", { x: 4, y: H - 4, class: "axis way down" }, "▼ better for " + scale.down));
  s.append(svg("line", { id: "chart-cursor", x1: 0, x2: 0, y1: T, y2: H - B, class: "cursor" }));
  box.append(s);
  if (worst) {
    // the ringed card in words below the chart (where it never runs off a phone's screen);
    // red only when it is a big loss
    const note = el("div", "chart-note " + level(worst));
    note.append("◯ The costliest card: card " + cardNo(worst.index) + ", trick " + (Math.floor(worst.index / n) + 1) + ", seat " + worst.seat +
                " (" + state.table.roles[worst.seat] + ") played ", tokenEl(worst.card),
                worst.verdict.low === worst.verdict.high ? " (−" + worst.verdict.low + ")." : " (cost " + costText(worst) + ").");
    if (a.plays.some((p) => verdictOf(p) === "decisive")) note.append(" ◆ marks a decisive card.");
    box.append(note);
  }
  box._x = x;
  box._width = W;
  drawChartCursor();
}

// a label on the chart over a plate of the plot's colour (no grid line runs through it)
function chartLabel(s, x, y, text) {
  const t = svg("text", { x, y, class: "axis decide-label", "text-anchor": "end" }, text);
  const plate = svg("rect", { class: "label-plate", x: x - 7 * text.length - 4, y: y - 11, width: 7 * text.length + 8, height: 15, rx: 3 });
  s.append(plate, t);
  // once drawn, the plate takes the text's own width
  requestAnimationFrame(() => {
    try {
      const b = t.getBBox();
      plate.setAttribute("x", b.x - 3); plate.setAttribute("width", b.width + 6);
      plate.setAttribute("y", b.y - 1); plate.setAttribute("height", b.height + 2);
    } catch (e) { /* not drawn (hidden): the estimate stays */ }
  });
}

export function drawChartCursor() {
  const c = document.getElementById("chart-cursor");
  const box = $("chart");
  if (!c || !box._x || !state.analysis) return;
  const on = state.analysisLine && keyOf(state.analysisLine.slice(0, state.cursor)) === keyOf(state.line.slice(0, state.cursor)) && state.cursor >= state.analysis.start;
  c.setAttribute("visibility", on ? "visible" : "hidden");
  if (on) { const px = box._x(state.cursor); c.setAttribute("x1", px); c.setAttribute("x2", px); }
}

// the chart is drawn in its box's pixels: again when the box changes width
export function watchChartWidth() {
  new ResizeObserver(() => {
    const box = $("chart");
    if (state.analysis && box._width && Math.abs(box.clientWidth - box._width) > 8) drawChart();
  }).observe($("chart"));
}

// -- the status line ---------------------------------------------------------------------

// a card of the review picked (in the list, on the chart): the position before it shown, and
// the table brought into view (on a phone the list is far below it)
function pick(index) {
  emit("to-analysed", index);
  const board = document.querySelector(".board").getBoundingClientRect();
  if (board.top < 0 || board.top > window.innerHeight / 2) document.querySelector(".board").scrollIntoView({ block: "start" });
}

function statusLine(className) {
  const status = $("analysis-status");
  status.className = className;
  return status;
}

// the review kept in this tab for the line shown, drawn again as it was
export function drawKept(a) {
  $("analysis-start").value = String(a.start);
  drawAnalysis();
  drawProgress(a, false);
  showControls(false);
  const n = judged(a);
  statusLine("dd-status" + (a.status === "ok" ? "" : " limited")).textContent =
    "The review found before in this tab: " + n + " of " + plural(a.plays.length, "card") + " judged" +
    (a.status === "ok" ? "." : ". Press Analyse to review again.");
}

// what a review would search (cards from start), and the button that starts it
export function drawOffer(cards, start) {
  const what = state.whatIfFrom !== null ? "the what-if line" : "the play";
  const button = el("button", "review-start", "Review " + what);
  button.id = "review-start";
  button.type = "button";
  button.addEventListener("click", () => emit("review-asked"));
  statusLine("dd-status").replaceChildren(button, " judges each of its " + plural(cards, "card") +
    (start ? " from trick " + (start / seatsOf() + 1) : "") + ", searching for up to " +
    $("analysis-limit").value + " s on the server's cores. Not started yet.");
}

// nothing to review: why (cleared: the review drawn before is gone too)
export function drawNothing(why, cleared) {
  if (cleared) {
    drawAnalysis();
    drawProgress(null, false);
    showControls(false);
  }
  statusLine("dd-status").textContent = why;
}

export function drawNotReviewable() {
  statusLine("dd-status limited").textContent =
    "Not reviewed: the search cannot solve where this what-if line ends within its time limit, " +
    "so no card of the line could be judged. Step the line on (▶) or press Analyse to try anyway.";
}

export function drawSettingNote(setting) {
  $("analysis-limit-note").textContent = "The new " + setting + " is for the next review: press " +
    (state.analysing ? "Stop, then Analyse." : "Analyse" + (state.analysisSession ? " or Keep going." : "."));
}

// from one seat's view (hidden) the review is not shown: it names cards the seat cannot see
export function hideReview(hidden) {
  $("analysis-body").hidden = hidden;
  $("analysis-controls").hidden = hidden;
  const note = $("analysis-seat-note");
  note.hidden = !hidden;
  if (!hidden) return;
  note.textContent = "The review sees every hand, so it is not shown from seat " + state.viewSeat +
                     "'s view: choose “every hand open” to see it.";
  $("chart").replaceChildren();
  $("mistakes").replaceChildren();
  $("seat-costs").replaceChildren();
  $("analysis-status").textContent = "";
}

// another deal opened: nothing said of the last one's review
export function clearStatus() {
  $("analysis-status").textContent = "";
}

export function drawStarting() {
  $("analysis-limit-note").textContent = "";
  statusLine("dd-status");
}

// a review under way: how far it is (cards of the line from its start, seconds so far)
export function drawRunning(goingOn, cards, seconds, limit) {
  const a = state.analysis;
  $("analysis-status").replaceChildren(el("span", "spinner"), document.createTextNode(
    (goingOn ? " going on: " : " analysing " + plural(cards, "card") + ": ") +
    (a ? judged(a) + " of " + a.plays.length + " judged, " : "") + seconds.toFixed(1) + " s of at most " + limit + " s"));
}

// the review failed (drawn: the verdicts found before it did, kept)
export function drawFailed(message, drawn) {
  const a = state.analysis;
  statusLine("dd-status error").textContent = "The analysis failed: " + message +
    (drawn && a && a.plays.length ? " — the verdicts found are kept." : "");
  if (!drawn) return;
  drawAnalysis();
  drawProgress(a, false);
  showControls(false);
}

// the review answered, or was stopped: what was judged, and what was not
export function drawFinished(ms, limit, cached) {
  const a = state.analysis;
  finishStatus(a, ms, limit, cached);
  drawAnalysis();
  drawProgress(a, false);
  showControls(false);
}

function finishStatus(a, ms, limit, cached) {
  const statusEl = statusLine("dd-status");
  const what = keyOf(state.analysisLine) !== keyOf(state.real) ? "the what-if line" : "the real play";
  const seconds = (ms / 1000).toFixed(1);
  const from = cached ? " (the server's review of this deal, kept from before)" : "";
  if (a.status === "ok") {
    statusEl.textContent = "Analysed " + plural(a.plays.length, "card") + " of " + what + " in " + seconds + " s" + from + ".";
    return;
  }
  // every card has its verdict: exact where solved in time, a proven mistake, or not judged
  const n = judged(a);
  statusEl.className = "dd-status limited";
  statusEl.textContent = (n
    ? "Judged " + n + " of " + plural(a.plays.length, "card") + " of " + what + (a.stopped_by === "cancel" ? " before you stopped it" : " within " + limit + " s") +
      "; the others are not judged (their cost lies in a proven range, shaded on the chart)" + from
    : "Within " + limit + " s no card of " + what + " could be judged: the chart shows the ranges proven") +
    (hasContract() ? "; before card " + cardNo(a.start) + " " + madeSentence(a.made) : "") + "." +
    (state.analysisSession ? " “Keep going” goes on from here." : "");
}

export function drawStoppedEarly() {
  $("analysis-status").textContent = "Stopped before any verdict came.";
  drawProgress(null, false);
  showControls(false);
}
