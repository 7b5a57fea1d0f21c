// The panels around the sheet: roll-off, links and invite, joining, hand-over, status,
// the play controls, the winner and the analyses.
import { percentText } from "./chances.js";
import { renderHint, renderAnalysis, renderWinAnalysis, formatNumber } from "./insight.js";
import { el } from "./widgets.js";
import { root, gameId, words, $, FACES, BOX_KEYS, params, url, state, t, seatName, boxOf, mine, spectator, focusInPlay } from "./game-state.js";
import { api, explain, accept, reconnect, load } from "./game-net.js";
import { restoreKept } from "./game-kept.js";
import { renderDice } from "./game-sheet.js";
import { render } from "./game-render.js";
import { contributeOnce } from "./fair-dice.js";
import { heldNow } from "./game-hold.js";

export function renderRolloff() {
  const section = $("rolloff");
  if (!state.view.rolloff.length) { section.hidden = true; return; }
  section.hidden = false;
  $("rolloff-summary").textContent = state.view.starter !== null
    ? t("starts_after_rolloff", { player: seatName(state.view.starter) })
    : t("rolloff");
  $("rolloff-list").replaceChildren(...state.view.rolloff.map((round) => el("li", {},
    round.map((r) => `${seatName(r.seat)} ${FACES[r.die]} (${r.die})`).join(", "))));
  if (state.view.starter !== null) section.dataset.starter = String(state.view.starter);
}

