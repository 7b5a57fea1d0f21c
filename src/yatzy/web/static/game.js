// The game screen: renders the server's view and sends the player's choices.
// Every rule (what may be scored, the points, whose turn, the sums) comes from the
// server; this module only draws it, keeps the dice the player picks until the roll,
// and asks before a zero that the dice would not need.
import { drawChances, percentText, showChances } from "./chances.js";
import { renderHint, renderAnalysis, renderWinAnalysis } from "./insight.js";
import { beep, confirmAsk, el, parsePadDice } from "./widgets.js";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const words = JSON.parse(root.dataset.words);
// The boxes' and rows' names in the page's language (the viewer's, maybe not the game's).
const boxWords = JSON.parse(root.dataset.boxes);
const rowWords = JSON.parse(root.dataset.labels);
const $ = (id) => document.getElementById(id);
const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const BOX_KEYS = "abcdefghijklmnopqstvwyz"; // r rolls, u undoes, x scratches
const params = new URLSearchParams(window.location.search);
const url = (path) => new URL(path, document.baseURI);

let view = null;
let prev = null; // the view before the latest one, to say what changed
let you = { seats: [] };
let kept = new Set();
let turnKey = null;
let pick = { inner: null, outer: null }; // DubbelYatzy's two results being chosen
let scratching = false;
let busy = false;
let handedTo = null; // hotseat: the seat the device was last handed to
const lastWrite = new Map(); // seat -> the box it wrote last: marked in the sheet
let freshUntil = 0; // until when the dice on the table count as just rolled (they tumble in)
let chances = null; // the newest live win chances received (of this or an earlier version)

const t = (key, vars) => {
  let text = words[key] || key;
  for (const [k, v] of Object.entries(vars || {})) text = text.replaceAll(`{${k}}`, String(v));
  return text;
};


const seatName = (seat) => view.players[seat].name;
const boxOf = (id) => {
  const box = view.boxes.find((b) => b.id === id) || { id, name: id };
  return Object.assign({}, box, boxWords[id] || {});
};
const signed = (n) => (n > 0 ? "+" + n : String(n));
const mine = () => Boolean(view && view.turn && you.seats.includes(view.turn.seat));
const spectator = () => you.seats.length === 0;

// -- talking to the server -----------------------------------------------------------------

class Refusal extends Error {
  constructor(status, name, detail) { super(detail); this.status = status; this.name = name || "Refused"; }
}

