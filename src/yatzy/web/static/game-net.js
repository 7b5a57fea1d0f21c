// Talking to the server: requests, the game's WebSocket, and taking in its views.
import { root, gameId, $, url, state, t, boxOf } from "./game-state.js";
import { renderChances } from "./game-sheet.js";
import { render } from "./game-render.js";
import { holdsLast, hold } from "./game-hold.js";

export class Refusal extends Error {
  constructor(status, name, detail) { super(detail); this.status = status; this.name = name || "Refused"; }
}

export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(url(path), {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
    });
  } catch (e) {
    throw Object.assign(new Error(t("unreachable")), { offline: true });
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) throw new Refusal(response.status, data.error, typeof data.detail === "string" ? data.detail : "");
  return data;
}

// A refusal in the page's words: the server's reasons are for developers.
// Box and rule names as the sheet and the start page write them, never an id.
export function explain(e, action) {
  if (e.offline) return t("unreachable");
  const entries = !action ? [] : action.inner ? [action.inner, action.outer] : [action];
  const ids = entries.map((a) => a && (a.write || a.score || a.scratch)).filter(Boolean);
  const box = ids[0];
  const names = ids.map((id) => boxOf(id).name).join(" + ");
  const turn = state.view && state.view.turn;
  const allowed = turn ? turn.allowed.map((id) => boxOf(id).name).join(", ") : "";
  switch (e.name) {
    case "ImpossibleScoreError": return t("impossible_points", { points: action.points, box: boxOf(box).name });
    case "DiceError": return t("pad_dice_bad", { n: state.view.num_dice });
    case "LastResortError": {
      const chance = entries.some((a) => a && a.score === "chance");
      return t(chance ? "refused_last_resort_chance" : "refused_last_resort_zero", { box: names, allowed });
    }
    case "OrderError": {
      const rule = turn && turn.order_rule;
      if (!names) return t("order_refused");
      return t(rule ? "refused_" + rule : "refused_not_allowed", { box: names, allowed });
    }
    case "NoRollsLeftError": return t("no_rolls_left");
    case "KeepError": return action && action.roll && action.roll.length >= state.view.num_dice ? t("keep_all_refused") : t("refused_generic");
    case "ConflictError": return t("conflict");
    case "NotYourTurnError": return t("not_your_turn");
    case "SeatError": case "InviteError": return t("seat_refused");
    case "BoxFilledError": return names ? t("box_filled_named", { box: names }) : t("box_filled");
    case "HintsUnavailableError": return t("hints_unavailable");
    case "RatedGameError": return t("rated_refused");
    case "RatedAccountError": return t("rated_account");
    case "NothingWaitsError": return t("nothing_waits");
    case "NothingToChooseError": return t("clock_nothing_to_choose");
    case "NotAPlayerError": return t("clock_not_a_player");
    case "ComputerPlaysError": return t("clock_computer_plays_refused");
    default:
      if (e.status >= 500 || !e.status) return t("unreachable");
      // A scratch refused for its box (Yatzy's boxes that may not be scratched).
      if (action && action.scratch && e.name === "IllegalActionError") return t("not_scratchable", { box: names });
      return t("refused_generic");
  }
}

export function accept(game, mineNow) {
  if (state.view && game.version < state.view.version) return;
  const before = state.view && state.view.turn;
  const now = game.turn;
  if (now && now.dice && (!before || !before.dice || before.rolls_used !== now.rolls_used || before.seat !== now.seat)) {
    state.freshUntil = performance.now() + 450;
  }
  if (mineNow) state.you = Object.assign({}, state.you, mineNow);
  state.prev = state.view;
  state.view = game;
  takeChances(game.win_chances);
  render();
}

// Live win chances come with the view once computed, else later by themselves
// ({"type": "chances"}); the newest ones stay shown, dimmed while a newer move's are
// being computed.
export function takeChances(answer) {
  if (!answer || answer.pending || (state.chances && answer.version < state.chances.version)) return false;
  state.chances = answer;
  return true;
}