export function copyButton(input) {
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

export function renderLinks() {
  const details = $("links");
  const base = url(`g/${gameId}`).href;
  let invite = null;
  try { invite = localStorage.getItem("yatzy-invite-" + gameId); } catch (e) { /* private mode */ }
  const free = state.view.players.some((p) => !p.claimed);
  const inviteUrl = invite && free ? `${base}?invite=${invite}` : null;
  const drawn = `${inviteUrl}|${base}|${state.view.finished}`;
  details.hidden = false;
  root.classList.toggle("inviting", Boolean(inviteUrl));
  if (drawn === state.linksDrawn) return;
  const wasInviting = state.linksDrawn.startsWith("http");
  state.linksDrawn = drawn;
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

// Names as a list in the page's language: "Anna and Bo", "Anna och Bo", "Anna ja Bo".
function nameList(names) {
  try {
    return new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" }).format(names);
  } catch (e) { return names.join(", "); }
}

// Whom the game waits for; not said to a guest who is one of them (the join card
// asks them to take their seat instead).  Invited friends it still waits for
// (waiting_for: the server's) hold its computers back until they join.
export function renderWaitingJoin() {
  const free = state.view.players.filter((p) => !p.claimed);
  const awaited = state.view.waiting_for || [];
  const line = $("waiting-join");
  const guest = params.get("invite") && !state.you.seats.length;
  line.hidden = !free.length || state.view.finished || Boolean(guest);
  if (awaited.length) line.textContent = t("awaiting_join", { players: nameList(awaited) });
  else line.textContent = free.length ? t("still_to_join", { players: nameList(free.map((p) => p.name)) }) : "";
}

export function renderJoin() {
  const section = $("join");
  const invite = params.get("invite");
  const free = state.view.players.filter((p) => !p.claimed);
  if (!invite || !free.length || state.you.seats.length) { section.hidden = true; return; }
  section.hidden = false;
  section.replaceChildren(el("h2", { id: "join-h" }, t("join_title")));
  free.forEach((p) => section.append(el("button", {
    class: "big primary join", "data-seat": p.seat, "data-focus": `join-${p.seat}`,
    onclick: async () => {
      try {
        const data = await api("POST", `api/games/${gameId}/join`, { invite, seat: p.seat });
        accept(data, data.you);
        contributeOnce();
        reconnect();
        focusInPlay($("roll"));
      } catch (e) { $("error").textContent = explain(e); }
    },
  }, t("join_as", { player: p.name }))));
}

export function handingOver() {
  return state.view.turn && state.you.seats.length > 1 && state.handedTo !== null && state.handedTo !== state.view.turn.seat && mine();
}

// The write before a hand-over can still be taken back: its Undo is on the card too.
export function myUndo() {
  return Boolean(state.view.undo && state.you.seats.includes(state.view.undo.seat));
}

// A computer is to move but waits while this viewer may still take back a write
// (the server holds its move, which begins with a roll, until "go on" or a grace).
export function botWaitsForMe() {
  const turn = state.view.turn;
  return Boolean(turn && myUndo() && state.view.players[turn.seat].bot && !state.view.finished);
}

export function renderHandover() {
  const section = $("handover");
  if (state.view.turn && state.you.seats.length > 1 && mine() && state.handedTo === null) state.handedTo = state.view.turn.seat;
  const show = Boolean(handingOver());
  section.hidden = !show;
  if (show) {
    const who = seatName(state.view.turn.seat);
    $("handover-h").textContent = t("pass_device", { player: who });
    $("handover-go").textContent = t("i_am", { player: who });
  }
  const undo = show && myUndo();
  $("handover-undo").hidden = !undo;
  if (undo) $("handover-undo").textContent = t("undo_box", { box: boxOf(state.view.undo.box).name });
}
// Hints can be switched on and off during the game by its players (where the game
// can have them: the server says so); every viewer's page follows the switch.
export function renderHintsSwitch() {
  const can = Boolean(state.view.hints_switch) && !spectator() && !state.view.finished;
  $("hints-switch-wrap").hidden = !can;
  if (can) $("hints-switch").checked = Boolean(state.view.hints);
}

export function renderStatus() {
  const status = $("status");
  if (state.view.finished) { status.textContent = t("game_over"); return; }
  if (!state.view.turn) { status.textContent = state.view.starter === null ? t("rolling_off") : ""; return; }
  // A guest about to take a seat is not watching: the join card speaks to them.
  if (!$("join").hidden) { status.textContent = ""; return; }
  const who = seatName(state.view.turn.seat);
  const held = heldNow();
  let text;
  // (the record's live chance is of the turn before: not said over the held write)
  if (held && mine()) {
    const boxes = held.boxes.map((b) => boxOf(b).name).join(" + ");
    const total = held.totals[held.seat];
    const seconds = state.view.turn.hold_for;
    status.textContent = typeof seconds === "number"
      ? t("held_last_timed", { player: who, box: boxes, total, seconds: Math.round(seconds) })
      : t("held_last", { player: who, box: boxes, total });
    return;
  }
  if (mine()) text = state.you.seats.length > 1 ? t("turn_named", { player: who }) : t("your_turn");
  else if (spectator()) text = t("watching", { player: who });
  else if (botWaitsForMe()) text = t("bot_waits", { player: who, box: boxOf(state.view.undo.box).name });
  else if (state.view.turn.preparing) text = t("bot_preparing", { player: who });
  else {
    text = t("waiting_for", { player: who });
    // A computer that plays a simple strategy here (no tables for these rules) says so.
    if (state.view.turn.bot_note) text += " · " + state.view.turn.bot_note;
  }
  if ("solo_record" in state.you) text += " · " + (state.you.solo_record === null ? t("no_record") : t("record_is", { points: state.you.solo_record }));
  // The live chance of beating the record (target play from here on), where it is known.
  if (typeof state.you.record_chance === "number") text += ", " + t("record_chance", { percent: percentText(state.you.record_chance) });
  // An approximate (sampled) figure in whole percent: "about 41 %", never "41,3".
  else if (typeof state.you.record_chance_approx === "number") text += ", " + t("record_chance_approx", { percent: formatNumber(100 * state.you.record_chance_approx, 0) });
  else if (state.you.record_chance_pending) text += ", " + t("record_chance_pending");
  status.textContent = text;
}


export function aimAtRecord() {
  try { return localStorage.getItem("yatzy-aim") !== "expected"; } catch (e) { return true; }
}

export function aimSwitch() {
  const toRecord = !aimAtRecord();
  const button = el("button", { type: "button", class: "aim-switch" }, t(toRecord ? "aim_record" : "aim_expected"));
  button.addEventListener("click", () => {
    try { localStorage.setItem("yatzy-aim", toRecord ? "record" : "expected"); } catch (e) { /* private mode */ }
    render();
  });
  return button;
}

export function rollsText(turn) {
  if (state.view.pad) return "";
  if (!state.view.saved_rolls_rule) return t("rolls_left", { n: turn.rolls_left });
  const saved = state.view.sheets[turn.seat].saved_rolls;
  const savedLeft = Math.min(saved, turn.rolls_left);
  return t("rolls_left_saved", { n: turn.rolls_left, saved: savedLeft });
}

// Keeping every die leaves nothing to roll: the button is then off and says why
// (never an enabled button that the server would refuse).
export function allKept() {
  const turn = state.view.turn;
  return Boolean(turn && turn.dice && !state.view.pad && state.kept.size >= state.view.num_dice);
}

export function labelRoll() {
  const turn = state.view.turn;
  $("roll").disabled = turn.rolls_left === 0 || state.busy || allKept();
  $("roll").textContent = allKept() ? t("all_kept")
    : turn.dice && !state.view.pad
      ? (state.kept.size ? t("roll_rest", { n: state.view.num_dice - state.kept.size }) : t("roll_all"))
      : t("roll");
}

export function renderPlay() {
  const play = $("play");
  const turn = state.view.turn;
  play.hidden = !turn || handingOver();
  if (!turn) return;
  const key = `${turn.number}:${turn.seat}`;
  if (key !== state.turnKey) {
    state.turnKey = key;
    state.kept = new Set();
    state.pick = { inner: null, outer: null };
    state.scratching = false;
    restoreKept();
  }
  const me = mine();
  const held = heldNow();
  const roll = $("roll");
  roll.hidden = spectator() || state.view.pad || !me || Boolean(held);
  labelRoll();
  const goOn = botWaitsForMe();
  $("rolls-left").textContent = goOn || held ? "" : rollsText(turn); // its rolls count once it plays
  // last_resort: no scratch while the dice score somewhere (the server says when)
  const canScratch = me && !held && (turn.dice || state.view.pad) && turn.zero_allowed !== false;
  if (!canScratch) state.scratching = false;
  $("scratch-mode").hidden = !canScratch;
  $("scratch-mode").setAttribute("aria-pressed", String(state.scratching));
  $("scratch-mode").textContent = state.scratching ? t("scratch_cancel") : t("scratch_mode");
  $("scratch-explain").hidden = !(canScratch && state.scratching); // what "Scratch …" does
  const undo = myUndo();
  $("undo").hidden = !undo && !held;
  if (held) $("undo").textContent = t("undo_box", { box: held.boxes.map((b) => boxOf(b).name).join(" + ") });
  else if (undo) $("undo").textContent = t("undo_box", { box: boxOf(state.view.undo.box).name });
  $("end-game").hidden = !held;
  $("go-on").hidden = !goOn;
  if (goOn) $("go-on").textContent = t("go_on", { player: seatName(turn.seat) });
  $("joker").hidden = !(turn.joker && turn.dice);
  $("pad-dice").hidden = !(state.view.pad && me) || Boolean(held);
  $("pad-write").hidden = !(state.view.pad && me) || Boolean(held);
  $("pad-dice-help").textContent = state.view.double ? t("pad_dice_help_double", { n: state.view.num_dice }) : t("pad_dice_help", { n: state.view.num_dice });
  $("pad-layer-wrap").hidden = !state.view.double;
  const select = $("pad-box");
  const current = select.value;
  select.replaceChildren(...state.view.boxes.filter((b) => turn.allowed.includes(b.id)).map((b) => el("option", { value: b.id }, boxOf(b.id).name)));
  if (turn.allowed.includes(current)) select.value = current;
  const armed = state.armed && state.armed.startsWith(`${state.view.version}:`) && me;
  $("armed").textContent = armed ? state.armedText : "";
  const choice = $("dubbel-choice");
  if (state.view.double && me && turn.dice) {
    choice.textContent = [
      state.pick.inner ? `◦ ${t("inner")}: ${boxOf(state.pick.inner.box).name}` : `◦ ${t("choose_inner")}`,
      state.pick.outer ? `● ${t("outer")}: ${boxOf(state.pick.outer.box).name}` : `● ${t("choose_outer")}`,
    ].join(" · ");
  } else choice.textContent = "";
  const hint = $("hint");
  // Solo with a record: the hint aims at the record unless the player switched to
  // the expected score (remembered in localStorage).
  const recordHint = me && state.you.record_hint ? state.you.record_hint : null;
  const shown = recordHint && aimAtRecord() ? recordHint : turn.hint;
  hint.hidden = !(shown && me) || Boolean(held);
  if (shown && me && !held) {
    renderHint(hint, shown, words);
    if (recordHint && turn.hint) hint.append(aimSwitch());
  }
  askAgainWhilePending(me && ((shown && shown.pending) || state.you.record_chance_pending));
  $("keys").textContent = me && !state.view.pad && !held ? t("keys_help", { last: BOX_KEYS[state.view.boxes.length - 1].toUpperCase() }) : "";
  renderDice();
}

// A hint (or a solo record's chance) still being worked out is asked for again every
// 2 s while it is the player's turn: nothing else would bring it (the server tells no
// page when a table is ready), and the player is waiting for it to decide.
function askAgainWhilePending(pending) {
  clearTimeout(state.pendingTimer);
  if (pending) state.pendingTimer = setTimeout(load, 2000);
}

export function renderWinner() {
  const section = $("winner");
  if (!state.view.finished) { section.hidden = true; return; }
  const first = section.hidden;
  section.hidden = false;
  const names = state.view.winners.map((w) => `${seatName(w)} (${state.view.totals[w]})`).join(", ");
  const winnerLine = state.view.winners.length > 1 ? t("winners_are", { players: names }) : t("winner_is", { players: names });
  const record = $("record");
  record.textContent = "";
  const totals = state.view.totals;
  const mine = (state.you && state.you.seats) || [];
  if (totals.length === 1) {
    // Alone there is nobody to beat: the result, and the record, lead.
    $("winner-h").textContent = t("solo_result", { player: seatName(0), points: totals[0] });
  } else if (mine.length === 1) {
    // The viewer's own result first, then who won.
    const seat = mine[0];
    const points = totals[seat];
    const won = state.view.winners.includes(seat);
    const place = 1 + totals.filter((p) => p > points).length;
    $("winner-h").textContent = won
      ? t(state.view.winners.length > 1 ? "you_share_the_win" : "you_won", { points })
      : t("your_place", { points, place, count: totals.length });
    record.textContent = winnerLine;
  } else $("winner-h").textContent = winnerLine;
  if ("solo_record" in state.you) {
    // A new record names the one it beat (none before a first game).
    const before = state.you.solo_record;
    record.textContent = !state.you.beats_record ? t("record_is", { points: before })
      : before === null ? t("new_record") : t("new_record_over", { points: before });
  }
  if (first) {
    fetchAnalysis();
    $("winner-h").focus();
  }
}

export async function fetchAnalysis() {
  const box = $("analysis");
  if (!state.analysis) renderAnalysis(box, { pending: true }, state.view, words);
  try {
    // in the page's language (the viewer's), which may not be the game's
    const data = await api("GET", `api/games/${gameId}/analysis?lang=${root.dataset.lang}`);
    state.analysis = data;
    renderAnalysis(box, data, state.view, words, state.you.seats);
    if (data.pending) setTimeout(fetchAnalysis, 2000);
    else fetchWinAnalysis();
  } catch (e) {
    renderAnalysis(box, { error: failure(e) }, state.view, words);
  }
}

// The analysis in win chance: asked for once the points' analysis is there (both take
// the server's CPU), then again every two seconds while it is computed; an estimate
// shown meanwhile (said to be one) is drawn once and replaced by the exact analysis.
export async function fetchWinAnalysis() {
  const box = $("win-analysis");
  if (!state.winAnalysis) renderWinAnalysis(box, { pending: true }, words);
  try {
    let data = await api("GET", `api/games/${gameId}/win-analysis?lang=${root.dataset.lang}`);
    if (data.error) data = Object.assign({}, data, { error: true }); // the server's English
    const shown = state.winAnalysis;
    state.winAnalysis = data;
    if (!(data.estimated && shown && shown.estimated)) renderWinAnalysis(box, data, words, state.you.seats);
    if (data.pending) setTimeout(fetchWinAnalysis, 2000);
  } catch (e) {
    renderWinAnalysis(box, { error: failure(e) }, words);
  }
}

// Why an analysis is missing, in the page's words: unreachable, or the server busy (its
// 503 comes in the page's language); any other reason is the server's English: none.
function failure(e) {
  if (e.offline) return t("unreachable");
  return e.status === 503 && e.message ? e.message : true;
}
