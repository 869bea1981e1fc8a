// "Who could have made what": the double-dummy contract table of the deal on screen, as
// `atout table` gives it (/api/contract-table/stream), its cells filling in as the server
// proves them, then the par and the verdict on the contract played.  The table is of the
// deal as dealt (the cards played do not change it), so it is kept per deal.  It sees
// every hand: from one seat's view it is not shown.  Imports only the page's state, the
// API and the cards (no module imports this one but viewer.js, deals.js and seat.js).
import { state, $, el, plural, TAB } from "./state.js";
import { postLines, fieldMessage } from "./api.js";
import { cardText } from "./cards.js";

const tables = new Map();       // deal key -> {cells: Map, table, status, seconds}
let running = null;             // {key, controller, started, timer}

const NAMES = { garde: "prise/garde", garde_sans: "garde sans", garde_contre: "garde contre",
                call: "call", alone: "alone", contract: "game" };
const name = (n) => NAMES[n] || n.replace(/_/g, " ");
const bidName = (n) => (n === "garde" ? "garde" : name(n));
const dealKey = () => (state.deal ? JSON.stringify(Object.assign({}, state.deal, { played: [] })) : "");
const cellKey = (c) => [c.seat, c.contract, c.called, c.partner, c.objective, c.ecart].join("|");

// the row and the column a cell goes in, as `atout table --text` lays them out
function place(game, c) {
  const seat = "seat " + c.seat;
  if (game === "priest5") return [seat, c.contract === "alone" ? "alone" : "with seat " + c.partner];
  let called = "";
  if (c.called) called = " calling " + cardText(c.called) + " (" + (c.partner === null || c.partner === undefined ? "alone" : "partner " + c.partner) + ")";
  if (game === "at4") return [seat + " " + c.contract + called, name(c.objective || "contract")];
  return [seat + called, name(c.contract)];
}

function verdict(c) {
  const word = c.made === true ? "made" : c.made === false ? "down" : "open";
  const [lo, hi] = c.bounds || [null, null];
  const binary = lo !== null && hi !== null && lo >= 0 && hi <= 1;
  if (c.value !== null && c.value !== undefined && !binary) return word + " " + c.value;
  if (c.made === null && lo !== null && hi !== null) return word + " " + lo + "…" + hi;
  return word;
}

function who(c) {
  let text = "seat " + c.seat;
  if (c.called) text += " calling " + cardText(c.called);
  if (c.contract === "call" && c.partner !== null && c.partner !== undefined) text += " with seat " + c.partner;
  return text;
}