async function api(method, path, body) {
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
function explain(e, action) {
  if (e.offline) return t("unreachable");
  const box = action && (action.write || action.score || action.scratch);
  switch (e.name) {
    case "ImpossibleScoreError": return t("impossible_points", { points: action.points, box: boxOf(box).name });
    case "DiceError": return t("pad_dice_bad", { n: view.num_dice });
    case "OrderError": return t("order_refused");
    case "ConflictError": return t("conflict");
    case "NotYourTurnError": return t("not_your_turn");
    case "SeatError": case "InviteError": return t("seat_refused");
    case "BoxFilledError": return t("box_filled");
    default: return e.status >= 500 || !e.status ? t("unreachable") : t("refused_generic");
  }
}

function accept(game, mineNow) {
  if (view && game.version < view.version) return;
  const before = view && view.turn;
  const now = game.turn;
  if (now && now.dice && (!before || !before.dice || before.rolls_used !== now.rolls_used || before.seat !== now.seat)) {
    freshUntil = performance.now() + 450;
  }
  if (mineNow) you = Object.assign({}, you, mineNow);
  prev = view;
  view = game;
  takeChances(game.win_chances);
  render();
}

// Live win chances come with the view once computed, else later by themselves
// ({"type": "chances"}); the newest ones stay shown, dimmed while a newer move's are
// being computed.
function takeChances(answer) {
  if (!answer || answer.pending || (chances && answer.version < chances.version)) return false;
  chances = answer;
  return true;
}

let retryTimer = null;
async function load() {
  try {
    const data = await api("GET", `api/games/${gameId}`);
    $("net").hidden = true;
    accept(data, data.you);
    return true;
  } catch (e) {
    if (e.offline) {
      $("net").textContent = t("unreachable_retrying");
      $("net").hidden = false;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(load, 2000);
    } else $("error").textContent = e.status === 404 ? t("no_such_game") : explain(e);
    return false;
  }
}

// Actions go over the game's WebSocket while it is open (no request per click); the
// answer quotes the action's ref.  Without the socket they are POSTed.
let socket = null;
let refs = 0;
const waiting = new Map(); // ref -> { resolve, reject, timer }

function take(ref) {
  const entry = waiting.get(ref);
  if (entry) { waiting.delete(ref); clearTimeout(entry.timer); }
  return entry;
}

function sendOverSocket(body) {
  return new Promise((resolve, reject) => {
    const ref = ++refs;
    const timer = setTimeout(() => take(ref).reject(Object.assign(new Error(t("no_answer")), { offline: true })), 15000);
    waiting.set(ref, { resolve, reject, timer });
    socket.send(JSON.stringify(Object.assign({ type: "act", ref }, body)));
  });
}

async function act(action, seat) {
  if (busy || !view || (!view.turn && !action.undo)) return;
  busy = true;
  $("error").textContent = "";
  const body = { action, seat: seat ?? view.turn.seat, version: view.version };
  const post = () => api("POST", `api/games/${gameId}/actions`, body);
  try {
    let data;
    if (socket && socket.readyState === WebSocket.OPEN) {
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
    scratching = false;
    accept(data, data.you);
  } catch (e) {
    $("error").textContent = explain(e, action);
    if (e.status === 409) load();
  } finally {
    busy = false;
    if (view) render();
  }
}

function connect() {
  const address = url(`api/games/${gameId}/ws?chances=1`);
  address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(address);
  socket = ws;
  ws.onopen = () => {
    root.dataset.socket = "open";
    $("live").textContent = "● " + t("live");
    $("live").className = "live on";
    $("net").hidden = true;
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
    else if (data.type === "chances" && takeChances(data.win_chances) && view) renderChances();
  };
  ws.onclose = () => {
    if (socket !== ws) return; // replaced by reconnect()
    socket = null;
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
function reconnect() {
  const old = socket;
  delete root.dataset.socket;
  connect();
  if (old) old.close();
}

// -- the kept dice survive a reload (they are the page's until the roll) ---------------------

const keptKey = () => `yatzy-kept-${gameId}`;
const turnStamp = () => `${view.turn.number}:${view.turn.seat}:${view.turn.rolls_used}`;

function saveKept() {
  try { sessionStorage.setItem(keptKey(), JSON.stringify({ stamp: turnStamp(), kept: [...kept] })); } catch (e) { /* private mode */ }
}

function restoreKept() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(keptKey()) || "null");
    if (saved && saved.stamp === turnStamp()) kept = new Set(saved.kept);
  } catch (e) { /* nothing saved */ }
}

// -- what changed: the written cell, said aloud to everyone ---------------------------------

function announceChanges() {
  if (!prev || prev.id !== view.id) return;
  const said = [];
  let party = null;
  view.sheets.forEach((sheet, seat) => {
    for (const [box, entry] of Object.entries(sheet.entries)) {
      if (!entry || (prev.sheets[seat] && prev.sheets[seat].entries[box])) continue;
      lastWrite.set(seat, box);
      const name = boxOf(box).name;
      said.push(entry.scratched
        ? t("said_scratch", { player: seatName(seat), box: name })
        : t("said_score", { player: seatName(seat), points: entry.points, box: name }));
      if ((box === "yatzy" || box === "maxi_yatzy") && !entry.scratched && entry.points > 0) {
        said.unshift(t("yatzy_moment", { player: seatName(seat) }));
        party = seat;
      }
    }
  });
  if (!said.length) return;
  $("announce").textContent = said.join(" ");
  if (party !== null) celebrate();
  else root.classList.remove("party"); // the next write ends the moment
}

let partyTimer = null;
function celebrate() {
  root.classList.add("party");
  beep([523, 659, 784, 1047], 0.35);
  clearTimeout(partyTimer);
  partyTimer = setTimeout(() => root.classList.remove("party"), 2400);
}

// -- rendering ------------------------------------------------------------------------------

function dieLabel(i, d) {
  const face = Array.isArray(d) ? `${t("outer")} ${d[0]}, ${t("inner")} ${d[1]}` : String(d);
  return `${t("die")} ${i + 1}: ${face}` + (kept.has(i) ? `, ${t("kept")}` : "");
}

function renderDice() {
  const tray = $("dice");
  tray.replaceChildren();
  const turn = view.turn;
  $("legend").hidden = !view.double;
  if (!turn || !turn.dice) {
    if (turn && !view.pad) tray.append(el("p", { class: "hint" }, mine() ? t("roll_to_start") : t("not_rolled")));
    return;
  }
  const canKeep = mine() && !view.pad && turn.rolls_left > 0;
  const heldBefore = new Set(turn.kept || []);
  turn.dice.forEach((d, i) => {
    const face = Array.isArray(d)
      ? el("span", { class: "double", "aria-hidden": "true" },
        el("span", { class: "outer" }, FACES[d[0]]), el("span", { class: "inner" }, FACES[d[1]]))
      : el("span", { "aria-hidden": "true" }, FACES[d]);
    const classes = ["die"];
    if (kept.has(i)) classes.push("kept");
    if (heldBefore.has(i)) classes.push("held");
    else if (performance.now() < freshUntil) classes.push("fresh");
    const attrs = {
      class: classes.join(" "), "aria-label": dieLabel(i, d), "data-pos": i, "data-focus": `die-${i}`,
    };
    if (canKeep) {
      attrs["aria-pressed"] = kept.has(i) ? "true" : "false";
      attrs["aria-keyshortcuts"] = String(i + 1);
      attrs.onclick = () => toggleKeep(i);
      tray.append(el("button", attrs, face, el("kbd", { class: "key", "aria-hidden": "true" }, String(i + 1))));
    } else {
      attrs.role = "img";
      tray.append(el("span", attrs, face));
    }
  });
}

function toggleKeep(i) {
  if (!mine() || view.pad || !view.turn.dice || view.turn.rolls_left === 0 || i >= view.turn.dice.length) return;
  if (kept.has(i)) kept.delete(i); else kept.add(i);
  saveKept();
  renderDice();
  labelRoll();
  const die = document.querySelector(`.die[data-pos="${i}"]`);
  if (die) die.focus();
}

function entryCell(entry, seat, boxId) {
  const just = lastWrite.get(seat) === boxId;
  const cls = just ? "just" : "";
  if (entry.scratched) return el("span", { class: "scratched " + cls, "aria-label": `0 (${t("scratched")})` }, "–");
  const text = String(entry.points);
  if (entry.drop) {
    return el("span", { class: cls }, text, el("small", { class: "drop", title: t("dropped") }, ` ∖${entry.drop}`));
  }
  return el("span", { class: cls }, text);
}

function chooseCell(box, seat, key) {
  const turn = view.turn;
  if (!turn || turn.seat !== seat || !mine() || !turn.allowed.includes(box.id) || handingOver()) return null;
  if (scratching && !box.scratchable) return null;
  if (!turn.preview && !(view.pad && scratching)) return null;
  const points = turn.preview ? turn.preview[box.id] : (view.double ? [0, 0] : 0);
  if (points === undefined) return null;
  if (!view.double) {
    const label = scratching ? t("scratch_box", { box: box.name }) : t("score_box", { points, box: box.name });
    return el("button", {
      class: "choose" + (scratching ? " scratch" : "") + (points === 0 && !scratching ? " zero" : ""),
      "aria-label": label, "aria-describedby": `help-${box.id}`, "data-box": box.id,
      "data-focus": `box-${box.id}`, "aria-keyshortcuts": key ? key.toUpperCase() : null,
      onclick: () => writeBox(box, scratching ? { scratch: box.id } : { score: box.id }, points),
    }, scratching ? "✕" : String(points));
  }
  const wrap = el("span", { class: "pair" });
  ["inner", "outer"].forEach((layer, k) => {
    const chosen = pick[layer] && pick[layer].box === box.id;
    const value = scratching ? "✕" : String(points[k]);
    wrap.append(el("button", {
      class: "choose " + layer + (chosen ? " chosen" : ""), "aria-pressed": chosen ? "true" : "false",
      "data-box": box.id, "data-layer": layer, "data-focus": `box-${box.id}-${layer}`,
      "aria-describedby": `help-${box.id}`,
      "aria-label": `${t(layer)}: ${scratching ? t("scratch_box", { box: box.name }) : t("score_box", { points: points[k], box: box.name })}`,
      onclick: () => choose(layer, scratching ? { scratch: box.id } : { score: box.id }, box.id),
    }, (layer === "inner" ? "◦ " : "● ") + value));
  });
  return wrap;
}

// A zero or a scratch where the dice would score something asks first.
async function writeBox(box, action, points) {
  const preview = view.turn.preview || {};
  const better = view.turn.allowed
    .filter((b) => typeof preview[b] === "number" && preview[b] > 0)
    .sort((a, b) => preview[b] - preview[a]);
  const zero = "scratch" in action || points === 0;
  if (zero && better.length && !view.pad) {
    const best = better[0];
    const question = best === box.id
      ? t("confirm_scratch_self", { box: box.name, points: preview[best] })
      : t("confirm_zero", { box: box.name, other: boxOf(best).name, points: preview[best] });
    if (!(await confirmAsk(question))) return;
  }
  act(action);
}


function choose(layer, entry, boxId) {
  pick[layer] = pick[layer] && pick[layer].box === boxId ? null : { box: boxId, entry };
  if (pick.inner && pick.outer) {
    const action = { inner: pick.inner.entry, outer: pick.outer.entry };
    pick = { inner: null, outer: null };
    act(action);
    return;
  }
  render();
}

function renderProtocol() {
  const table = $("protocol");
  const caption = table.querySelector("caption");
  table.replaceChildren(caption);
  const head = el("tr", {}, el("th", { scope: "col" }, el("span", { class: "sr" }, t("box"))));
  view.players.forEach((p) => {
    const current = view.turn && view.turn.seat === p.seat;
    head.append(el("th", { scope: "col", class: current ? "current" : "" },
      p.name,
      !p.claimed ? el("small", { class: "free" }, ` (${t("not_joined")})`) : null,
      current ? el("span", { class: "sr" }, ` — ${t("to_play")}`) : null,
      view.win_chances !== null ? el("span", { class: "win", "data-seat": p.seat }) : null));
  });
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const row = (label, cells, cls) => {
    const tr = el("tr", { class: cls || "" }, el("th", { scope: "row" }, label));
    cells.forEach((c) => tr.append(el("td", {}, c)));
    body.append(tr);
  };
  const sheets = view.sheets;
  const boxRow = (original, index) => {
    const b = boxOf(original.id);
    const key = mine() && !view.finished ? BOX_KEYS[index] : null;
    const help = el("span", { id: `help-${b.id}`, class: "box-help", hidden: true }, b.help || "");
    const name = el("button", {
      class: "box-name", type: "button", title: b.help || "", "aria-expanded": "false",
      "aria-controls": `help-${b.id}`,
      onclick: (e) => {
        const open = help.hidden;
        help.hidden = !open;
        e.currentTarget.setAttribute("aria-expanded", String(open));
      },
    }, b.name);
    const label = el("span", { class: "box-label" },
      key ? el("kbd", { class: "key", "aria-hidden": "true" }, key.toUpperCase()) : null, name, help);
    const tr = el("tr", { class: "box", "data-row": b.id }, el("th", { scope: "row" }, label));
    sheets.forEach((s, seat) => {
      const entry = s.entries[b.id];
      tr.append(el("td", {}, entry ? entryCell(entry, seat, b.id) : chooseCell(b, seat, key)));
    });
    body.append(tr);
  };
  view.boxes.forEach((b, i) => { if (b.section === "upper") boxRow(b, i); });
  row(rowWords.sum, sheets.map((s) => String(s.upper_sum)), "computed");
  row(rowWords.bonus, sheets.map((s) => String(s.bonus)), "computed");
  row(rowWords.par, sheets.map((s) => signed(s.bonus_par)), "computed par");
  view.boxes.forEach((b, i) => { if (b.section === "lower") boxRow(b, i); });
  if (view.variant === "yahtzee") row(rowWords.yatzy_bonus, sheets.map((s) => String(s.yatzy_bonus)), "computed");
  row(rowWords.total, sheets.map((s) => String(s.total)), "computed total");
  const extra = view.boxes.map((b, i) => [b, i]).filter(([b]) => b.section === "extra");
  if (extra.length) {
    extra.forEach(([b, i]) => boxRow(b, i));
    row(rowWords.final, sheets.map((s) => String(s.final)), "computed total");
  }
  table.append(body);
  renderChances();
}

function renderChances() {
  drawChances(view, chances, { t, seatName, toggle: $("show-chances"), note: $("chances-note") });
}

function renderRolloff() {
  const section = $("rolloff");
  if (!view.rolloff.length) { section.hidden = true; return; }
  section.hidden = false;
  $("rolloff-summary").textContent = view.starter !== null
    ? t("starts_after_rolloff", { player: seatName(view.starter) })
    : t("rolloff");
  $("rolloff-list").replaceChildren(...view.rolloff.map((round) => el("li", {},
    round.map((r) => `${seatName(r.seat)} ${FACES[r.die]} (${r.die})`).join(", "))));
  if (view.starter !== null) section.dataset.starter = String(view.starter);
}

function copyButton(input) {
  return el("button", {
    type: "button", class: "copy", "aria-label": t("copy_what", { what: input.getAttribute("aria-label") }),
    onclick: async (e) => {
      const button = e.currentTarget;
      try { await navigator.clipboard.writeText(input.value); } catch (err) { input.select(); document.execCommand("copy"); }
      button.textContent = t("copied");
      setTimeout(() => { button.textContent = t("copy"); }, 1500);
    },
  }, t("copy"));
}

let linksDrawn = "";
function renderLinks() {
  const details = $("links");
  const base = url(`g/${gameId}`).href;
  let invite = null;
  try { invite = localStorage.getItem("yatzy-invite-" + gameId); } catch (e) { /* private mode */ }
  const free = view.players.some((p) => !p.claimed);
  const inviteUrl = invite && free ? `${base}?invite=${invite}` : null;
  const drawn = `${inviteUrl}|${base}|${view.finished}`;
  details.hidden = false;
  root.classList.toggle("inviting", Boolean(inviteUrl));
  if (drawn === linksDrawn) return;
  const wasInviting = linksDrawn.startsWith("http");
  linksDrawn = drawn;
  const body = $("links-body");
  body.replaceChildren();
  if (inviteUrl) {
    const input = el("input", { readonly: true, value: inviteUrl, id: "invite-link", "aria-label": t("invite_link"), class: "link" });
    body.append(el("p", { class: "link-row" }, el("span", {}, t("invite_link")), input, copyButton(input)),
      el("img", { class: "qr", src: url(`qr.svg?text=${encodeURIComponent(inviteUrl)}`).href, alt: t("qr_alt"), width: 148, height: 148 }));
  }
  const spect = el("input", { readonly: true, value: base, id: "spectate-link", "aria-label": t("spectate"), class: "link" });
  body.append(el("p", { class: "link-row" }, el("span", {}, t("spectate")), spect, copyButton(spect)));
  $("links-summary").textContent = inviteUrl ? t("invite") : t("share");
  // open while friends are to join, folded away once everyone is in
  if (inviteUrl) details.open = true;
  else if (wasInviting) details.open = false;
}

function renderWaitingJoin() {
  const free = view.players.filter((p) => !p.claimed);
  const line = $("waiting-join");
  line.hidden = !free.length || view.finished;
  line.textContent = free.length ? t("still_to_join", { players: free.map((p) => p.name).join(", ") }) : "";
}

function renderJoin() {
  const section = $("join");
  const invite = params.get("invite");
  const free = view.players.filter((p) => !p.claimed);
  if (!invite || !free.length || you.seats.length) { section.hidden = true; return; }
  section.hidden = false;
  section.replaceChildren(el("h2", { id: "join-h" }, t("join_title")));
  free.forEach((p) => section.append(el("button", {
    class: "big primary join", "data-seat": p.seat, "data-focus": `join-${p.seat}`,
    onclick: async () => {
      try {
        const data = await api("POST", `api/games/${gameId}/join`, { invite, seat: p.seat });
        accept(data, data.you);
        reconnect();
        $("roll").focus();
      } catch (e) { $("error").textContent = explain(e); }
    },
  }, t("join_as", { player: p.name }))));
}

function handingOver() {
  return view.turn && you.seats.length > 1 && handedTo !== null && handedTo !== view.turn.seat && mine();
}

function renderHandover() {
  const section = $("handover");
  if (view.turn && you.seats.length > 1 && mine() && handedTo === null) handedTo = view.turn.seat;
  const show = Boolean(handingOver());
  section.hidden = !show;
  if (show) {
    const who = seatName(view.turn.seat);
    $("handover-h").textContent = t("pass_device", { player: who });
    $("handover-go").textContent = t("i_am", { player: who });
  }
}

$("show-chances").addEventListener("change", (e) => {
  showChances(e.currentTarget.checked);
  if (view) renderChances();
});

function renderStatus() {
  const status = $("status");
  if (view.finished) { status.textContent = t("game_over"); return; }
  if (!view.turn) { status.textContent = view.starter === null ? t("rolling_off") : ""; return; }
  const who = seatName(view.turn.seat);
  let text;
  if (mine()) text = you.seats.length > 1 ? t("turn_named", { player: who }) : t("your_turn");
  else if (spectator()) text = t("watching", { player: who });
  else text = view.turn.preparing ? t("bot_preparing", { player: who }) : t("waiting_for", { player: who });
  if ("solo_record" in you) text += " · " + (you.solo_record === null ? t("no_record") : t("record_is", { points: you.solo_record }));
  // The live chance of beating the record (target play from here on), where it is known.
  if (typeof you.record_chance === "number") text += ", " + t("record_chance", { percent: percentText(you.record_chance) });
  status.textContent = text;
}


function aimAtRecord() {
  try { return localStorage.getItem("yatzy-aim") !== "expected"; } catch (e) { return true; }
}

function aimSwitch() {
  const toRecord = !aimAtRecord();
  const button = el("button", { type: "button", class: "aim-switch" }, t(toRecord ? "aim_record" : "aim_expected"));
  button.addEventListener("click", () => {
    try { localStorage.setItem("yatzy-aim", toRecord ? "record" : "expected"); } catch (e) { /* private mode */ }
    render();
  });
  return button;
}

function rollsText(turn) {
  if (view.pad) return "";
  if (!view.saved_rolls_rule) return t("rolls_left", { n: turn.rolls_left });
  const saved = view.sheets[turn.seat].saved_rolls;
  const savedLeft = Math.min(saved, turn.rolls_left);
  return t("rolls_left_saved", { n: turn.rolls_left, saved: savedLeft });
}

function labelRoll() {
  const turn = view.turn;
  $("roll").textContent = turn.dice && !view.pad
    ? (kept.size ? t("roll_rest", { n: view.num_dice - kept.size }) : t("roll_all"))
    : t("roll");
}

function renderPlay() {
  const play = $("play");
  const turn = view.turn;
  play.hidden = !turn || handingOver();
  if (!turn) return;
  const key = `${turn.number}:${turn.seat}`;
  if (key !== turnKey) {
    turnKey = key;
    kept = new Set();
    pick = { inner: null, outer: null };
    scratching = false;
    restoreKept();
  }
  const me = mine();
  const roll = $("roll");
  roll.hidden = spectator() || view.pad || !me;
  roll.disabled = turn.rolls_left === 0 || busy;
  labelRoll();
  $("rolls-left").textContent = rollsText(turn);
  // last_resort: no scratch while the dice score somewhere (the server says when)
  const canScratch = me && (turn.dice || view.pad) && turn.zero_allowed !== false;
  if (!canScratch) scratching = false;
  $("scratch-mode").hidden = !canScratch;
  $("scratch-mode").setAttribute("aria-pressed", String(scratching));
  $("scratch-mode").textContent = scratching ? t("scratch_cancel") : t("scratch_mode");
  const undo = view.undo && you.seats.includes(view.undo.seat);
  $("undo").hidden = !undo;
  if (undo) $("undo").textContent = t("undo_box", { box: boxOf(view.undo.box).name });
  $("joker").hidden = !(turn.joker && turn.dice);
  $("pad-dice").hidden = !(view.pad && me);
  $("pad-write").hidden = !(view.pad && me);
  $("pad-dice-help").textContent = view.double ? t("pad_dice_help_double", { n: view.num_dice }) : t("pad_dice_help", { n: view.num_dice });
  $("pad-layer-wrap").hidden = !view.double;
  const select = $("pad-box");
  const current = select.value;
  select.replaceChildren(...view.boxes.filter((b) => turn.allowed.includes(b.id)).map((b) => el("option", { value: b.id }, boxOf(b.id).name)));
  if (turn.allowed.includes(current)) select.value = current;
  const choice = $("dubbel-choice");
  if (view.double && me && turn.dice) {
    choice.textContent = [
      pick.inner ? `◦ ${t("inner")}: ${boxOf(pick.inner.box).name}` : `◦ ${t("choose_inner")}`,
      pick.outer ? `● ${t("outer")}: ${boxOf(pick.outer.box).name}` : `● ${t("choose_outer")}`,
    ].join(" · ");
  } else choice.textContent = "";
  const hint = $("hint");
  // Solo with a record: the hint aims at the record unless the player switched to
  // the expected score (remembered in localStorage).
  const recordHint = me && you.record_hint ? you.record_hint : null;
  const shown = recordHint && aimAtRecord() ? recordHint : turn.hint;
  hint.hidden = !(shown && me);
  if (shown && me) {
    renderHint(hint, shown, words);
    if (recordHint && turn.hint) hint.append(aimSwitch());
  }
  $("keys").textContent = me && !view.pad ? t("keys_help", { last: BOX_KEYS[view.boxes.length - 1].toUpperCase() }) : "";
  renderDice();
}

function renderWinner() {
  const section = $("winner");
  if (!view.finished) { section.hidden = true; return; }
  const first = section.hidden;
  section.hidden = false;
  const names = view.winners.map((w) => `${seatName(w)} (${view.totals[w]})`).join(", ");
  $("winner-h").textContent = view.winners.length > 1 ? t("winners_are", { players: names }) : t("winner_is", { players: names });
  const record = $("record");
  record.textContent = "";
  if ("solo_record" in you) {
    record.textContent = you.beats_record ? t("new_record") : t("record_is", { points: you.solo_record });
  }
  if (first) {
    fetchAnalysis();
    $("winner-h").focus();
  }
}

let analysis = null;
async function fetchAnalysis() {
  const box = $("analysis");
  if (!analysis) renderAnalysis(box, { pending: true }, view, words);
  try {
    // in the page's language (the viewer's), which may not be the game's
    const data = await api("GET", `api/games/${gameId}/analysis?lang=${root.dataset.lang}`);
    analysis = data;
    renderAnalysis(box, data, view, words);
    if (data.pending) setTimeout(fetchAnalysis, 2000);
    else fetchWinAnalysis();
  } catch (e) {
    renderAnalysis(box, { error: e.offline ? t("unreachable") : e.message }, view, words);
  }
}

// The analysis in win chance: asked for once the points' analysis is there (both take
// the server's CPU), then again every two seconds while it is computed.
let winAnalysis = null;
async function fetchWinAnalysis() {
  const box = $("win-analysis");
  if (!winAnalysis) renderWinAnalysis(box, { pending: true }, words);
  try {
    const data = await api("GET", `api/games/${gameId}/win-analysis?lang=${root.dataset.lang}`);
    winAnalysis = data;
    renderWinAnalysis(box, data, words);
    if (data.pending) setTimeout(fetchWinAnalysis, 2000);
  } catch (e) {
    renderWinAnalysis(box, { error: e.offline ? t("unreachable") : e.message }, words);
  }
}

// Focus stays where play is: a re-render replaces the buttons, so the focused one is
// found again by its data-focus key, or play's next step gets the focus.
function keepFocus(before) {
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active)) return;
  if ($("confirm").open) return;
  const again = before && document.querySelector(`[data-focus="${before}"]`);
  if (again && !again.disabled) { again.focus(); return; }
  if (!$("handover").hidden) { $("handover-go").focus(); return; }
  if (view.finished) { $("winner-h").focus(); return; }
  if (mine()) {
    if (!$("roll").hidden && !$("roll").disabled) { $("roll").focus(); return; }
    const first = document.querySelector("button.choose");
    if (first) { first.focus(); return; }
  }
  if (!$("play").hidden) $("play").focus();
  else {
    $("status").setAttribute("tabindex", "-1");
    $("status").focus();
  }
}

