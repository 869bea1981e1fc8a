// The table: the seats round the trick in the game's direction of play, their hands
// (face down from another seat's view), the trick, the result at the end, and beside it
// the tricks played so far, the points won and the cards outside the hands.  Everything
// drawn comes from /api/view (atout/present/view.py): the rules are the server's.
import { state, $, el, plural } from "./state.js";
import { cardEl, cardName, tokenEl, valueText, signed, meanText, isSigned } from "./cards.js";
import { currentSolve, currentAdvice, recommendedCards } from "./position.js";
import { emit } from "./events.js";
import { gameOf } from "./games.js";

// where each seat sits, seat 0 at the bottom, when the play goes clockwise (the next seat on
// the player's left); an anticlockwise game (the next seat on the right) mirrors it
const PLACES = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
};
const MIRROR = { left: "right", right: "left", topleft: "topright", topright: "topleft" };

export function placeOf(t, seat) {
  const p = PLACES[t.seats][seat];
  return t.turn === "anticlockwise" ? MIRROR[p] || p : p;
}

export function gameName(game) {
  const facts = gameOf(game);
  return facts ? facts.words.name : game;
}

// the server sorts a hand as a player does; groups: trumps (and the Excuse), then each suit
function groupHand(cards) {
  const groups = [];
  let current = null;
  for (const t of cards) {
    const group = t === "EX" || t[0] === "T" ? "T" : t.slice(-1);
    if (!current || current.group !== group) { current = { group, cards: [] }; groups.push(current); }
    current.cards.push(t);
  }
  return groups;
}

export function campClass(seat) {
  const t = state.table;
  // Trischaken: every seat but the one analysed plays for itself
  if (t.roles[seat] !== "analysed seat" && t.roles.includes("analysed seat")) return "x";
  if (t.camps[seat] === null) return "x";      // from a seat that does not know the partner yet
  return t.camps[seat] === 0 ? "a" : "b";
}

// what the table on the page was drawn for: values that come later are put on its cards as
// they stand (drawValues) rather than by drawing it anew
let drawn = null;

function drawnFor() {
  return { table: state.table, viewSeat: state.viewSeat, cursor: state.cursor, next: state.line[state.cursor] };
}

// a position's value or advice came: its badges on the lit cards, the cards themselves left
// in place — a card drawn anew between a finger's press and its release is no click, and a
// player clicking while the value comes lost the card so on a slow machine
export function drawValues() {
  const now = drawnFor();
  if (!drawn || Object.keys(now).some((k) => now[k] !== drawn[k])) { drawTable(); return; }
  const t = state.table;
  for (const wrap of $("table").querySelectorAll(".seat.to-play .legal-slot")) {
    const card = wrap.querySelector(".card.legal");
    for (const badge of wrap.querySelectorAll(".badge, .advice-badge")) badge.remove();
    card.classList.remove("optimal", "small", "big", "recommended");
    for (const key of ["value", "cost", "adviceMean"]) delete card.dataset[key];
    if (state.viewSeat === null) valueBadge(wrap, card, card.dataset.card, t.to_play);
    else if (state.viewSeat === t.to_play) adviceBadge(wrap, card, card.dataset.card, t.to_play);
  }
}

export function drawTable() {
  const t = state.table;
  const box = $("table");
  drawn = drawnFor();
  // a lit card with the keyboard's focus keeps it when the table is drawn anew (its values
  // came): the player's Enter still plays it
  const active = document.activeElement;
  const focused = active && box.contains(active) && active.dataset ? active.dataset.card : null;
  box.replaceChildren();
  box.className = "table seats-" + t.seats + " " + t.turn;
  box.title = "play goes " + t.turn;
  $("contract").replaceChildren(el("strong", null, gameName(t.game)), document.createTextNode(" · " + t.contract),
                                el("span", "turning", t.turn === "anticlockwise" ? " · play goes anticlockwise ↺" : " · play goes clockwise ↻"));
  for (let s = 0; s < t.seats; s++) box.append(seatEl(t, s));
  box.append(drawCentre(t));
  drawWon(t);
  drawOutside(t);
  drawTricks(t);
  const again = focused ? box.querySelector('.card.legal[data-card="' + focused + '"]') : null;
  if (again) again.focus();
  $("dd-meaning").textContent = "Value: " + t.value_meaning + ".";
  $("legend-small").textContent = t.small_loss > 0 ? "small: a cost of at most " + t.small_loss : "here every loss is big";
}

