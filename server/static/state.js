// The page's state, shared by every module, and the small helpers they all use.
// Nothing here talks to the server or draws anything.

export const state = {
  deals: [],          // [{obj, label, group, shared}]: shared: opened from a link, a file or a paste
  dealIndex: -1,
  deal: null,         // the position object as given
  real: [],           // the cards really played
  line: [],           // the line shown: the real play, or a what-if line
  cursor: 0,          // cards of `line` on the table
  whatIfFrom: null,   // where `line` leaves the real play
  table: null,        // the /api/table answer for the cursor
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
