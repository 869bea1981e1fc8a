// The deal editor: a player's own deal entered by hand — the game, the cards of each hand
// as dealt and those outside them, who leads, the bidding — then shown in the viewer, where
// the play is clicked in card by card (the recording: viewer.js and recordCard below).
// Every check is the server's (/api/draft, atout/draft.py): it says what is wrong, with the
// field and the reason shown beside it, what is still to enter, and which choices the rules
// leave for the next step; nothing of the rules is written here.  The draft is kept in this
// browser (localStorage) at every change, so a reload loses nothing.
import { state, $, el, plural, setEditing } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { cardEl, cardName, withCardText } from "./cards.js";
import { gameName } from "./table.js";
import { emit } from "./events.js";
import { GAMES, contractWords, gameOf } from "./games.js";

const DRAFT_KEY = "atout-draft";
const OPEN_KEY = "atout-editor-open";

const ed = {
  draft: null,       // what the player entered (atout/draft.py's draft)
  check: null,       // the server's answer for it
  target: "hands[0]",  // where a card clicked in the pack goes (null: a card is picked first)
  picked: null,      // a card picked in the pack while no target is active
  queue: Promise.resolve(),   // the requests to the server, one after another
  waiting: 0,        // how many of them are not answered yet
  replay: null,      // the changes made while a typed hand or a deal of the rest is on its way
  focusCard: null,   // the pack's card that takes the keyboard focus (roving tab stop)
  typed: {},         // what was typed into a hand and sent, not yet answered
};

function emptyDraft(game) {
  return { game, hands: [], outside: [], first: null, contract: null, played: [] };
}

function keep() {
  try { localStorage.setItem(DRAFT_KEY, JSON.stringify(ed.draft)); } catch (e) { /* storage full or off */ }
}

function kept() {
  try { return JSON.parse(localStorage.getItem(DRAFT_KEY) || "null"); } catch (e) { return null; }
}

export function editorOpen() { return !$("editor").hidden; }

// the editor shown (the table and its panels hidden, but "who could have made what", then
// of the deal being entered) or closed
function show(open) {
  $("editor").hidden = !open;
  $("main").hidden = open;
  $("open-editor").setAttribute("aria-expanded", String(open));
  try { localStorage.setItem(OPEN_KEY, open ? "1" : ""); } catch (e) { /* kept for this page only */ }
  tableSubject();
}

// the deal the contract table below the editor is of: the deal as dealt once every card is
// placed (the position once the bidding is in, for the verdict on the contract played)
function tableSubject() {
  const ch = ed.check;
  const deal = $("editor").hidden || !ch ? null : ch.position || ch.deal || null;
  const before = state.editing;
  setEditing($("editor").hidden ? null : {
    deal,
    note: deal ? "Of the deal being entered" + (ch.position ? ", as bid" : ", as dealt (no contract yet)") + "."
               : "The table of the deal being entered is worked out once every card is placed.",
  });
  if (JSON.stringify(before) !== JSON.stringify(state.editing)) emit("editing-changed");
}

// "Enter a deal": the draft kept in this browser, or a new one; from: a position or a deal
// as dealt opened for editing instead (the deal shown, a file's deal as dealt)
export async function openEditor(from) {
  show(true);
  if (from) {
    const r = await post("/api/draft", { position: from });
    if (!r.ok) $("ed-status").textContent = fieldMessage(r.data);
    if (r.ok) {
      ed.draft = r.data.draft;
      ed.draft.played = ed.draft.played || [];
      ed.check = r.data.check;
      ed.target = null;
      keep();
      draw();
      return;
    }
  }
  if (!ed.draft) ed.draft = kept() || emptyDraft(GAMES[0]);      // (the first game a link numbers)
  await refresh();
  $("ed-game").focus();
}

export function closeEditor() { show(false); }

// reopened after a reload where it was open
export function reopenEditor() {
  let open = "";
  try { open = localStorage.getItem(OPEN_KEY) || ""; } catch (e) { open = ""; }
  if (open) openEditor(null);
}

