// The games as the server knows them (GET /api/games: each game's record of atout/games.py and
// its words of atout/present/words.py): its seats and pack, its bids and announcements in their
// order, the contract table's columns, its name, its Excuse's name, its contracts as players
// write them.  The page asks this module, never a game's name: nothing of a game is copied here.
// Read once, before any module that imports this one runs (a module's top-level await).

const answer = await (await fetch("/api/games")).json();

// the games' names, in the order a share link numbers them (docs/format.md)
export const GAMES = answer.games.map((g) => g.name);
const BY_NAME = new Map(answer.games.map((g) => [g.name, g]));

// the record of a game: {name, family, seats, hand_size, outside, bids, objectives, countings,
// columns, ranks, roles, taker_calls, has_dealer, ecart, link_places, pack, signed, words}
export function gameOf(name) { return BY_NAME.get(name); }

// a contract, announcement or column as players write it: "Garde sans", "König ultimo"
// (a name the game's words do not hold: its first letter capitalised, spaces for "_")
export function contractWords(game, name) {
  const words = game && BY_NAME.has(game) ? BY_NAME.get(game).words.contracts : {};
  return words[name] || (name.charAt(0).toUpperCase() + name.slice(1)).replace(/_/g, " ");
}

// a column of the contract table: the French garde's is "Prise/garde"
export function columnWords(game, name) {
  const columns = BY_NAME.has(game) ? BY_NAME.get(game).words.columns : {};
  return columns[name] || contractWords(game, name);
}