function seatEl(t, s) {
  const seat = el("div", "seat place-" + placeOf(t, s) + " camp-" + campClass(s));
  seat.dataset.seat = s;
  if (t.to_play === s) seat.classList.add("to-play");
  if (state.viewSeat === s) seat.classList.add("view-seat");
  const head = el("div", "seat-head");
  head.append(el("span", "seat-name", "Seat " + s), el("span", "role", t.roles[s]));
  if (state.viewSeat === s) head.append(el("span", "you", "your view"));
  if (t.to_play === s) head.append(el("span", "turn", "to play"));
  seat.append(head);
  const hand = el("div", "hand");
  for (const group of groupHand(t.hands[s])) {
    const g = el("div", "suit-group");
    for (const token of group.cards) g.append(handCard(token, s));
    hand.append(g);
  }
  const hidden = t.hidden ? t.hidden[s] : 0;
  if (hidden) {
    // another seat's hand, seen from the view seat: face down
    const g = el("div", "suit-group backs");
    g.dataset.hidden = hidden;
    for (let i = 0; i < hidden; i++) g.append(el("span", "card back"));
    g.append(el("span", "meaning", plural(hidden, "card") + " unseen"));
    hand.append(g);
  } else if (!t.hands[s].length) hand.append(el("span", "empty", "no cards left"));
  seat.append(hand);
  return seat;
}

function handCard(token, seat) {
  const t = state.table;
  const wrap = el("span", "slot");
  const card = cardEl(token);
  wrap.append(card);
  if (t.to_play !== seat) return wrap;
  if (!t.legal.includes(token)) { card.classList.add("not-legal"); return wrap; }
  // the whole slot (the card and its value under it) is what a finger taps
  wrap.classList.add("legal-slot");
  card.classList.add("legal");
  card.tabIndex = 0;
  card.setAttribute("role", "button");
  card.setAttribute("aria-label", "play " + cardName(token));
  wrap.addEventListener("click", () => emit("play", token));
  card.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); emit("play", token); } });
  if (state.line[state.cursor] === token) card.classList.add("next-played");
  if (state.viewSeat === null) valueBadge(wrap, card, token, seat);
  else if (state.viewSeat === seat) adviceBadge(wrap, card, token, seat);
  return wrap;
}

// the double-dummy value of a legal card and its cost against the best card
function valueBadge(wrap, card, token, seat) {
  const t = state.table;
  const solved = currentSolve();
  if (solved && solved.cards && token in solved.cards) {
    const v = solved.cards[token];
    const maximizing = t.camps[seat] === t.maximizing_camp;
    const cost = maximizing ? solved.value - v : v - solved.value;
    const level = cost === 0 ? "optimal" : (cost <= t.small_loss ? "small" : "big");
    card.classList.add(level);
    card.dataset.value = v;
    card.dataset.cost = cost;
    const badge = el("span", "badge " + level);
    badge.append(el("span", "v", valueText(v)), el("span", "c", cost === 0 ? "✓ best" : "−" + cost));
    badge.title = cost === 0 ? "an optimal card: value " + valueText(v)
                             : "value " + valueText(v) + ": costs " + cost + " against the best card";
    wrap.append(badge);
  } else if (solved && solved.best && solved.best.includes(token)) {
    card.classList.add("optimal");
  }
}

// from the view seat: the card's mean over the deals it cannot tell apart
function adviceBadge(wrap, card, token, seat) {
  const advice = currentAdvice();
  if (!advice) return;
  const row = advice.cards.find((c) => c.card === token);
  if (!row || row.mean === null) return;
  const rec = recommendedCards(advice).includes(token);
  const a = el("span", "advice-badge" + (rec ? " recommended" : ""));
  // on the badge a mean of ten or more is rounded to a whole number (the table has the decimal)
  const whole = Math.round(row.mean);
  const mean = Math.abs(row.mean) >= 10 ? (isSigned() && whole > 0 ? "+" : "") + whole : meanText(row.mean);
  a.append(el("span", "v", "≈" + mean), el("span", "c", Math.round(100 * row.optimal) + "%"));
  a.dataset.mean = row.mean;
  a.title = "seen from seat " + seat + ": mean value " + meanText(row.mean) + " over " + plural(advice.solved, "deal") +
            " drawn, optimal in " + Math.round(100 * row.optimal) + "% of them" + (rec ? " — recommended" : "");
  card.dataset.adviceMean = row.mean;
  if (rec) card.classList.add("recommended");
  wrap.append(a);
}

function drawCentre(t) {
  const centre = el("div", "centre");
  const trickNo = Math.min(t.tricks.length + 1, t.tricks_in_deal);
  if (t.outcome) {
    centre.append(el("div", "trick-title", "The deal is over"));
    centre.append(outcomeEl(t));
  } else {
    const title = t.trick.length
      ? "Trick " + trickNo + " of " + t.tricks_in_deal + " · led by seat " + t.leader
      : "Trick " + trickNo + " of " + t.tricks_in_deal + " · seat " + t.leader + " leads";
    centre.append(el("div", "trick-title", title));
  }
  const shown = t.trick.length ? t.trick : (t.tricks.length ? t.tricks[t.tricks.length - 1].cards : []);
  const last = !t.trick.length && t.tricks.length;
  const row = el("div", "trick" + (last ? " last" : ""));
  for (const [seat, token] of shown) {
    const played = el("div", "played");
    if (last && t.tricks[t.tricks.length - 1].winner === seat) played.classList.add("winner");
    played.append(cardEl(token), el("span", "by", "seat " + seat));
    row.append(played);
  }
  if (shown.length && !t.outcome) centre.append(row);
  if (last && !t.outcome) centre.append(el("div", "trick-note", "last trick, won by seat " + t.tricks[t.tricks.length - 1].winner));
  return centre;
}