// The server's check of the draft, and what typing a hand or dealing the rest changes: one
// request at a time.  A player's change is made on the page at once; its check follows, and
// only the answer to the newest draft is drawn (an older one would put back what the player
// has changed since).  A change made while a hand typed or the rest dealt is on its way is
// made again on the draft that comes back.  The editor's data-busy: requests under way.
function refresh(extra) {
  ed.waiting += 1;
  $("editor").dataset.busy = "1";
  ed.queue = ed.queue.then(async () => {
    if (extra) ed.replay = [];
    let r;
    try {
      r = await post("/api/draft", Object.assign({ draft: ed.draft }, extra || {}));
    } finally {
      const replay = ed.replay || [];
      ed.replay = null;
      if (r && r.ok && extra) {
        ed.draft = r.data.draft;
        for (const update of replay) update(ed.draft);
      }
    }
    if (!r.ok) { $("ed-status").textContent = fieldMessage(r.data); return; }
    if (ed.waiting > 1 && !r.data.typed_error) return;     // a newer draft's check is coming
    ed.check = r.data.check;
    keep();
    draw();
    if (r.data.typed_error) showTyped(r.data.typed_error);
  }).catch((e) => {
    $("ed-status").textContent = "The server did not answer (" + e.message + ").";
  }).finally(() => {
    ed.waiting -= 1;
    if (!ed.waiting) $("editor").dataset.busy = "";
  });
  return ed.queue;
}

// a change of the player's: made on the page at once, its check follows
function change(update) {
  update(ed.draft);
  if (ed.replay) ed.replay.push(update);
  keep();
  drawCards();
  return refresh(null);
}

// -- where each card is -----------------------------------------------------------------

function seats() { return ed.check ? ed.check.seats : 4; }

function targets() {
  const list = [];
  for (let s = 0; s < seats(); s++) list.push("hands[" + s + "]");
  list.push("outside");
  return list;
}

function cardsAt(target) {
  if (target === "outside") return ed.draft.outside || [];
  const s = Number(target.slice(6, -1));
  ed.draft.hands = ed.draft.hands || [];
  while (ed.draft.hands.length < seats()) ed.draft.hands.push([]);
  return ed.draft.hands[s];
}

function sizeOf(target) { return target === "outside" ? ed.check.outside_size : ed.check.hand_size; }

function whereIs(token) { return targets().find((t) => cardsAt(t).includes(token)) || null; }

function targetName(target) {
  if (target === "outside") return ed.draft ? "The " + gameOf(ed.draft.game).words.outside : "Outside the hands";
  return "Seat " + target.slice(6, -1);
}

function shortName(target) {
  if (target === "outside") return { dog: "dog", open: "open", talon: "talon" }[ed.check.outside_field];
  return "seat " + target.slice(6, -1);
}

function place(token, target) {
  change((d) => {
    const from = whereIs(token);
    if (from) cardsAt(from).splice(cardsAt(from).indexOf(token), 1);
    if (target && from !== target) {
      if (target === "outside") d.outside = d.outside || [];
      cardsAt(target).push(token);
    }
    // a full target hands the clicks on to the next one that is not
    if (ed.target && cardsAt(ed.target).length >= sizeOf(ed.target)) {
      ed.target = targets().find((t) => cardsAt(t).length < sizeOf(t)) || null;
    }
  });
}

function packCardClicked(token) {
  if (ed.target) { place(token, ed.target); return; }
  ed.picked = ed.picked === token ? null : token;      // a card, then where it goes
  drawCards();
}

function targetClicked(target) {
  if (ed.picked) {
    const token = ed.picked;
    ed.picked = null;
    place(token, target);
    return;
  }
  ed.target = ed.target === target ? null : target;
  drawCards();
}

// -- drawing ----------------------------------------------------------------------------

function draw() {
  if (!ed.check) return;
  // the control with the keyboard's focus is drawn anew: the focus stays on its new self
  const focused = document.activeElement && document.activeElement.id;
  $("ed-game").value = ed.draft.game;
  drawCards();
  drawLeader();
  drawBidding();
  drawStatus();
  tableSubject();
  const again = focused && document.getElementById(focused);
  if (again && again !== document.activeElement && !$("editor").hidden) again.focus();
}

function problemFor(field) {
  const all = (ed.check.problems || []);
  return all.find((p) => p.field === field) || all.find((p) => p.field.startsWith(field + "[")) || null;
}

function todoFor(field) { return (ed.check.todo || []).find((p) => p.field === field) || null; }

