// The game page's state and its words: the page's constants, the one state object
// every part reads and changes, and the small helpers they share.

export const root = document.getElementById("game");
export const gameId = root.dataset.game;
export const words = JSON.parse(root.dataset.words);
// The boxes' and rows' names in the page's language (the viewer's, maybe not the game's).
export const boxWords = JSON.parse(root.dataset.boxes);
export const rowWords = JSON.parse(root.dataset.labels);
export const $ = (id) => document.getElementById(id);
export const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
export const BOX_KEYS = "abcdefghijklmnopqstvwyz"; // r rolls, u undoes, x scratches
export const params = new URLSearchParams(window.location.search);
export const url = (path) => new URL(path, document.baseURI);

// Everything the page changes as the game goes on; the modules share this one object
// (ES modules cannot assign each other's bindings).
export const state = {
  view: null,
  prev: null, // the view before the latest one, to say what changed
  you: { seats: [] },
  kept: new Set(),
  turnKey: null,
  pick: { inner: null, outer: null }, // DubbelYatzy's two results being chosen
  scratching: false,
  busy: false,
  handedTo: null, // hotseat: the seat the device was last handed to
  freshUntil: 0, // until when the dice on the table count as just rolled (they tumble in)
  chances: null, // the newest live win chances received (of this or an earlier version)
  retryTimer: null,
  pendingTimer: null, // asks again for a hint being worked out (game-panels.js)
  socket: null,
  refs: 0,
  partyTimer: null,
  linksDrawn: "",
  analysis: null,
  winAnalysis: null,
  held: null, // the game's last write, held until the player ends the game (game-hold.js)
  armed: null, // tap-to-confirm: the box the first tap chose ("{version}:{box}:{x if scratched}")
  armedText: "",
};

// Tap-to-confirm: a box is written by a second tap on it, the first shows what it
// would write.  Chosen on the page (remembered), on by default on touch screens.
export function tapConfirm() {
  try {
    const saved = localStorage.getItem("yatzy-tap-confirm");
    if (saved !== null) return saved === "1";
  } catch (e) { /* private mode */ }
  return window.matchMedia("(pointer: coarse)").matches;
}

export const lastWrite = new Map(); // seat -> the box it wrote last: marked in the sheet

export const t = (key, vars) => {
  let text = words[key] || key;
  for (const [k, v] of Object.entries(vars || {})) text = text.replaceAll(`{${k}}`, String(v));
  return text;
};

// A computer seat that kept its given name is named in the page's language (a Finnish
// spectator of a game made in English reads "Tietokone (Tavallinen)").
export const seatName = (seat) => {
  const p = state.view.players[seat];
  return (p.names && p.names[document.documentElement.lang]) || p.name;
};
export const boxOf = (id) => {
  const box = state.view.boxes.find((b) => b.id === id) || { id, name: id };
  return Object.assign({}, box, boxWords[id] || {});
};
export const signed = (n) => (n > 0 ? "+" + n : String(n));
// (not while a computer plays the seat for its absent player: see clock.js)
export const mine = () => Boolean(state.view && state.view.turn && state.you.seats.includes(state.view.turn.seat)
  && !(state.view.clock && state.view.clock.computer.includes(state.view.turn.seat)));
export const spectator = () => state.you.seats.length === 0;

// The phone's tray is stuck to the bottom of the screen, so its controls are always in
// view: focusing one must not scroll the page, which html's scroll-padding-bottom (there
// to keep a focused box above the tray) would otherwise do, hiding the sheet's top rows.
export function focusInPlay(node) {
  node.focus({ preventScroll: Boolean(node.closest(".tray")) });
}