function render() {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  root.dataset.version = String(view.version);
  root.dataset.mine = mine() ? "1" : "0";
  root.dataset.variant = view.variant;
  announceChanges();
  renderLinks();
  renderWaitingJoin();
  renderJoin();
  renderRolloff();
  renderHandover();
  renderStatus();
  renderPlay();
  renderProtocol();
  renderWinner();
  keepFocus(focused);
}

// -- input ------------------------------------------------------------------------------------

function rollNow() {
  if (!mine() || view.pad || view.turn.rolls_left === 0 || handingOver()) return;
  const keep = view.turn.dice ? Array.from(kept).sort((a, b) => a - b) : [];
  kept = new Set();
  beep([330], 0.08);
  act({ roll: keep });
}

// A rematch is a new game with the same rules and seats (bots keep their level); the
// seats of this browser are claimed again here, the others get a new invite link.
async function rematch() {
  const body = {
    rules: view.rules, lang: view.lang, pad: view.pad, hints: view.hints,
    seats: view.players.map((p) => (p.bot ? { name: p.name, bot: p.bot } : { name: p.name, here: you.seats.includes(p.seat) })),
  };
  try {
    const data = await api("POST", "api/games", body);
    try { localStorage.setItem("yatzy-invite-" + data.id, data.invite); } catch (e) { /* private mode */ }
    window.location.href = url(`g/${data.id}`).href;
  } catch (e) { $("error").textContent = explain(e); }
}

