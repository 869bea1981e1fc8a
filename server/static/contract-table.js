// "Who could have made what": the double-dummy contract table of the deal on screen, as
// `atout table` gives it (/api/contract-table/stream), its cells filling in as the server
// proves them, then the par and the verdict on the contract played.  The table is of the
// deal as dealt (the cards played do not change it), so it is kept per deal.  It sees
// every hand: from one seat's view it is not shown.  The words are `atout table --text`'s
// (atout/present/table_text.py): contracts as players write them (the server's words,
// games.js), a legend for the numbers; each rulebook's grid laid out by its LAYOUT below.
// Imports only the page's state, the API, the cards and the games (no module imports this one
// but viewer.js, deals.js and seat.js).
import { state, $, el, plural, TAB } from "./state.js";
import { post, postLines, fieldMessage } from "./api.js";
import { cardText } from "./cards.js";
import { columnWords, contractWords, gameOf } from "./games.js";

const tables = new Map();       // deal key -> {cells: Map, table, status, seconds, limit}
let running = null;             // {key, controller, started, timer, limit, stopping}
const SLOT = TAB + "-ctable";
// seconds a stopped table may take to say what it proved before its request is dropped
const STOP_PATIENCE = 5000;

// the deal the table is of: the one being entered while the editor is open (a deal as dealt,
// or the position once bid), else the deal shown
const subject = () => (state.editing !== null ? state.editing.deal : state.deal);
const seatView = () => state.editing === null && state.viewSeat !== null;
const dealKey = () => (subject() ? JSON.stringify(Object.assign({}, subject(), { played: [] })) : "");
const cellKey = (c) => [c.seat, c.contract, c.called, c.partner, c.objective, c.ecart].join("|");
const seatName = (s) => "seat " + s;
// contracts and announcements as players write them, in the game of the deal the table is of
const words = (n) => contractWords(subject() && subject().game, n);
const column = (n) => columnWords(subject() && subject().game, n);

// an Austrian count in thirds (standard counting) as a player says it: 167 -> 55⅔
function points(v) {
  const d = subject();
  if (!d || (d.contract && d.contract.counting) !== "standard") return String(v);
  const whole = Math.floor(v / 3), third = v - 3 * whole;
  return (whole || !third ? String(whole) : "") + ["", "⅓", "⅔"][third];
}

// the legend: what the numbers count (atout/present/table_text.py legend)
function legend(game) {
  const what = gameOf(game).words.table_value[(subject().contract || {}).counting || "seed"];
  return "Numbers: " + what + "; open a…b: not proven yet, the value lies from a to b; –: no such cell.";
}

// the card a caller would call to get a partner: a king, else the highest suit card, else a tarock
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];
function callCard(calls) {
  if (!calls || !calls.length) return null;
  const suits = calls.filter((t) => !t.startsWith("T") && t !== "EX");
  if (!suits.length) return calls.reduce((a, b) => (Number(b.slice(1)) > Number(a.slice(1)) ? b : a));
  return suits.reduce((a, b) => (RANKS.indexOf(b.slice(0, -1)) > RANKS.indexOf(a.slice(0, -1)) ? b : a));
}

const calling = (c) => (c.called ? " calling " + cardText(c.called) + " (" + (c.partner === null || c.partner === undefined ? "alone" : "partner " + seatName(c.partner)) + ")" : "");