// the result as a player says it: who made or lost what and by how much, then every seat's score
function outcomeEl(t) {
  const r = t.result;
  const made = r.made === null ? "" : r.made ? " made" : " lost";
  const box = el("div", "outcome" + made);
  box.append(el("div", "headline", r.headline));
  for (const line of r.details) box.append(el("div", "detail", line));
  const rows = el("table", "scores");
  for (const row of r.seats) {
    const tr = el("tr");
    tr.dataset.seat = row.seat;
    tr.append(el("th", null, "Seat " + row.seat), el("td", "role-name", row.role));
    if (row.score !== undefined) tr.append(el("td", "score", signed(row.score)));
    else tr.append(el("td", "score", plural(row.points, "point") + ", " + plural(row.tricks, "trick")));
    rows.append(tr);
  }
  rows.prepend(el("caption", null, r.seats[0].score !== undefined ? "Each seat's score" : "Each seat's points"));
  box.append(rows);
  return box;
}

// the tricks played so far, one row each and one column per seat, as a score sheet: the
// leader's card marked ▸, the winner's ringed; a click shows the table after the trick
function drawTricks(t) {
  const sheet = $("tricks");
  sheet.replaceChildren();
  const all = t.tricks.slice();
  if (t.trick.length) all.push({ cards: t.trick, winner: null });
  if (!all.length) { sheet.append(el("caption", "empty", "No card played yet.")); return; }
  const head = el("tr");
  head.append(el("th", "no", "#"));
  for (let s = 0; s < t.seats; s++) head.append(el("th", null, "seat " + s));
  sheet.append(head);
  all.forEach((trick, i) => {
    const tr = el("tr", "trick-row" + (trick.winner === null ? " current" : ""));
    tr.dataset.trick = i + 1;
    tr.append(el("td", "no", String(i + 1)));
    const cells = [];
    for (let s = 0; s < t.seats; s++) { cells.push(el("td")); tr.append(cells[s]); }
    trick.cards.forEach(([seat, token], k) => {
      const cell = cells[seat];
      if (k === 0) cell.classList.add("lead");
      if (seat === trick.winner) cell.classList.add("won");
      cell.append(tokenEl(token, true));
    });
    if (trick.winner !== null) {
      const after = (i + 1) * t.seats;
      tr.tabIndex = 0;
      tr.title = "trick " + (i + 1) + ": led by seat " + trick.cards[0][0] + ", won by seat " + trick.winner + " — the table after it";
      tr.addEventListener("click", () => emit("go", after));
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") emit("go", after); });
    }
    sheet.append(tr);
  });
  const box = sheet.parentElement;
  if (box.scrollHeight > box.clientHeight) box.scrollTop = box.scrollHeight;   // the latest in view
}

function drawWon(t) {
  const won = $("won");
  if (!t.won) {
    won.replaceChildren(el("p", "meaning", "Seat " + state.viewSeat + " does not know yet who the partner is: the camps' points stay unseen."));
    return;
  }
  const tbl = el("table", "won");
  const head = el("tr");
  const bouts = t.won.rows.length > 0 && t.won.rows[0].bouts !== undefined;   // French Tarot's
  head.append(el("th", null, ""), el("th", null, "points"), el("th", null, "tricks"));
  if (bouts) head.append(el("th", null, "bouts"));
  tbl.append(head);
  for (const row of t.won.rows) {
    const tr = el("tr");
    tr.append(el("th", null, row.label), el("td", null, String(row.points)), el("td", null, String(row.tricks)));
    if (bouts) tr.append(el("td", null, String(row.bouts)));
    tbl.append(tr);
  }
  const notes = t.won.notes || [];
  won.replaceChildren(tbl, ...notes.map((n) => el("p", "meaning", n)));
}

// the cards outside the hands; from a seat's view, those it has not seen face down
function drawOutside(t) {
  const out = $("outside");
  out.replaceChildren();
  for (const part of t.outside) {
    const p = el("div", "outside-part");
    p.append(el("div", "meaning", part.label));
    const row = el("div", "suit-group");
    for (const token of part.cards) row.append(cardEl(token));
    for (let i = 0; i < (part.hidden || 0); i++) row.append(el("span", "card back"));
    p.append(row);
    out.append(p);
  }
}