$("rematch").addEventListener("click", rematch);
$("roll").addEventListener("click", rollNow);
$("scratch-mode").addEventListener("click", () => { scratching = !scratching; render(); $("scratch-mode").focus(); });
$("undo").addEventListener("click", () => { if (view.undo) act({ undo: true }, view.undo.seat); });
$("handover-go").addEventListener("click", () => {
  handedTo = view.turn.seat;
  render();
  $("roll").focus();
});
$("hint").addEventListener("pointerover", (e) => highlightHint(e.target));
$("hint").addEventListener("focusin", (e) => highlightHint(e.target));
$("hint").addEventListener("pointerleave", () => highlightHint(null));
$("hint").addEventListener("focusout", () => highlightHint(null));

// A hint option marks its dice and its box while hovered or focused.
function highlightHint(target) {
  document.querySelectorAll(".hinted").forEach((n) => n.classList.remove("hinted"));
  const option = target && target.closest ? target.closest("[data-keep],[data-box]") : null;
  if (!option) return;
  (option.dataset.keep || "").split(",").filter(Boolean).forEach((i) => {
    const die = document.querySelector(`.die[data-pos="${i}"]`);
    if (die) die.classList.add("hinted");
  });
  for (const id of [option.dataset.box, option.dataset.inner, option.dataset.outer]) {
    const rowNode = id && document.querySelector(`tr[data-row="${CSS.escape(id)}"]`);
    if (rowNode) rowNode.classList.add("hinted");
  }
}