export function drawContractTable() {
  const grid = $("ctable-grid"), statusEl = $("ctable-status");
  const seatView = state.viewSeat !== null;
  $("ctable-run").disabled = seatView || !state.deal || running !== null;
  $("ctable-stop").hidden = running === null;
  $("ctable-seat-note").hidden = !seatView;
  const shown = seatView ? null : tables.get(dealKey());
  grid.replaceChildren();
  $("ctable-par").textContent = "";
  $("ctable-played").textContent = "";
  $("ctable-ecarts").replaceChildren();
  if (!shown) {
    if (!running) { statusEl.textContent = seatView ? "" : "Not worked out yet for this deal."; statusEl.className = "dd-status"; }
    grid.dataset.cells = "0";
    return;
  }
  const game = state.deal.game;
  const cells = shown.table ? shown.table.cells : [...shown.cells.values()];
  const rows = new Map(), columns = [];
  for (const c of cells) {
    const [row, col] = place(game, c);
    if (!columns.includes(col)) columns.push(col);
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row).set(col, c);
  }
  const head = el("tr");
  head.append(el("th"));
  for (const col of columns) head.append(el("th", null, col));
  grid.append(head);
  for (const [row, byCol] of rows) {
    const tr = el("tr");
    tr.append(el("th", null, row));
    for (const col of columns) {
      const c = byCol.get(col);
      const td = el("td", c ? (c.made === true ? "made" : c.made === false ? "down" : "open") : null, c ? verdict(c) : "–");
      if (c) { td.dataset.made = String(c.made); td.dataset.key = cellKey(c); }
      tr.append(td);
    }
    grid.append(tr);
  }
  grid.dataset.cells = String(cells.length);
  grid.dataset.proven = String(cells.filter((c) => c.made !== null).length);
  for (const c of cells) {
    if (c.ecart !== "searched") continue;
    let text = "seat " + c.seat + "'s garde" + (c.called ? " calling " + cardText(c.called) : "") + ": ";
    if (c.made && c.ecart_cards) text += "made with the écart " + c.ecart_cards.map(cardText).join(" ");
    else if (c.made === false) text += "down whatever the écart (" + plural(c.ecart_classes, "different écart") + " refuted)";
    else text += "open; " + c.refuted + " of its " + plural(c.ecart_classes, "different écart") + " refuted";
    $("ctable-ecarts").append(el("li", null, text));
  }
  const t = shown.table;
  if (t) {
    const par = t.par;
    $("ctable-par").textContent = "Par: " + (par.contract === null ? "everyone passes, no contract is made"
      : bidName(par.contract) + " by " + who(par) + (par.announcements && par.announcements.length ? ", with " + par.announcements.map(name).join(", ") : ""))
      + (par.proven ? " (proven)." : " (not proven: a cell that would beat it is open).");
    if (t.played) {
      let text = "The contract played: " + bidName(t.played.contract) + " by seat " + t.played.seat + ": " +
        (t.played.made === true ? "made with best play" : t.played.made === false ? "down with best play" : "not proven either way");
      if (t.played.higher.length) text += "; could also have made: " + t.played.higher.map((c) => who(c) + " a " + bidName(c.contract)).join(", ");
      $("ctable-played").textContent = text + ".";
    }
    if (t.missing) for (const m of t.missing) $("ctable-ecarts").append(el("li", null, "not asked: " + name(m.contract) + " of seats " + m.seats.join(", ") + ": " + m.field + ": " + m.reason));
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
  if (!state.deal || state.viewSeat !== null || running) return;
  const key = dealKey();
  const limit = Number($("ctable-limit").value);
  const job = { key, controller: new AbortController(), started: performance.now() };
  running = job;
  const shown = { cells: new Map(), table: null, status: "running", seconds: 0 };
  tables.set(key, shown);
  const statusEl = $("ctable-status");
  statusEl.className = "dd-status";
  statusEl.dataset.status = "running";
  job.timer = setInterval(() => {
    const s = (performance.now() - job.started) / 1000;
    statusEl.textContent = "Working out the table… " + s.toFixed(0) + " s of at most " + limit + " s (the cheap cells first)";
  }, 250);
  let redraw = null, failure = null, r = null;
  const onLine = (msg) => {
    if (running !== job) return;
    if (msg.type === "cells") {
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
                        { position: state.deal, time_limit: limit, slot: TAB + "-ctable" },
                        job.controller.signal, onLine);
  } catch (e) {
    if (e.name !== "AbortError") failure = "the answer stopped (" + e.message + ")";
  }
  clearInterval(job.timer);
  clearTimeout(redraw);
  if (running !== job) return;
  running = null;
  shown.seconds = (performance.now() - job.started) / 1000;
  if (r && !r.ok) failure = r.status === 409 ? "replaced" : fieldMessage(r.data);
  if (shown.table) shown.status = shown.table.status === "ok" ? "ok" : shown.table.stopped_by || "time";
  else { shown.status = "failed"; shown.reason = failure || "it ended before its table"; }
  drawContractTable();
}

export function stopContractTable() {
  if (!running) return;
  const job = running;
  running = null;
  clearInterval(job.timer);
  job.controller.abort();           // the server stops the search when the request goes
  const shown = tables.get(job.key);
  if (shown && !shown.table) shown.status = "cancel";
  drawContractTable();
}

// another deal on screen, or another view: what ran for the last one stops
export function contractTableChanged() {
  if (running && (running.key !== dealKey() || state.viewSeat !== null)) stopContractTable();
  drawContractTable();
}