function drawCards() {
  const box = $("ed-targets");
  box.replaceChildren();
  for (const target of targets()) box.append(targetEl(target));
  drawTargetBar();
  drawPack();
}

// where the pack's cards go: one button a hand (and the cards outside), beside the pack
function drawTargetBar() {
  const bar = $("ed-target-bar");
  bar.replaceChildren(el("span", "ed-label", ed.picked ? "Put " + cardName(ed.picked) + " into:" : "Cards go into:"));
  for (const target of targets()) {
    const cards = cardsAt(target);
    const b = el("button", "ed-name" + (ed.target === target ? " active" : ""));
    b.id = "ed-to-" + target;
    b.type = "button";
    b.dataset.target = target;
    b.setAttribute("aria-pressed", String(ed.target === target));
    b.append(el("span", null, shortName(target)), el("span", "ed-count" + (cards.length === sizeOf(target) ? " full" : ""), " " + cards.length + "/" + sizeOf(target)));
    b.title = ed.picked ? "put the card picked here" : ed.target === target ? "click again: pick a card first, then where it goes" : "the pack's cards clicked go here";
    b.addEventListener("click", () => targetClicked(target));
    bar.append(b);
  }
}

// a hand as a player sorts it (the server's order), whatever the order it was entered in
function sorted(cards) {
  const order = ed.check.player_order || [];
  return cards.slice().sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

function targetEl(target) {
  const cards = cardsAt(target);
  const size = sizeOf(target);
  const row = el("div", "ed-target" + (ed.target === target ? " active" : ""));
  row.dataset.target = target;
  const head = el("div", "ed-target-head");
  head.append(el("strong", null, targetName(target)), el("span", "ed-count" + (cards.length === size ? " full" : ""), " " + cards.length + "/" + size));
  row.append(head);
  const hand = el("div", "ed-cards");
  for (const token of sorted(cards)) {
    const b = el("button", "ed-card");
    b.type = "button";
    b.dataset.card = token;
    b.append(cardEl(token));
    b.title = "back to the pack: " + cardName(token);
    b.setAttribute("aria-label", cardName(token) + ", " + shortName(target) + ": back to the pack");
    b.addEventListener("click", () => place(token, null));
    hand.append(b);
  }
  row.append(hand);
  const typed = el("input", "ed-type");
  typed.id = "ed-type-" + target;
  typed.type = "text";
  typed.spellcheck = false;
  typed.autocomplete = "off";
  typed.value = sorted(cards).join(" ");
  typed.placeholder = "or type them: KS QH 10D T21 EX …";
  typed.setAttribute("aria-label", targetName(target) + ": its cards, typed (KS QH 10D T21 EX)");
  typed.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); typeInto(target, typed.value); } });
  typed.addEventListener("change", () => typeInto(target, typed.value));
  row.append(typed);
  const problem = problemFor(target);
  const note = el("div", "ed-problem", problem ? withCardText(problem.reason) : "");
  note.dataset.field = target;
  note.setAttribute("role", "alert");
  note.hidden = !problem;
  row.append(note);
  if (problem) row.classList.add("wrong");
  return row;
}

// (Enter and the change as the field is left both send it: once is enough)
function typeInto(target, text) {
  if (text.trim() === sorted(cardsAt(target)).join(" ") || ed.typed[target] === text) return;
  ed.typed[target] = text;
  refresh({ typed: { to: target, text } }).then(() => { delete ed.typed[target]; });
}

function showTyped(error) {
  const note = document.querySelector('.ed-problem[data-field="' + error.field + '"]');
  if (!note) return;
  note.textContent = error.reason;       // (its card codes are what the player typed)
  note.hidden = false;
  note.closest(".ed-target").classList.add("wrong");
}