$("pad-dice").addEventListener("submit", (e) => {
  e.preventDefault();
  const dice = parsePadDice($("pad-dice-input").value, view.num_dice, view.double);
  if (!dice) {
    $("error").textContent = view.double ? t("pad_dice_bad_double", { n: view.num_dice }) : t("pad_dice_bad", { n: view.num_dice });
    $("pad-dice-input").focus();
    return;
  }
  act({ dice });
});
$("pad-write").addEventListener("submit", (e) => {
  e.preventDefault();
  const raw = $("pad-points").value;
  if (raw === "" || !Number.isInteger(Number(raw))) {
    $("error").textContent = t("points_missing");
    $("pad-points").focus();
    return;
  }
  const entry = { write: $("pad-box").value, points: Number(raw) };
  if (view.double) choose($("pad-layer").value, entry, entry.write);
  else act(entry);
});
$("sound").addEventListener("change", () => {
  try { localStorage.setItem("yatzy-sound", $("sound").checked ? "1" : "0"); } catch (e) { /* private mode */ }
});
try { $("sound").checked = localStorage.getItem("yatzy-sound") === "1"; } catch (e) { /* private mode */ }

function moveAmongBoxes(step) {
  const buttons = [...document.querySelectorAll("button.choose")];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[next].focus();
}