// each rulebook's grid, as `atout table --text` lays it out (atout/present/table_text.py):
// place(c) -> [the row, the column] a cell goes in; order(facts) -> a column's rank
const LAYOUT = {
  // a row per taker (and card called); the best écart's garde, the taker's own, sans, contre
  french: {
    place(c) {
      if (c.contract === "garde" && c.ecart === "given") return [seatName(c.seat) + calling(c), "own écart"];
      return [seatName(c.seat) + calling(c), column(c.contract)];
    },
    order(facts) {
      const [garde, ...higher] = facts.columns;
      const names = [column(garde), "own écart"].concat(higher.map(column));
      return (col) => (names.includes(col) ? names.indexOf(col) : names.length);
    },
  },
  // a row per caller; a column per partner in seat order, then alone
  priestertarock: {
    place: (c) => [seatName(c.seat), c.contract === "alone" ? "Alone" : "with " + seatName(c.partner)],
    order: (facts) => (col) => (col === "Alone" ? facts.seats : Number(col.slice(-1))),
  },
  // a row per declarer and game (and king called); the game, then each announcement
  austrian: {
    place: (c) => [seatName(c.seat) + " " + words(c.contract) + calling(c), words(c.objective || "contract")],
    order(facts) {
      const names = facts.columns.map(words);
      return (col) => names.indexOf(col);
    },
  },
};
const layout = (game) => LAYOUT[gameOf(game).family];

function verdict(c, game) {
  const word = c.made === true ? "made" : c.made === false ? "down" : "open";
  const [lo, hi] = c.bounds || [null, null];
  const binary = (lo !== null && hi !== null && lo >= 0 && hi <= 1) || !!c.objective;
  let text = word;
  if (c.value !== null && c.value !== undefined && !binary) text = word + " " + points(c.value);
  else if (c.made === null && lo !== null && hi !== null && !binary) text = word + " " + points(lo) + "…" + points(hi);
  if (c.contract === "call") {        // priest5: the card that calls this partner
    const call = callCard(c.calls);
    if (call) text += ", call " + cardText(call);
  }
  return text;
}

function who(c) {
  let text = seatName(c.seat);
  if (c.called) text += " calling " + cardText(c.called);
  if (c.contract === "call" && c.partner !== null && c.partner !== undefined) text += " with " + seatName(c.partner);
  return text;
}

// "Garde by seat 0, Garde sans by seat 2 (its own écart), 3 more"
function named(cells) {
  const said = cells.slice(0, 4).map((c) => (c.contract === "garde" ? "Garde" : words(c.contract)) + " by " + who(c) + (c.ecart === "given" ? " (its own écart)" : ""));
  if (cells.length > 4) said.push((cells.length - 4) + " more");
  return said.join(", ");
}

// the par line (atout/present/table_text.py par_text)
function parText(par) {
  let could = "";
  if (par.open && par.open.length) could += "; could still be made: " + named(par.open);
  if (par.unasked && par.unasked.length) could += "; not asked: " + par.unasked.map(words).join(", ");
  if (par.contract === null) {
    return par.proven ? "Par: everyone passes, no contract is made (proven)." : "Par: not known yet — no contract is proven made" + could + ".";
  }
  let text = "Par: " + (par.contract === "garde" ? "Garde" : words(par.contract)) + " by " + who(par);
  if (par.value !== null && par.value !== undefined) text += ", value " + points(par.value);
  if (par.announcements && par.announcements.length) text += ", with " + par.announcements.map(words).join(", ");
  return text + (par.proven ? " (proven)." : " so far — not proven" + could + ".");
}

function ecartLine(c, cells) {
  const whose = seatName(c.seat) + "'s garde" + (c.called ? " calling " + cardText(c.called) : "");
  if (c.ecart === "given") {
    let text = whose + " with the écart it made (" + (c.ecart_cards || []).map(cardText).join(" ") + "): " +
      (c.made === true ? "made" : c.made === false ? "down" : "open");
    const best = cells.find((b) => b.ecart === "searched" && b.seat === c.seat && b.called === c.called);
    if (best) text += "; with the best écart: " + (best.made === true ? (c.made ? "made" : "yes, another écart makes it")
      : best.made === false ? "no, no écart makes it" : "not known yet");
    return text;
  }
  if (c.made && c.ecart_cards) return whose + ": made with the écart " + c.ecart_cards.map(cardText).join(" ");
  if (c.ecart_classes === undefined || c.ecart_classes === null) return whose + ": open; its écarts not counted within the time";
  if (c.made === false) return whose + ": down whatever the écart (" + plural(c.ecart_classes, "different écart") + " refuted)";
  return whose + ": open; " + c.refuted + " of its " + plural(c.ecart_classes, "different écart") + " refuted";
}

