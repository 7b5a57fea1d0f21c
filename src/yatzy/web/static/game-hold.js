// The game's last write is held on the page: drawn as written (the server's preview
// of the sheets, POST .../preview), with Undo, until the player ends the game; only
// then is it sent.  So a mis-tap on the last box is taken back before anything of the
// game's end happens (its record, ratings, the dice's seed), and nobody else ever
// sees it.  The server says when a write would end the game (turn.ends_game; never
// in a rated game, which takes nothing back).  With people on several devices it is
// held for the server's undo grace only (turn.hold_for seconds), then sent by itself,
// so that one who closes the tab never holds the others up; closing the page sends it
// too (the write stands, as on End the game).
import { $, url, gameId, state, t, boxOf, focusInPlay } from "./game-state.js";
import { api, act, refused } from "./game-net.js";
import { render } from "./game-render.js";

const ENTRY_KEYS = ["score", "scratch", "write"];

// The boxes a write fills: one, or DubbelYatzy's two.
function boxesOf(action) {
  const box = (entry) => ENTRY_KEYS.map((k) => entry[k]).find((b) => b !== undefined);
  return action.inner ? [box(action.inner), box(action.outer)] : [box(action)];
}

// Whether ``action`` is a write that ends the game (the page holds it).
export function holdsLast(action) {
  const turn = state.view && state.view.turn;
  return Boolean(turn && turn.ends_game && turn.hold_for !== 0
    && (action.inner || ENTRY_KEYS.some((k) => k in action)));
}

// The write held now, while the game is still where it was judged (a move by anyone
// else, or a reload, drops it: the write was never sent).
export function heldNow() {
  const held = state.held;
  if (held && state.view && state.view.turn && held.version === state.view.version) return held;
  if (held) { clearTimeout(held.timer); state.held = null; }
  return null;
}

export async function hold(action, seat) {
  if (state.busy) return;
  state.busy = true;
  $("error").textContent = "";
  const body = { action, seat: seat ?? state.view.turn.seat, version: state.view.version };
  try {
    const data = await api("POST", `api/games/${gameId}/preview`, body);
    state.held = { action, seat: body.seat, version: data.version, sheets: data.sheets, totals: data.totals, boxes: boxesOf(action) };
    const seconds = state.view.turn.hold_for;
    if (typeof seconds === "number") state.held.timer = setTimeout(endGame, seconds * 1000);
  } catch (e) {
    refused(e, action);
  } finally {
    state.busy = false;
    if (state.view) render();
  }
  if (heldNow()) focusInPlay($("end-game"));
}

// The player ends the game: the held write is sent (and can no longer be taken back).
export async function endGame() {
  const held = heldNow();
  if (!held) return;
  clearTimeout(held.timer);
  await act(held.action, held.seat, { final: true });
}

// Undo of the held write: nothing was sent, the turn is as it was.
export function undoHeld() {
  const held = heldNow();
  if (held) clearTimeout(held.timer);
  state.held = null;
  render();
  // said aloud too (the status line goes back to the turn's)
  if (held) $("announce").textContent = t("held_undone", { box: held.boxes.map((b) => boxOf(b).name).join(" + ") });
  const box = held && document.querySelector(`button.choose[data-box="${CSS.escape(held.boxes[0])}"]`);
  if (box) focusInPlay(box);
}

// Leaving the page (a closed tab, another address) lets the held write stand: it is
// sent as the page goes (a keepalive request outlives the page).
export function sendHeldOnLeaving() {
  const held = heldNow();
  if (!held) return;
  clearTimeout(held.timer);
  state.held = null;
  fetch(url(`api/games/${gameId}/actions`), {
    method: "POST", keepalive: true, credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ action: held.action, seat: held.seat, version: held.version }),
  }).catch(() => { /* the page is gone: nobody to tell */ });
}