// the pack by suit, each card a button; placed cards say where they are
function drawPack() {
  const pack = $("ed-pack");
  // the keyboard's focus in the pack stays on its card, drawn anew
  const refocus = document.activeElement && document.activeElement.closest && document.activeElement.closest("#ed-pack");
  pack.replaceChildren();
  const rows = new Map();
  for (const token of ed.check.pack) {
    const group = token === "EX" || token[0] === "T" ? "T" : token.slice(-1);
    if (!rows.has(group)) { const r = el("div", "ed-pack-row"); r.setAttribute("role", "group"); rows.set(group, r); pack.append(r); }
    const where = whereIs(token);
    const b = el("button", "ed-card" + (where ? " placed" : "") + (ed.picked === token ? " picked" : ""));
    b.type = "button";
    b.dataset.card = token;
    b.tabIndex = -1;
    b.append(cardEl(token));
    if (where) b.append(el("span", "ed-where", shortName(where)));
    b.setAttribute("aria-label", cardName(token) + (where ? ", at " + shortName(where) : ", not placed"));
    b.addEventListener("click", () => { ed.focusCard = token; packCardClicked(token); });
    rows.get(group).append(b);
  }
  const focus = ed.focusCard && pack.querySelector('[data-card="' + ed.focusCard + '"]');
  (focus || pack.querySelector(".ed-card")).tabIndex = 0;
  if (refocus && focus) focus.focus();
  const left = ed.check.unplaced.length;
  $("ed-pack-note").textContent = left
    ? plural(left, "card") + " not placed yet. " + (ed.target ? "A card clicked goes to " + targetName(ed.target).toLowerCase() + "." : ed.picked ? "Now click where it goes." : "Click a card, then where it goes — or click a hand's name, then its cards.")
    : "Every card is placed.";
  $("ed-fill").disabled = !left;
  $("ed-from-shown").disabled = !state.deal;
}

// the pack with the arrow keys: one tab stop, ← → within a suit, ↑ ↓ between suits
function packKeys(e) {
  const card = e.target.closest(".ed-card");
  if (!card) return;
  const rows = [...$("ed-pack").querySelectorAll(".ed-pack-row")];
  const row = card.parentElement;
  const r = rows.indexOf(row);
  const i = [...row.children].indexOf(card);
  let next = null;
  if (e.key === "ArrowRight") next = row.children[i + 1];
  else if (e.key === "ArrowLeft") next = row.children[i - 1];
  else if (e.key === "ArrowDown" && rows[r + 1]) next = rows[r + 1].children[Math.min(i, rows[r + 1].children.length - 1)];
  else if (e.key === "ArrowUp" && rows[r - 1]) next = rows[r - 1].children[Math.min(i, rows[r - 1].children.length - 1)];
  if (!next) return;
  e.preventDefault();
  card.tabIndex = -1;
  next.tabIndex = 0;
  ed.focusCard = next.dataset.card;
  next.focus();
}

function option(value, text) {
  const o = el("option", null, text);
  o.value = value;
  return o;
}

function select(id, label, choices, value, onChange, field) {
  const wrap = el("label", "ed-field");
  wrap.append(el("span", null, label));
  const s = el("select");
  s.id = id;
  for (const [v, t] of choices) s.append(option(v, t));
  s.value = value === null || value === undefined ? "" : String(value);
  s.addEventListener("change", () => onChange(s.value));
  wrap.append(s);
  return fieldNote(wrap, field);
}

function checkbox(id, label, checked, onChange, field) {
  const wrap = el("label", "ed-field ed-check");
  const c = el("input");
  c.type = "checkbox";
  c.id = id;
  c.checked = !!checked;
  c.addEventListener("change", () => onChange(c.checked));
  wrap.append(c, el("span", null, label));
  return fieldNote(wrap, field);
}

// a control and, under it, what is wrong with its field (or still to give)
function fieldNote(control, field) {
  const box = el("div", "ed-control");
  box.append(control);
  const problem = field && problemFor(field);
  const todo = field && todoFor(field);
  if (problem || todo) {
    const note = el("div", problem ? "ed-problem" : "ed-todo", withCardText((problem || todo).reason));
    note.dataset.field = field;
    if (problem) { note.setAttribute("role", "alert"); box.classList.add("wrong"); }
    box.append(note);
  }
  return box;
}

const seatChoices = (list, none) => [["", none]].concat(list.map((s) => [String(s), "Seat " + s]));
const toSeat = (v) => (v === "" ? null : Number(v));

function drawLeader() {
  const box = $("ed-leader");
  box.replaceChildren();
  const all = [...Array(seats()).keys()];
  if (gameOf(ed.draft.game).has_dealer) {
    box.append(select("ed-dealer", "Dealer (the seat after it leads)", seatChoices(all, "— who dealt —"), ed.draft.dealer,
                      (v) => change((d) => { d.dealer = toSeat(v); }), "dealer"));
  } else {
    box.append(select("ed-first", "Leads the first trick", seatChoices(all, "— who leads —"), ed.draft.first,
                      (v) => change((d) => { d.first = toSeat(v); }), "first"));
  }
}