function order(game, columns) {
  const rank = layout(game).order(gameOf(game));
  return columns.sort((a, b) => rank(a) - rank(b));
}

export function drawContractTable() {
  const grid = $("ctable-grid"), statusEl = $("ctable-status");
  const seatOnly = seatView();
  const deal = subject();
  $("ctable-run").disabled = seatOnly || !deal || running !== null;
  $("ctable-stop").hidden = running === null;
  $("ctable-stop").disabled = running !== null && running.stopping;
  $("ctable-seat-note").hidden = !seatOnly;
  $("ctable-ecart-note").hidden = !deal || !gameOf(deal.game).ecart;
  $("ctable-editing").hidden = state.editing === null;
  $("ctable-editing").textContent = state.editing === null ? "" : state.editing.note;
  const shown = seatOnly ? null : tables.get(dealKey());
  grid.replaceChildren();
  $("ctable-par").textContent = "";
  $("ctable-played").textContent = "";
  $("ctable-legend").textContent = "";
  $("ctable-ecarts").replaceChildren();
  if (!shown) {
    if (!running) { statusEl.textContent = seatOnly ? "" : "Not worked out yet for this deal."; statusEl.className = "dd-status"; }
    grid.dataset.cells = "0";
    return;
  }
  const game = deal.game;
  // the table's own order: the cells come first all together, in it (a Map keeps it)
  const cells = shown.table ? shown.table.cells : [...shown.cells.values()];
  const rows = new Map(), columns = [];
  for (const c of cells) {
    const [row, col] = layout(game).place(c);
    if (!columns.includes(col)) columns.push(col);
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row).set(col, c);
  }
  order(game, columns);
  const head = el("tr");
  head.append(el("th"));
  for (const col of columns) head.append(el("th", null, col));
  grid.append(head);
  for (const [row, byCol] of rows) {
    const tr = el("tr");
    tr.append(el("th", null, row));
    for (const col of columns) {
      const c = byCol.get(col);
      const td = el("td", c ? (c.made === true ? "made" : c.made === false ? "down" : "open") : null, c ? verdict(c, game) : "–");
      if (c) { td.dataset.made = String(c.made); td.dataset.key = cellKey(c); }
      tr.append(td);
    }
    grid.append(tr);
  }
  grid.dataset.cells = String(cells.length);
  grid.dataset.proven = String(cells.filter((c) => c.made !== null).length);
  if (cells.length) $("ctable-legend").textContent = legend(game);
  for (const c of cells) if (c.ecart === "given") $("ctable-ecarts").append(el("li", null, ecartLine(c, cells)));
  for (const c of cells) if (c.ecart === "searched") $("ctable-ecarts").append(el("li", null, ecartLine(c, cells)));
  const t = shown.table;
  if (t) {
    $("ctable-par").textContent = parText(t.par);
    if (t.played) {
      let text = "The contract played: " + words(t.played.contract) + " by seat " + t.played.seat + ": " +
        (t.played.made === true ? "made with best play" : t.played.made === false ? "down with best play" : "not proven either way");
      if (t.played.higher.length) text += "; could also have made: " + named(t.played.higher);
      $("ctable-played").textContent = text + ".";
    }
    if (t.missing) for (const m of t.missing) $("ctable-ecarts").append(el("li", null, "not asked: " + column(m.contract) + " of seats " + m.seats.join(", ") + ": " + m.field + ": " + m.reason));
  }
  if (!running || running.key !== dealKey()) {
    const proven = cells.filter((c) => c.made !== null).length;
    statusEl.className = "dd-status" + (shown.status === "ok" ? "" : " limited");
    statusEl.textContent = shown.status === "ok"
      ? "Every cell proven, in " + shown.seconds.toFixed(1) + " s."
      : shown.status === "failed" ? "The table failed: " + shown.reason
      : plural(proven, "cell") + " of " + cells.length + " proven; the others are open with the bounds proven (" +
        (shown.status === "cancel" ? "stopped" : "time limit") + ").";
    statusEl.dataset.status = shown.status;
  }
}

