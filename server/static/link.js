// A deal in a link: the compact encoding of a position carried by the page's share links,
// bit for bit as atout/present/link.py writes and reads it (docs/format.md, "A deal in a link"):
// the game, the first leader, where each card of the pack lies, the contract, the cards
// played and the id, packed into bits written with the 64 characters of base64url.
// encode(position) -> payload; decode(payload) -> position, or a LinkError saying why not;
// readLink(text) -> what a link asks for, read by the rules atout/present/link.py's parse_link
// follows (docs/format.md, "Reading a link"): the same deal, or the same refusal naming the same
// part.  The games — their order, seats, packs, places, bids and announcements — are the
// server's records (games.js); each rulebook's contract is written by its own codec below.
import { GAMES, gameOf } from "./games.js";

const VERSION = 1;
const POIGNEE_LEVELS = ["simple", "double", "triple"];
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const MAX_PAYLOAD = 4096;
// the parts of a link a reader knows, each named at most once (deal: a viewer's own list)
const PARTS = ["d", "deal", "card", "from", "whatif", "seat"];
const VIEW_DIGITS = 3;
// an integer id as it is written: no sign but a minus, no leading zero, ASCII digits only
const INTEGER_ID = /^(0|-?[1-9][0-9]*)$/;
const ID_RANGE = [-(2n ** 63n), 2n ** 63n - 1n];

// cards as numbers (docs/format.md): suit × 14 + rank − 1 for suits S H D C and ranks 1 … 10 J N Q K,
// then T1 … T21 (56 … 76) and EX (77)
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];
const TOKENS = [];
for (const s of "SHDC") for (const r of RANKS) TOKENS.push(r + s);
for (let n = 1; n <= 21; n++) TOKENS.push("T" + n);
TOKENS.push("EX");
const NUMBER = new Map(TOKENS.map((t, i) => [t, i]));

// the game's pack in card-number order (at4: its 54 cards)
const pack = (facts) => facts.pack.map((t) => NUMBER.get(t));
function width(n) { return Math.max(1, (n - 1).toString(2).length); }

export class LinkError extends Error {
  constructor(reason, field = "d") { super(reason); this.field = field; this.reason = reason; }
}

class Writer {
  constructor() { this.bits = []; }
  put(value, w) { for (let i = w - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2); }
  card(t) { this.put(NUMBER.get(t), 7); }
  cards(list) { this.put(list.length, 5); for (const t of list) this.card(t); }
  text() {
    const bits = this.bits.concat(new Array((6 - this.bits.length % 6) % 6).fill(0));
    let out = "";
    for (let i = 0; i < bits.length; i += 6) out += ALPHABET[bits.slice(i, i + 6).reduce((v, b) => v * 2 + b, 0)];
    return out;
  }
}

class Reader {
  constructor(text) {
    this.bits = [];
    [...text].forEach((ch, i) => {
      const v = ALPHABET.indexOf(ch);
      if (v < 0) {
        const code = ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
        throw new LinkError("not a deal link: character " + (i + 1) + " (U+" + code + ") is not one of A-Z a-z 0-9 - _");
      }
      for (let k = 5; k >= 0; k--) this.bits.push((v >> k) & 1);
    });
    this.at = 0;
  }
  get(w) {
    if (this.at + w > this.bits.length) throw new LinkError("the link is cut short (copy it whole)");
    let v = 0;
    for (let i = 0; i < w; i++) v = v * 2 + this.bits[this.at + i];
    this.at += w;
    return v;
  }
  card(inPack) {
    const c = this.get(7);
    if (!inPack.has(c)) throw new LinkError("card number " + c + " is not in this game's pack");
    return TOKENS[c];
  }
  cards(inPack) { const n = this.get(5); const out = []; for (let i = 0; i < n; i++) out.push(this.card(inPack)); return out; }
  choice(w, names, what) {
    const i = this.get(w);
    if (i >= names.length) throw new LinkError(what + " number " + i + " does not exist");
    return names[i];
  }
  end() {
    const left = this.bits.slice(this.at);
    if (left.length >= 6 || left.some((b) => b)) throw new LinkError("the link is longer than its deal (something was added to it)");
  }
}

const given = (v) => v !== null && v !== undefined;
const byNumber = (list) => list.slice().sort((a, b) => NUMBER.get(a) - NUMBER.get(b));

// -- the contract, by rulebook (docs/format.md, "A deal in a link") ----------------------------