document.addEventListener("keydown", (e) => {
  if (!view || e.ctrlKey || e.altKey || e.metaKey || $("confirm").open) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // Space rolls unless it presses another control (on Roll it presses Roll; a die is
  // toggled by 1-6 or Enter).
  const onControl = e.target.closest && e.target.closest("button:not(.die), a, summary");
  if (/^[1-6]$/.test(key) && view.turn && view.turn.dice && Number(key) <= view.num_dice) {
    e.preventDefault();
    toggleKeep(Number(key) - 1);
  } else if (key === "r" || (key === " " && !onControl)) {
    if (!mine() || view.pad || handingOver()) return;
    e.preventDefault();
    rollNow();
  } else if (key === "u" && view.undo && you.seats.includes(view.undo.seat)) {
    e.preventDefault();
    act({ undo: true }, view.undo.seat);
  } else if (key === "x" && mine() && !$("scratch-mode").hidden) {
    e.preventDefault();
    scratching = !scratching;
    render();
  } else if (key === "ArrowDown" || key === "ArrowUp") {
    if (!document.querySelector("button.choose")) return;
    e.preventDefault();
    moveAmongBoxes(key === "ArrowDown" ? 1 : -1);
  } else if (key.length === 1 && BOX_KEYS.includes(key) && mine()) {
    const box = view.boxes[BOX_KEYS.indexOf(key)];
    const target = box && document.querySelector(`button.choose[data-box="${CSS.escape(box.id)}"]`);
    if (target) { e.preventDefault(); target.focus(); }
  }
});

load().then(connect);
