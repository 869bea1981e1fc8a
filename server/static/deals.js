// The deals the page offers: the server's (`atout view FILE`, its refused lines said on the
// page), the examples, the positions opened or pasted in this tab, and a deal that came in
// a link; loading one of them at the card, what-if and view its address asks for.  Its
// view: deals-view.js.
import { state, plural, addDeal, noteDeal, openDeal, setLine, setRecording, setViewSeat } from "./state.js";
import { api, post, fieldMessage, validate } from "./api.js";
import { withCardText } from "./cards.js";
import { encode } from "./link.js";
import { readAddress, linkHash } from "./address.js";
import { keptEntered, enteredDeal, ENTERED_GROUP } from "./record.js";
import { emit } from "./events.js";
import { drawChosen, drawRefused, fillDeals, notice, openInput } from "./deals-view.js";

export { notice, openInput, showDealError } from "./deals-view.js";

function label(obj, i) {
  const id = obj.id !== undefined && obj.id !== null ? String(obj.id) : "position " + (i + 1);
  return id + " · " + obj.game;
}

function addDeals(objs, group, shared) {
  const first = state.deals.length;
  objs.forEach((obj, i) => addDeal({ obj, label: label(obj, i), group, shared }));
  fillDeals();
  return first;
}

const cardsInDeal = (deal) => deal.hands.reduce((n, hand) => n + hand.length, 0);

// view: {card, from, whatif, seat} from the page's address; without one a position part-way
// through the play (a puzzle) opens where it stands, a finished deal at its first card
export async function loadDeal(i, view) {
  const seats = state.deals[i].obj.hands.length;
  if (view && view.seat !== null && view.seat < seats) setViewSeat(view.seat);
  // what the command line refuses (docs/format.md, "Reading a link") is said, and left out
  else if (view && view.seat !== null) notice("This link's seat: seat " + view.seat + " does not exist (0.." + (seats - 1) + "): every hand is shown.", null, true);
  emit("deal-closing");           // the searches of the deal shown stop
  openDeal(i);
  drawChosen(i);
  emit("deal-opened");            // its panels filled in for it
  let k = state.real.length < cardsInDeal(state.deal) ? state.real.length : 0;
  if (view && view.card !== null) k = view.card;
  if (view && view.whatif) {
    // older links had no `from`: their card was the one right after the what-if line
    const from = view.from !== null ? view.from
      : view.card === null ? state.real.length : Math.max(0, view.card - view.whatif.length);
    const line = state.real.slice(0, from).concat(view.whatif);
    const refused = Number.isInteger(from) && from >= 0 && from <= state.real.length
      ? await validate(Object.assign({}, state.deal, { played: line }))
      : "from: must be a card of the real play, 0 to " + state.real.length;
    if (state.dealIndex !== i || state.deal !== state.deals[i].obj) return;   // another deal since
    if (refused) {
      notice("This link's what-if line could not be played (" + refused + "): the real play is shown.");
      k = Math.min(Math.max(0, from || 0), state.real.length);
    } else {
      setLine(line, from);
    }
  }
  // the value of the position shown is asked for before the review: on a server with one
  // search process, a review sent first would hold it for its whole time limit
  if (view && view.card !== null && view.card > state.line.length) {
    notice("This link's card: must be 0 to " + state.line.length + ", the cards of the line shown.", null, true);
  }
  await emit("go", Math.min(k, state.line.length));
  if (state.dealIndex !== i || state.deal !== state.deals[i].obj) return;   // another deal since
  emit("deal-shown");             // the review kept for it, or the offer of one
}

// a deal the editor hands over: in the list ("Entered here") and shown, at the end of the
// play entered so far
export function showEntered(obj, recording) {
  const i = enteredDeal(obj, recording);
  noteDeal(i, { label: label(obj, 0) });
  fillDeals();
  return loadDeal(i, { card: (obj.played || []).length, from: null, whatif: null, seat: null });
}

// positions opened or pasted in this tab are kept for its reloads
const OPENED = "atout-opened";

function keepOpened(objs, group) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(OPENED) || "[]");
    kept.push({ group, objs });
    sessionStorage.setItem(OPENED, JSON.stringify(kept));
  } catch (e) {
    // too large for the tab's storage: these stay until the page is closed or reloaded
  }
}

// a browser's JSON error, said for the line it is on: "at column 17 (expected …)"
function jsonProblem(err) {
  const m = /^(.*?)(?: in JSON)? at position \d+(?: \(line \d+ column (\d+)\))?$/.exec(err.message);
  if (!m) return "not valid JSON (" + err.message + ")";
  return "not valid JSON" + (m[2] ? " at column " + m[2] : "") + " (" + m[1].charAt(0).toLowerCase() + m[1].slice(1) + ")";
}

// TarotClub's deal files (a played deal, a custom deal) are read by the server
// (/api/import: atout/tarotclub.py); this only tells them from atout's own JSON
const TAROTCLUB = /"(?:deal_info|FirstPlayer)"\s*:/;

async function importFile(text, source) {
  const r = await post("/api/import", { text, name: source });
  if (!r.ok) return { problems: [{ n: 1, text: fieldMessage(r.data) }], objs: [], deals: [] };
  const problems = [], objs = [], deals = [];
  r.data.items.forEach((item, i) => {
    if (item.position) objs.push(item.position);
    else if (item.deal) deals.push(item.deal);
    else problems.push({ n: i + 1, text: (r.data.items.length > 1 ? item.label + ": " : "") + item.field + ": " + withCardText(item.reason) });
  });
  return { problems, objs, deals };
}