function contract() {
  if (!ed.draft.contract) ed.draft.contract = {};
  return ed.draft.contract;
}

function setContract(key, value) {
  change(() => {
    const c = contract();
    if (value === null || value === "" || value === false) delete c[key]; else c[key] = value;
  });
}

// the bidding: the choices the server's rules leave (check.options), by game
function drawBidding() {
  const box = $("ed-bidding");
  box.replaceChildren();
  const stage = ed.check.stage;
  $("ed-bidding-step").hidden = stage === "cards";
  if (stage === "cards") return;
  const o = ed.check.options || {};
  const c = ed.draft.contract || {};
  const game = ed.draft.game;
  BIDDING[gameOf(game).family](box, o, c, game);
}

// each rulebook's bidding: box gets its controls, from the server's options o and the contract c
const BIDDING = {
  french(box, o, c, game) {
    box.append(select("ed-taker", "Taker", seatChoices(o.taker, "— who took —"), c.taker, (v) => setContract("taker", toSeat(v)), "contract.taker"));
    box.append(select("ed-bid", "Bid", [["", "— the bid —"]].concat(o.bid.map((b) => [b, contractWords(game, b)])), c.bid, (v) => setContract("bid", v), "contract.bid"));
    if (o.called) box.append(select("ed-called", "Card called", [["", "— the card called —"]].concat(o.called.map((t) => [t, cardName(t)])), c.called, (v) => setContract("called", v), "contract.called"));
    if (o.ecart) box.append(ecartEl(o, c));
    if (c.taker !== undefined && c.bid) {
      box.append(checkbox("ed-chelem", "The taker announced a chelem (and leads)", c.chelem, (v) => setContract("chelem", v), "contract.chelem"));
      if (o.poignee) box.append(poigneesEl(o, c));
    }
  },
  priestertarock(box, o, c) {
    box.append(select("ed-caller", "Caller (first to say “Chiamo”)", seatChoices(o.caller, "— who called —"), c.caller, (v) => setContract("caller", toSeat(v)), "contract.caller"));
    const called = c.alone ? "alone" : c.called;
    box.append(select("ed-called", "Card called", [["", "— the card called —"], ["alone", "none: plays alone"]].concat(o.called.map((t) => [t, cardName(t)])), called,
      (v) => change(() => { const k = contract(); delete k.called; delete k.alone; if (v === "alone") k.alone = true; else if (v) k.called = v; }), "contract.called"));
  },
  austrian(box, o, c, game) {
    box.append(select("ed-bid", "Game", [["", "— the game —"]].concat(o.bid.map((b) => [b, contractWords(game, b)])), c.bid, (v) => setContract("bid", v), "contract.bid"));
    if (c.bid === "trischaken") {
      box.append(select("ed-for-seat", "Analysed seat", seatChoices([0, 1, 2, 3], "— whose points —"), c.for_seat, (v) => setContract("for_seat", toSeat(v)), "contract.for_seat"));
      box.append(checkbox("ed-von-oben", "Von oben (a leader with tarock leads its highest)", c.von_oben, (v) => setContract("von_oben", v), "contract.von_oben"));
    } else if (c.bid) {
      box.append(select("ed-declarer", "Declarer", seatChoices(o.declarer, "— who declared —"), c.declarer, (v) => setContract("declarer", toSeat(v)), "contract.declarer"));
      if (o.called) box.append(select("ed-called", "King called", [["", "— the king called —"]].concat(o.called.map((t) => [t, cardName(t)])), c.called, (v) => setContract("called", v), "contract.called"));
      if (c.declarer !== undefined && (!o.called || c.called)) box.append(sideEl(c, o));
      if (o.objective) box.append(select("ed-objective", "Played for", [["", "the game"]].concat(o.objective.filter((x) => x !== "contract").map((x) => [x, contractWords(game, x)])), c.objective, (v) => setContract("objective", v), "contract.objective"));
    }
    const countings = gameOf(game).words.countings;
    if (c.bid) box.append(select("ed-counting", "Counting", o.counting.map((k) => [k, countings[k]]), c.counting || "seed", (v) => setContract("counting", v === "seed" ? null : v), "contract.counting"));
  },
};