// each codec: outside(c, facts) -> [[place, cards]] (the cards outside the hands: the places
// after the seats), write(w, c, facts), read(r, facts, at, inPack) -> the contract
const FRENCH = {
  outside: (c, facts) => [[facts.seats, c.dog]],
  write(w, c, facts) {
    w.put(c.taker, 3);
    w.put(facts.bids.indexOf(c.bid), 2);
    w.put(c.chelem ? 1 : 0, 1);
    if (facts.taker_calls) w.card(c.called);
    w.put(given(c.shown_dog) ? 1 : 0, 1);
    if (given(c.shown_dog)) w.cards(c.shown_dog);
    const poignees = c.poignees || [];
    w.put(poignees.length, 3);
    for (const p of poignees) {
      w.put(p.seat, 3);
      w.put(POIGNEE_LEVELS.indexOf(p.level), 2);
      w.put(given(p.shown) ? 1 : 0, 1);
      if (given(p.shown)) w.cards(p.shown);
    }
  },
  read(r, facts, at, inPack) {
    const c = { taker: r.get(3), bid: r.choice(2, facts.bids, "bid"), dog: at[facts.seats] };
    const chelem = r.get(1);
    if (facts.taker_calls) c.called = r.card(inPack);
    if (r.get(1)) c.shown_dog = r.cards(inPack);
    const count = r.get(3);
    if (count) {
      c.poignees = [];
      for (let i = 0; i < count; i++) {
        const p = { seat: r.get(3), level: r.choice(2, POIGNEE_LEVELS, "poignée level") };
        if (r.get(1)) p.shown = r.cards(inPack);
        c.poignees.push(p);
      }
    }
    if (chelem) c.chelem = true;
    return c;
  },
};

const PRIESTERTAROCK = {
  outside: (c, facts) => [[facts.seats, c.open]],
  write(w, c) {
    w.put(c.caller, 3);
    w.put(c.dealer, 3);
    w.put(c.alone ? 1 : 0, 1);
    if (!c.alone) w.card(c.called);
  },
  read(r, facts, at, inPack) {
    const c = { caller: r.get(3), dealer: r.get(3), open: at[facts.seats] };
    if (r.get(1)) c.alone = true;
    else c.called = r.card(inPack);
    return c;
  },
};

const AUSTRIAN = {
  outside(c, facts) {
    if (c.bid === "trischaken") return [[facts.seats, c.talon]];
    return Object.entries(c.side_cards).map(([s, cards]) => [facts.seats + Number(s), cards || []]);
  },
  write(w, c, facts) {
    w.put(facts.bids.indexOf(c.bid), 5);
    w.put(c.counting === "standard" ? 1 : 0, 1);
    if (c.bid === "trischaken") {
      w.put(c.for_seat, 2);
      w.put(c.von_oben ? 1 : 0, 1);
      w.cards(c.talon);
    } else {
      w.put(c.declarer, 2);
      w.put(facts.objectives.indexOf(c.objective || "contract"), 3);
      w.put(given(c.called) ? 1 : 0, 1);
      if (given(c.called)) w.card(c.called);
    }
  },
  read(r, facts, at, inPack) {
    const talon = facts.seats;
    const bid = r.choice(5, facts.bids, "contract");
    const standard = r.get(1);
    let c;
    if (bid === "trischaken") {
      c = { bid, for_seat: r.get(2) };
      if (r.get(1)) c.von_oben = true;
      const cards = r.cards(inPack);
      if (byNumber(cards).join() !== at[talon].join() || at.slice(talon + 1).some((p) => p.length)) {
        throw new LinkError("the talon's order does not name the talon's cards");
      }
      c.talon = cards;
    } else {
      c = { bid, declarer: r.get(2), side_cards: {} };
      for (let s = 0; s < facts.seats; s++) if (at[talon + s].length) c.side_cards[String(s)] = at[talon + s];
      const objective = r.choice(3, facts.objectives, "objective");
      if (r.get(1)) c.called = r.card(inPack);
      if (objective !== "contract") c.objective = objective;
    }
    if (standard) c.counting = "standard";
    return c;
  },
};

// each rulebook's contract in a link
const CODEC = { french: FRENCH, priestertarock: PRIESTERTAROCK, austrian: AUSTRIAN };

// The payload of a position the server has validated (the page only links good deals).
export function encode(obj) {
  const game = obj.game;
  const facts = gameOf(game);
  const codec = CODEC[facts.family];
  const c = Object.fromEntries(Object.entries(obj.contract).filter(([, v]) => given(v)));
  const w = new Writer();
  w.put(VERSION, 6);
  w.put(GAMES.indexOf(game), 3);
  w.put(obj.first, 3);
  const where = new Map();
  obj.hands.forEach((hand, s) => hand.forEach((t) => where.set(NUMBER.get(t), s)));
  for (const [place, cards] of codec.outside(c, facts)) for (const t of cards) where.set(NUMBER.get(t), place);
  const wp = width(facts.link_places);
  for (const x of pack(facts)) w.put(where.get(x), wp);
  codec.write(w, c, facts);
  const played = obj.played || [];
  w.put(played.length, 7);
  for (const t of played) w.card(t);
  w.put(given(obj.id) ? 1 : 0, 1);
  if (given(obj.id)) {
    const isInt = typeof obj.id === "number";
    const bytes = new TextEncoder().encode(String(obj.id));
    w.put(isInt ? 1 : 0, 1);
    w.put(bytes.length, 10);
    for (const b of bytes) w.put(b, 8);
  }
  return w.text();
}