export async function load() {
  try {
    const data = await api("GET", `api/games/${gameId}`);
    $("net").hidden = true;
    accept(data, data.you);
    return true;
  } catch (e) {
    if (e.offline) {
      $("net").textContent = t("unreachable_retrying");
      $("net").hidden = false;
      clearTimeout(state.retryTimer);
      state.retryTimer = setTimeout(load, 2000);
    } else $("error").textContent = e.status === 404 ? t("no_such_game") : explain(e);
    return false;
  }
}

// Actions go over the game's WebSocket while it is open (no request per click); the
// answer quotes the action's ref.  Without the socket they are POSTed.
export const waiting = new Map(); // ref -> { resolve, reject, timer }

export function take(ref) {
  const entry = waiting.get(ref);
  if (entry) { waiting.delete(ref); clearTimeout(entry.timer); }
  return entry;
}

export function sendOverSocket(body) {
  return new Promise((resolve, reject) => {
    const ref = ++state.refs;
    const timer = setTimeout(() => take(ref).reject(Object.assign(new Error(t("no_answer")), { offline: true })), 15000);
    waiting.set(ref, { resolve, reject, timer });
    state.socket.send(JSON.stringify(Object.assign({ type: "act", ref }, body)));
  });
}

// ``final``: the held last write, now sent (game-hold.js); any other write that
// would end the game is held on the page first.
// A refusal said on the page; a conflict (the game moved on) loads the game anew.
export function refused(e, action) {
  $("error").textContent = explain(e, action);
  if (e.status === 409) load();
}

export async function act(action, seat, { final = false } = {}) {
  if (state.busy || !state.view || (!state.view.turn && !action.undo)) return;
  if (!final && holdsLast(action)) { await hold(action, seat); return; }
  state.busy = true;
  $("error").textContent = "";
  const body = { action, seat: seat ?? state.view.turn.seat, version: state.view.version };
  const post = () => api("POST", `api/games/${gameId}/actions`, body);
  try {
    let data;
    if (state.socket && state.socket.readyState === WebSocket.OPEN) {
      try {
        data = await sendOverSocket(body);
      } catch (e) {
        // A seat taken in another tab after this socket opened: the request carries
        // today's cookies, and a new socket will too.
        if (e.status !== 403) throw e;
        reconnect();
        data = await post();
      }
    } else data = await post();
    state.scratching = false;
    accept(data, data.you);
  } catch (e) {
    refused(e, action);
  } finally {
    state.busy = false;
    if (state.view) render();
  }
}

export function connect() {
  const address = url(`api/games/${gameId}/ws?chances=1`);
  address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(address);
  state.socket = ws;
  ws.onopen = () => {
    root.dataset.socket = "open";
    $("live").textContent = "● " + t("live");
    $("live").className = "live on";
    $("net").hidden = true;
    // free text between friends: read again what may have come while offline
    if (state.view) document.dispatchEvent(new CustomEvent("yatzy-messages"));
  };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.ref != null) {
      const entry = take(data.ref);
      if (entry) {
        if (data.type === "error") entry.reject(new Refusal(data.status, data.error, data.detail));
        else entry.resolve(data.game);
        return;
      }
    }
    if (data.type === "state") accept(data.game, null);
    else if (data.type === "chances" && takeChances(data.win_chances) && state.view) renderChances();
    else if (data.type === "messages") document.dispatchEvent(new CustomEvent("yatzy-messages"));
  };
  ws.onclose = () => {
    if (state.socket !== ws) return; // replaced by reconnect()
    state.socket = null;
    delete root.dataset.socket;
    for (const ref of [...waiting.keys()]) take(ref).reject(Object.assign(new Error(t("offline")), { offline: true }));
    $("live").textContent = "○ " + t("offline");
    $("live").className = "live off";
    $("net").textContent = t("unreachable_retrying");
    $("net").hidden = false;
    setTimeout(() => { load(); connect(); }, 1500);
  };
}

// A seat claimed after the socket opened is not among the socket's seats (they come
// with its opening request's cookies): open a new one.
export function reconnect() {
  const old = state.socket;
  delete root.dataset.socket;
  connect();
  if (old) old.close();
}