// the écart: chosen among the cards the taker may put aside (the server's options)
function ecartEl(o, c) {
  const chosen = c.ecart || [];
  const box = el("div", "ed-control ed-ecart");
  box.append(el("div", "ed-label", "The écart: " + plural(chosen.length, "card") + " of " + o.ecart_size + " chosen (the taker's cards and the dog that may go)"));
  const row = el("div", "ed-cards");
  for (const token of sorted(o.ecart)) {
    const b = el("button", "ed-card" + (chosen.includes(token) ? " chosen" : ""));
    b.id = "ed-ecart-" + token;
    b.type = "button";
    b.dataset.card = token;
    b.setAttribute("aria-pressed", String(chosen.includes(token)));
    b.setAttribute("aria-label", cardName(token) + (chosen.includes(token) ? ", in the écart" : ""));
    b.append(cardEl(token));
    b.addEventListener("click", () => change(() => {
      const k = contract();
      const list = (k.ecart || []).slice();
      const i = list.indexOf(token);
      if (i >= 0) list.splice(i, 1); else list.push(token);
      k.ecart = list;
    }));
    row.append(b);
  }
  box.append(row);
  if (c.dog_unknown) box.append(el("div", "meaning", "The dog as dealt is not known: the cards outside the hands are the écart."));
  return fieldNote(box, "contract.ecart");
}

function poigneesEl(o, c) {
  const box = el("div", "ed-poignees");
  const declared = c.poignees || [];
  for (let s = 0; s < seats(); s++) {
    const levels = o.poignee[String(s)] || [];
    if (!levels.length && !declared.some((p) => p.seat === s)) continue;
    const i = declared.findIndex((p) => p.seat === s);
    box.append(select("ed-poignee-" + s, "Seat " + s + "'s poignée", [["", "none"]].concat(levels.map((l) => [l, l])),
      i >= 0 ? declared[i].level : "",
      (v) => change(() => {
        const k = contract();
        const list = (k.poignees || []).filter((p) => p.seat !== s);
        if (v) list.push({ seat: s, level: v });
        list.sort((a, b) => a.seat - b.seat);
        if (list.length) k.poignees = list; else delete k.poignees;
      }), i >= 0 ? "contract.poignees[" + i + "]" : null));
  }
  return box;
}

// the Austrian talon: the seat each of the six cards outside the hands lies under (the seat
// that laid it away, or one of the camp it counts for); the server offers a split its rules
// accept (options.side_default)
function sideEl(c, o) {
  const box = el("div", "ed-control ed-side");
  box.append(el("div", "ed-label", "The talon and what was laid away: under which seat each card lies (it counts for that seat's camp)"));
  const side = c.side || {};
  const roles = o.roles || {};
  for (const token of ed.draft.outside) {
    const wrap = el("label", "ed-field");
    wrap.append(cardEl(token));
    const s = el("select");
    s.id = "ed-side-" + token;
    s.dataset.card = token;
    s.setAttribute("aria-label", cardName(token) + " lies under");
    s.append(option("", "—"));
    for (let seat = 0; seat < 4; seat++) s.append(option(String(seat), "seat " + seat + (roles[seat] ? " (" + roles[seat] + ")" : "")));
    s.value = side[token] === undefined ? "" : String(side[token]);
    s.addEventListener("change", () => change(() => {
      const k = contract();
      k.side = Object.assign({}, k.side || {});
      if (s.value === "") delete k.side[token]; else k.side[token] = Number(s.value);
    }));
    wrap.append(s);
    box.append(wrap);
  }
  if (o.side_default) {
    const b = el("button", null, "A split the rules allow");
    b.type = "button";
    b.id = "ed-side-default";
    b.title = "each card under a seat as this game's talon rules allow";
    b.addEventListener("click", () => change(() => { contract().side = Object.assign({}, o.side_default); }));
    box.append(b);
  }
  return fieldNote(box, "contract.side");
}