// The position of a payload (to be validated by the server: a payload that decodes may
// still break a rule); throws a LinkError for one that does not decode.
export function decode(payload) {
  if (typeof payload !== "string" || !payload) throw new LinkError("the link holds no deal");
  const length = [...payload].length;      // in characters (code points), as Python counts
  if (length > MAX_PAYLOAD) throw new LinkError("too long for a deal link (" + length + " characters)");
  const r = new Reader(payload);
  const version = r.get(6);
  if (version !== VERSION) throw new LinkError("a link of version " + version + ", made by another atout: this one reads version " + VERSION);
  const game = r.choice(3, GAMES, "game");
  const facts = gameOf(game);
  const first = r.get(3);
  const cards = pack(facts);
  const inPack = new Set(cards);
  const n = facts.link_places;
  const wp = width(n);
  const at = Array.from({ length: n }, () => []);
  for (const x of cards) {
    const p = r.get(wp);
    if (p >= n) throw new LinkError(TOKENS[x] + " lies in place " + p + ", which " + game + " does not have");
    at[p].push(TOKENS[x]);
  }
  const obj = { game, hands: at.slice(0, facts.seats), first };
  const c = CODEC[facts.family].read(r, facts, at, inPack);
  const played = r.get(7);
  if (played > cards.length) throw new LinkError(played + " cards played: the pack has " + cards.length);
  obj.played = [];
  for (let i = 0; i < played; i++) obj.played.push(r.card(inPack));
  if (r.get(1)) {
    const isInt = r.get(1);
    const bytes = new Uint8Array(r.get(10));
    for (let i = 0; i < bytes.length; i++) bytes[i] = r.get(8);
    let text;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { throw new LinkError("the deal's id is not UTF-8 text"); }
    if (isInt) {
      if (!INTEGER_ID.test(text)) throw new LinkError("the deal's id is not an integer in decimal digits");
      const id = BigInt(text);
      if (id < ID_RANGE[0] || id > ID_RANGE[1]) throw new LinkError("the deal's id is out of range (-2^63 to 2^63-1)");
      // beyond 2^53 a number of the page is not exact: the id stays its digits
      obj.id = Number.isSafeInteger(Number(text)) ? Number(text) : text;
    } else obj.id = text;
  }
  obj.contract = c;
  r.end();
  return obj;
}

// -- a whole link (docs/format.md, "Reading a link") -------------------------------------------

// the part after the first "#" (the whole text without one), ASCII whitespace around it left out
function fragment(text) {
  const link = text.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
  const at = link.indexOf("#");
  return at < 0 ? link : link.slice(at + 1);
}

// the parts of a link, decoded as a form is ("+" a space, %XX as UTF-8); a part of PARTS named
// twice is refused (which one counts would be a guess), others are ignored
export function linkParts(text) {
  // "&" first: URLSearchParams would drop a leading "?", which Python keeps in the name
  const seen = new Map();
  const twice = new Set();
  for (const [name, value] of new URLSearchParams("&" + fragment(text))) {
    if (PARTS.includes(name) && seen.has(name)) twice.add(name);
    if (!seen.has(name)) seen.set(name, value);
  }
  for (const name of PARTS) {
    if (twice.has(name)) throw new LinkError("is given twice in the link (a link names each part once)", name);
  }
  return seen;
}

// card, from or seat: null when absent; 1 to 3 ASCII digits
export function viewNumber(parts, name) {
  if (!parts.has(name)) return null;
  const text = parts.get(name);
  if (!new RegExp("^[0-9]{1," + VIEW_DIGITS + "}$").test(text)) {
    throw new LinkError("must be a whole number of 1 to " + VIEW_DIGITS + " digits (0-9)", name);
  }
  return Number(text);
}

// {position (decoded, not yet checked by the rules), card, from, whatif, seat} of a share
// link (numbers null when absent, whatif null when none), or a LinkError naming the part
export function readLink(text) {
  const parts = linkParts(text);
  if (!parts.has("d")) {
    if (parts.has("deal")) {
      throw new LinkError("this link names a deal of its server's list (deal=" + [...parts.get("deal")].slice(0, 10).join("") +
                          "), not the deal itself: open it in the viewer and use Share");
    }
    throw new LinkError("no deal in this link (its address has no #d=…)");
  }
  const position = decode(parts.get("d"));
  const numbers = { card: viewNumber(parts, "card"), from: viewNumber(parts, "from"), seat: viewNumber(parts, "seat") };
  const whatif = (parts.get("whatif") || "").split(",").filter((t) => t);
  return { position, ...numbers, whatif: whatif.length ? whatif : null };
}