export async function loadText(text, source) {
  let problems = [];
  let objs = [];
  let deals = [];
  let records;
  if (TAROTCLUB.test(text)) {
    ({ problems, objs, deals } = await importFile(text, source));
    return showLoaded(problems, objs, deals, source, false);
  }
  try {
    const whole = JSON.parse(text);
    records = (Array.isArray(whole) ? whole : [whole]).map((obj, i) => ({ n: i + 1, obj }));
  } catch (e) {
    records = [];
    text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try { records.push({ n: i + 1, obj: JSON.parse(line) }); }
      catch (err) { problems.push({ n: i + 1, text: "json: " + jsonProblem(err) }); }
    });
  }
  for (const { n, obj } of records) {
    const problem = await validate(obj);
    if (problem) problems.push({ n, text: problem });
    else if (obj && obj.contract === undefined) deals.push(obj);      // a deal as dealt
    else objs.push(obj);
  }
  problems.sort((a, b) => a.n - b.n);        // in the file's order
  return showLoaded(problems, objs, deals, source, records.length + problems.length > 1 || source !== "pasted");
}

// what a file or a paste gave: its refused lines said, its positions in the list and the
// first shown; a deal as dealt (no contract yet) opens in the editor, at its bidding
function showLoaded(problems, objs, deals, source, named) {
  drawRefused(problems, objs.length, named);
  if (!objs.length && deals.length) {
    emit("deal-to-edit", deals[0]);
    if (deals.length > 1) notice("This file holds " + plural(deals.length, "deal") + " as dealt: the first is in the editor.");
    return;
  }
  if (!objs.length) return;
  const first = addDeals(objs, source, true);
  keepOpened(objs, source);
  loadDeal(first);
}

// deal i's link payload, worked out once and noted on the deal
function payloadOf(i) {
  const d = state.deals[i];
  if (d.payload === undefined || d.payload === null) {
    let payload = null;
    try { payload = encode(d.obj); } catch (e) { /* a deal no link can carry */ }
    noteDeal(i, { payload });
  }
  return state.deals[i].payload;
}

// a deal that came in a link (decoded by readAddress): checked by the server's rules, then
// shown (the same deal already in the list is shown there); null, or what is wrong with it
async function openShared(view) {
  const obj = view.position;
  const refused = await validate(obj);
  if (refused) return "This link's deal is refused: " + refused + ".";
  const payload = encode(obj);
  let i = state.deals.findIndex((d, j) => payloadOf(j) === payload);
  if (i < 0) i = addDeals([obj], "Shared link", true);
  noteDeal(i, { payload, fromLink: true });   // its address stays #d=…, as it came (address.js)
  loadDeal(i, view);
  return null;
}

export async function start() {
  const [mine, examples] = await Promise.all([
    api("/api/deals", {}).then((r) => r.json()).then((d) => (d.deals ? d : { deals: [] }))
      .catch(() => ({ deals: [] })),
    fetch("/static/examples.jsonl").then((r) => r.text()).catch(() => ""),
  ]);
  for (const [i, obj] of mine.deals.entries()) addDeal({ obj, label: label(obj, i), group: "Your file" });
  examples.split("\n").filter((l) => l.trim()).forEach((line, i) => {
    const obj = JSON.parse(line);
    addDeal({ obj, label: label(obj, i), group: "Examples" });
  });
  let kept = [];
  try { kept = JSON.parse(sessionStorage.getItem(OPENED) || "[]"); } catch (e) { kept = []; }
  for (const { group, objs } of kept) objs.forEach((obj, i) => addDeal({ obj, label: label(obj, i), group, shared: true }));
  const entered = keptEntered();
  if (entered && entered.obj) {
    addDeal({ obj: entered.obj, label: label(entered.obj, 0), group: ENTERED_GROUP, shared: true, entered: true });
    setRecording(entered.recording);
  }
  fillDeals();
  const view = readAddress();
  const refused = (mine.refused || []).map(withCardText);
  const file = mine.file || "the file";
  if (refused.length === 1) notice("Not in the list: " + file + ", " + refused[0] + ".");
  else if (refused.length) notice("Not in the list: " + plural(refused.length, "line") + " of " + file + " refused.", refused);
  if (view.problem || view.position) {
    const problem = view.problem ? "This link is refused: " + view.problem + "." : await openShared(view);
    if (!problem) return;
    notice(problem + (state.deals.length ? " The first deal is shown." : ""), null, true);
    if (state.deals.length) loadDeal(0);
    else openInput(true);
    return;
  }
  if (!state.deals.length) { openInput(true); return; }
  const wanted = view.deal === null ? 0 : view.deal;
  if (!(Number.isInteger(wanted) && wanted >= 0 && wanted < state.deals.length)) {
    notice("This link names deal " + view.dealText + ", which this page does not have " +
           "(a position opened or pasted in another tab is not in the link): the first deal is shown.");
    loadDeal(0);
    return;
  }
  loadDeal(wanted, view);
}

// a link typed or pasted into the address bar of this page changes only its hash
export async function followLink() {
  if (location.hash === linkHash() || !state.deals.length) return;
  const view = readAddress();
  notice("");
  if (view.problem || view.position) {
    const problem = view.problem ? "This link is refused: " + view.problem + "." : await openShared(view);
    if (problem) notice(problem);
    return;
  }
  const wanted = view.deal === null ? state.dealIndex : view.deal;
  if (Number.isInteger(wanted) && wanted >= 0 && wanted < state.deals.length) loadDeal(wanted, view);
  else notice("This link names deal " + view.dealText + ", which this page does not have.");
}