function drawStatus() {
  const ch = ed.check;
  const steps = { cards: 1, contract: 2, play: 3 };
  for (const [stage, n] of Object.entries(steps)) {
    const step = $("ed-step-" + stage);
    step.classList.toggle("current", ch.stage === stage);
    step.classList.toggle("done", steps[ch.stage] > n);
  }
  const status = $("ed-status");
  status.className = "ed-status" + (ch.problems.length ? " wrong" : "");
  if (ch.problems.length) {
    status.replaceChildren(el("strong", null, plural(ch.problems.length, "thing") + " to put right: "));
    const ul = el("ul");
    for (const p of ch.problems) ul.append(el("li", null, p.field + ": " + withCardText(p.reason)));
    status.append(ul);
  } else if (ch.stage === "cards") {
    status.textContent = "Next: " + ch.todo.map((t) => t.field.replace("hands[", "seat ").replace("]", "") + " — " + t.reason).slice(0, 3).join("; ") + (ch.todo.length > 3 ? "; …" : "") + ".";
  } else if (ch.stage === "contract") {
    status.textContent = "The cards are all placed. " + (ch.todo.length ? "Next: " + ch.todo[0].reason + "." : "");
  } else {
    const played = (ed.draft.played || []).length;
    status.textContent = "The deal is complete" + (played ? " with " + plural(played, "card") + " played" : "") +
      ": show it, and click in the play card by card; or save it.";
  }
  const ready = ch.stage === "play" && !ch.problems.length;
  $("ed-show").disabled = !ready;
  $("ed-record").disabled = !ready || ch.finished;
  $("ed-save").disabled = !ready && !ch.deal;
  $("ed-save").textContent = ready ? "Save (.jsonl)" : "Save the deal as dealt (.jsonl)";
}

// -- the actions ------------------------------------------------------------------------

async function chooseGame(game) {
  if (game === ed.draft.game) return;
  const placed = targets().some((t) => cardsAt(t).length);
  if (placed && !window.confirm("Start a " + gameName(game) + " deal? The cards placed so far are cleared.")) {
    $("ed-game").value = ed.draft.game;
    return;
  }
  ed.draft = emptyDraft(game);
  ed.target = "hands[0]";
  ed.picked = null;
  await refresh();
}

function startAgain() {
  if (!window.confirm("Clear this deal and start again?")) return;
  ed.draft = emptyDraft(ed.draft.game);
  ed.target = "hands[0]";
  ed.picked = null;
  refresh();
}

function dealRest() {
  refresh({ fill: true, seed: Math.floor(Math.random() * 1e9) });
}

// the deal in the viewer: as a deal of the list (kept in this browser), recording its play
function showInViewer(recording) {
  const position = ed.check.position;
  emit("deal-entered", Object.assign({}, position, { played: ed.draft.played || [] }), recording);
  show(false);
}

function save() {
  const obj = ed.check.position ? Object.assign({}, ed.check.position, { played: ed.draft.played || [] }) : ed.check.deal;
  const blob = new Blob([JSON.stringify(obj) + "\n"], { type: "application/x-ndjson" });
  const a = el("a");
  a.href = URL.createObjectURL(blob);
  a.download = (obj.id ? String(obj.id).replace(/[^A-Za-z0-9._-]+/g, "_") : "deal-" + obj.game) + ".jsonl";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// the play clicked in on the table: kept with the draft too
export function keepPlayed(played) {
  if (!ed.draft) ed.draft = kept();
  if (!ed.draft) return;
  ed.draft.played = played.slice();
  keep();
}

export function wireEditor() {
  const game = $("ed-game");
  game.replaceChildren(...GAMES.map((g) => option(g, gameName(g))));
  game.addEventListener("change", () => chooseGame(game.value));
  $("ed-fill").addEventListener("click", dealRest);
  $("ed-clear").addEventListener("click", startAgain);
  $("ed-show").addEventListener("click", () => showInViewer(false));
  $("ed-record").addEventListener("click", () => showInViewer(true));
  $("ed-save").addEventListener("click", save);
  $("ed-close").addEventListener("click", () => show(false));
  $("ed-pack").addEventListener("keydown", packKeys);
  $("ed-from-shown").addEventListener("click", () => {
    if (!state.deal) return;
    if (targets().some((t) => cardsAt(t).length) && !window.confirm("Replace this deal with the one shown in the viewer?")) return;
    openEditor(Object.assign({}, state.deal, { played: state.real }));
  });
}
