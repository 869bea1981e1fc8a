// Cards as a player reads them: J♥, 21 atout, ★ Excuse — never the file's codes (KS, T21,
// EX) in a sentence; the codes stay in data-card attributes for the tests and the links.
import { state, el } from "./state.js";
import { gameOf } from "./games.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { K: "king", Q: "queen", N: "cavalier", J: "jack" };
// a card code standing alone in a sentence (the server's reasons use them)
export const CARD_CODE = /\b(?:T(?:1\d|2[01]|[1-9])|EX|(?:10|[1-9JNQK])[SHDC])\b/g;

export function parseCard(token) {
  if (token === "EX") return { kind: "excuse" };
  if (token[0] === "T") return { kind: "trump", n: Number(token.slice(1)) };
  return { kind: "suit", rank: token.slice(0, -1), suit: token.slice(-1) };
}

// the words of the game shown (the server's, games.js); none before a deal is shown
function words() { return state.deal ? gameOf(state.deal.game).words : null; }

export function excuseName() {
  if (state.table) return state.table.excuse;
  return words() ? words().excuse : "Excuse";
}

export function trumpWord() {
  return words() ? words().trump : "atout";
}

export function cardName(token) {
  const c = parseCard(token);
  if (c.kind === "excuse") return excuseName();
  if (c.kind === "trump") return trumpWord() + " " + c.n;
  return (RANK_NAMES[c.rank] || c.rank) + " of " + SUIT_NAMES[c.suit];
}

export function cardText(token) {
  const c = parseCard(token);
  if (c.kind === "excuse") return "★ " + excuseName();
  if (c.kind === "trump") return c.n + " " + trumpWord();
  return c.rank + SUITS[c.suit];
}

// a sentence from the server (a refusal's reason) with its card codes as a player writes them
export function withCardText(text) {
  return String(text).replace(CARD_CODE, (code) => cardText(code));
}

export function cardEl(token) {
  const c = parseCard(token);
  const e = el("span", "card");
  e.dataset.card = token;
  e.title = cardName(token);
  if (c.kind === "excuse") {
    e.classList.add("excuse");
    e.append(el("span", "rank", "★"), el("span", "pip", excuseName()));
  } else if (c.kind === "trump") {
    e.classList.add("trump");
    e.append(el("span", "rank", String(c.n)), el("span", "pip", trumpWord()));
  } else {
    e.classList.add("suit-" + c.suit);
    e.append(el("span", "rank", c.rank), el("span", "pip", SUITS[c.suit]));
  }
  return e;
}

// a card inside a sentence, coloured; compact: a trump as its number and the Excuse as ★
// (their colours tell them apart), for lists of tricks
export function tokenEl(token, compact) {
  const c = parseCard(token);
  const e = el("span", "token");
  e.dataset.card = token;
  e.title = cardName(token);
  e.classList.add(c.kind === "suit" ? "suit-" + c.suit : c.kind);
  e.textContent = compact && c.kind !== "suit" ? (c.kind === "trump" ? String(c.n) : "★") : cardText(token);
  return e;
}

export function tokensEl(tokens) {
  const span = el("span", "tokens");
  tokens.forEach((t, i) => { if (i) span.append(" "); span.append(tokenEl(t)); });
  return span;
}

export function signed(v) { return v > 0 ? "+" + v : String(v); }

// French Tarot and Priestertarock values are gains or losses (+60, −12); Austrian Tarock's
// are points or counts (49 of 106), where a plus sign would read as a win
export function isSigned() {
  return state.table ? state.table.scale.signed : !state.deal || gameOf(state.deal.game).signed;
}
export function valueText(v) { return isSigned() ? signed(v) : String(v); }
export function meanText(v) { return isSigned() ? (v > 0 ? "+" : "") + v.toFixed(1) : v.toFixed(1); }