export async function runContractTable() {
  if (!subject() || seatView() || running) return;
  const key = dealKey();
  const asked = Number($("ctable-limit").value);
  const job = { key, controller: new AbortController(), started: performance.now(), limit: asked, stopping: false };
  running = job;
  const shown = { cells: new Map(), table: null, status: "running", seconds: 0 };
  tables.set(key, shown);
  const statusEl = $("ctable-status");
  statusEl.className = "dd-status";
  statusEl.dataset.status = "running";
  job.timer = setInterval(() => {
    const s = (performance.now() - job.started) / 1000;
    statusEl.textContent = job.stopping ? "Stopping: the table says what it proved…"
      : "Working out the table… " + s.toFixed(0) + " s of at most " + job.limit + " s (the cheap cells first)";
  }, 250);
  let redraw = null, failure = null, r = null;
  const onLine = (msg) => {
    if (running !== job) return;
    if (msg.type === "start") {
      job.limit = msg.time_limit;          // (the server's most may be less than asked)
    } else if (msg.type === "cells") {
      for (const c of msg.cells) shown.cells.set(cellKey(c), c);
      if (!redraw) redraw = setTimeout(() => { redraw = null; drawContractTable(); }, 150);
    } else if (msg.type === "table") {
      shown.table = msg.table;
    } else if (msg.type === "error") {
      failure = fieldMessage(msg);
    }
  };
  drawContractTable();
  try {
    r = await postLines("/api/contract-table/stream",
                        { position: subject(), time_limit: asked, slot: SLOT },
                        job.controller.signal, onLine);
  } catch (e) {
    if (e.name !== "AbortError") failure = "the answer stopped (" + e.message + ")";
  }
  clearInterval(job.timer);
  clearTimeout(job.patience);
  clearTimeout(redraw);
  if (running !== job) return;
  running = null;
  shown.seconds = (performance.now() - job.started) / 1000;
  if (r && !r.ok) failure = r.status === 409 ? "replaced" : fieldMessage(r.data);
  if (shown.table) shown.status = shown.table.status === "ok" ? "ok" : shown.table.stopped_by || "time";
  else if (job.stopping) shown.status = "cancel";
  else { shown.status = "failed"; shown.reason = failure || "it ended before its table"; }
  drawContractTable();
}

// Stop: the server stops the search where it is and the stream ends with the table as
// proven, par and the contract played included (as Ctrl-C ends `atout table`); a server
// that does not answer so in time has its request dropped, keeping the cells told
export async function stopContractTable() {
  if (!running || running.stopping) return;
  const job = running;
  job.stopping = true;
  drawContractTable();
  job.patience = setTimeout(() => dropContractTable(job), STOP_PATIENCE);
  let r = null;
  try { r = await post("/api/contract-table/stop", { slot: SLOT }); } catch (e) { r = null; }
  if (!r || !r.ok || !r.data.stopped) dropContractTable(job);
}

function dropContractTable(job) {
  if (running !== job) return;
  running = null;
  clearInterval(job.timer);
  clearTimeout(job.patience);
  job.controller.abort();           // the server stops the search when the request goes
  const shown = tables.get(job.key);
  if (shown && !shown.table) shown.status = "cancel";
  drawContractTable();
}

// another deal on screen, or another view: what ran for the last one stops
export function contractTableChanged() {
  if (running && (running.key !== dealKey() || seatView())) dropContractTable(running);
  drawContractTable();
}
