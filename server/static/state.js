// The page's state and the one place it changes: every change is one of the actions below,
// called by the features' controllers (stepping.js, deals.js, review.js, …); the views
// (*-view.js, table.js) read the state and never change it (tests/test_viewer_modules.py
// checks both).  A feature's own working state — the game being played, the draft in the
// editor, the contract tables asked — is its controller's, kept where the controller says.
// Nothing here talks to the server or draws anything.

export const state = {
  deals: [],          // [{obj, label, group, shared}]: shared: opened from a link, a file or a paste
  dealIndex: -1,
  deal: null,         // the position object as given
  real: [],           // the cards really played
  line: [],           // the line shown: the real play, or a what-if line
  cursor: 0,          // cards of `line` on the table
  whatIfFrom: null,   // where `line` leaves the real play
  table: null,        // the /api/view answer for the cursor: the card table drawn
  tables: new Map(),  // key@seat -> table
  solves: new Map(),  // key|limit -> solve result
  solving: null,      // {key, controller, started, timer}
  analysis: null,     // the /api/analyze answer for `analysisLine`
  analysisLine: null,
  analysing: null,    // the AbortController of the analysis under way
  analysisSession: null, // the server's name for that analysis: "Keep going" goes on with it
  viewSeat: null,     // null: every hand open; a seat: the table as that seat sees it
  advices: new Map(), // key|samples|seat -> the /api/advise answer
  advising: null,     // {key, controller, started, timer}
  recording: false,   // the entered deal shown takes the cards clicked as its real play
  playing: null,      // a game against the solver under way (play.js)
  editing: null,      // while the editor is open: {deal, note}, the deal its contract table is of
};

// this page's slots on the server: a newer request from this tab replaces an older one
export const TAB = Math.random().toString(36).slice(2);

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// "1 card", "2 cards": every count the page writes goes through here
export function plural(n, word, many) {
  return n + " " + (n === 1 ? word : many || word + "s");
}

export const keyOf = (cards) => cards.join(" ");
export const positionAt = (k) => Object.assign({}, state.deal, { played: state.line.slice(0, k) });
export const seatsOf = () => (state.deal ? state.deal.hands.length : 4);

// Card numbers a player reads count from 1 (the first card of the deal is card 1); the
// cursor counts the cards on the table, so the position shown is "after card k".
export const cardNo = (index) => index + 1;

// -- the actions: every change of the state ----------------------------------------------------

// the deals offered: one more (its index), one replaced, what is noted of one (its label, its
// link's payload, whether it came in a link)
export function addDeal(entry) {
  state.deals.push(entry);
  return state.deals.length - 1;
}

export function setDealAt(i, entry) { state.deals[i] = entry; }

export function noteDeal(i, fields) { Object.assign(state.deals[i], fields); }

// deal i shown: its line the real play, nothing kept of the deal shown before
export function openDeal(i) {
  state.dealIndex = i;
  state.deal = state.deals[i].obj;
  state.real = (state.deal.played || []).slice();
  state.line = state.real.slice();
  state.whatIfFrom = null;
  state.tables.clear();
  state.solves.clear();
  state.advices.clear();
  state.analysis = null;
  state.analysisLine = null;
}

export function setRecording(on) { state.recording = !!on; }

// the entered deal shown has this real play now (a card recorded or undone): its line is it
export function recordPlay(real) {
  const d = state.deals[state.dealIndex];
  d.obj = Object.assign({}, d.obj, { played: real.slice() });
  d.payload = null;                  // its link carries the new play
  state.deal = d.obj;
  state.real = real.slice();
  state.line = real.slice();
  state.whatIfFrom = null;
}

// the line shown and where it stands: the cards on the table (within the line), a line that
// leaves the real play at whatIfFrom (null: the real play), another card played at the cursor
export function setCursor(k) { state.cursor = Math.max(0, Math.min(k, state.line.length)); }

export function setLine(line, whatIfFrom) {
  state.line = line;
  state.whatIfFrom = whatIfFrom;
}

export function playInstead(token) {
  const k = state.cursor;
  if (state.whatIfFrom === null || k < state.whatIfFrom) state.whatIfFrom = k;
  state.line = state.line.slice(0, k).concat([token]);
  state.cursor = k + 1;
}

// what the server said of the position shown, kept for when it is shown again
export function showTable(key, t) {
  state.tables.set(key, t);
  state.table = t;
}

export function keepSolve(key, data) { state.solves.set(key, data); }

export function keepAdvice(key, data) { state.advices.set(key, data); }

// the request under way in a slot of the state (solving, advising), or none
export function setRequest(slot, job) { state[slot] = job; }

// the view: every hand open (null) or one seat's; the editor open; a game being played
export function setViewSeat(seat) { state.viewSeat = seat; }

export function setEditing(editing) { state.editing = editing; }

export function setPlaying(playing) { state.playing = playing; }

// the review: its analysis of a line (undefined: the line kept), the one under way, the
// server's name for it, and what an update or an end says of it
export function setAnalysis(analysis, line) {
  state.analysis = analysis;
  if (line !== undefined) state.analysisLine = line;
}

export function setAnalysing(controller) { state.analysing = controller; }

export function setAnalysisSession(session) { state.analysisSession = session; }

export function mergeAnalysis(update) {
  const a = state.analysis;
  const at = new Map(a.plays.map((p, i) => [p.index, i]));
  for (const p of update.plays) { if (at.has(p.index)) a.plays[at.get(p.index)] = p; else a.plays.push(p); }
  a.plays.sort((x, y) => x.index - y.index);
  Object.assign(a, { seats: update.seats, start_value: update.start_value, start_bounds: update.start_bounds, made: update.made });
}

export function markAnalysis(fields) { Object.assign(state.analysis, fields); }
