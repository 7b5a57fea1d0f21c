// Input: buttons, forms and keys (attached once by listen()).
import { showChances } from "./chances.js";
import { beep, parsePadDice } from "./widgets.js";
import { $, BOX_KEYS, url, gameId, state, t, mine, tapConfirm, focusInPlay } from "./game-state.js";
import { api, explain, act, accept, refused } from "./game-net.js";
import { toggleKeep, choose, renderChances } from "./game-sheet.js";
import { handingOver, allKept, myUndo, botWaitsForMe } from "./game-panels.js";
import { render } from "./game-render.js";
import { heldNow, endGame, undoHeld, sendHeldOnLeaving } from "./game-hold.js";

export function rollNow() {
  if (!mine() || state.view.pad || state.view.turn.rolls_left === 0 || handingOver() || allKept()) return;
  const keep = state.view.turn.dice ? Array.from(state.kept).sort((a, b) => a - b) : [];
  state.kept = new Set();
  beep([330], 0.08);
  act({ roll: keep });
}

// A rematch is a new game with the same rules and seats (bots keep their level); the
// seats of this browser are claimed again here, the others get a new invite link.
// A signed-in player's rematch seats them on their account and invites their
// friends of the game straight into it (POST .../rematch); where that is refused (a
// seat not theirs), the rematch is made as a guest's.
export async function rematch() {
  if (document.getElementById("invites-badge")) {
    try {
      const response = await fetch(url(`api/games/${gameId}/rematch`), {
        method: "POST", credentials: "same-origin", body: "{}",
        headers: { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" },
      });
      if (response.ok) { window.location.href = url(`g/${(await response.json()).game}`).href; return; }
    } catch (e) { /* offline: the guest's rematch says so */ }
  }
  const body = {
    rules: state.view.rules, lang: state.view.lang, pad: state.view.pad, hints: state.view.hints,
    seats: state.view.players.map((p) => (p.bot ? { name: p.name, bot: p.bot } : { name: p.name, here: state.you.seats.includes(p.seat) })),
  };
  try {
    const data = await api("POST", "api/games", body);
    try { localStorage.setItem("yatzy-invite-" + data.id, data.invite); } catch (e) { /* private mode */ }
    window.location.href = url(`g/${data.id}`).href;
  } catch (e) { $("error").textContent = explain(e); }
}


// A hint option marks its dice and its box while hovered or focused.
export function highlightHint(target) {
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



// Take back this viewer's last write (the button, the hand-over card's button, U);
// the focus goes on to play (the undo buttons hide once it is done).
export async function undo() {
  if (heldNow()) { undoHeld(); return; }
  if (!myUndo()) return;
  await act({ undo: true }, state.view.undo.seat);
}

// The computer waits on this viewer's write: go on now (the write stands).
export async function goOn() {
  try {
    await api("POST", `api/games/${gameId}/go-on`);
  } catch (e) {
    refused(e);
  }
}

export function moveAmongBoxes(step) {
  const buttons = [...document.querySelectorAll("button.choose")];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[next].focus();
}


// The keys of play: 1-6 keep dice, R or Space rolls, U undoes, X scratches, the arrows and
// letters move among the boxes.
function onKey(e) {
  if (!state.view || e.ctrlKey || e.altKey || e.metaKey || $("confirm").open) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  // Space rolls unless it presses another control (on Roll it presses Roll; a die is
  // toggled by 1-6 or Enter).
  const onControl = e.target.closest && e.target.closest("button:not(.die), a, summary");
  if (heldNow()) {
    // The game's last write is held: U takes it back, R, Space or Enter end the game.
    if (key === "u") { e.preventDefault(); undoHeld(); }
    else if (key === "r" || ((key === " " || key === "Enter") && !onControl)) { e.preventDefault(); endGame(); }
    return;
  }
  if (/^[1-6]$/.test(key) && state.view.turn && state.view.turn.dice && Number(key) <= state.view.num_dice) {
    e.preventDefault();
    toggleKeep(Number(key) - 1);
  } else if (botWaitsForMe() && (key === "r" || ((key === " " || key === "Enter") && !onControl))) {
    // The computer waits on this viewer's write: the keys of the next action go on.
    e.preventDefault();
    goOn();
  } else if (key === "r" || (key === " " && !onControl)) {
    if (!mine() || state.view.pad || handingOver()) return;
    e.preventDefault();
    rollNow();
  } else if (key === "u" && myUndo()) {
    e.preventDefault();
    undo();
  } else if (key === "x" && mine() && !$("scratch-mode").hidden) {
    e.preventDefault();
    state.scratching = !state.scratching;
    render();
  } else if (key === "ArrowDown" || key === "ArrowUp") {
    if (!document.querySelector("button.choose")) return;
    e.preventDefault();
    moveAmongBoxes(key === "ArrowDown" ? 1 : -1);
  } else if (key.length === 1 && BOX_KEYS.includes(key) && mine()) {
    const box = state.view.boxes[BOX_KEYS.indexOf(key)];
    const target = box && document.querySelector(`button.choose[data-box="${CSS.escape(box.id)}"]`);
    if (target) { e.preventDefault(); target.focus(); }
  }
}

// Attach every control of the page (once, at the start).
export function listen() {
  $("show-chances").addEventListener("change", (e) => {
    showChances(e.currentTarget.checked);
    if (state.view) renderChances();
  });
  $("rematch").addEventListener("click", rematch);
  $("roll").addEventListener("click", rollNow);
  $("scratch-mode").addEventListener("click", () => { state.scratching = !state.scratching; render(); focusInPlay($("scratch-mode")); });
  $("undo").addEventListener("click", undo);
  $("handover-undo").addEventListener("click", undo);
  $("go-on").addEventListener("click", goOn);
  $("end-game").addEventListener("click", endGame);
  $("tap-confirm").addEventListener("change", () => {
    try { localStorage.setItem("yatzy-tap-confirm", $("tap-confirm").checked ? "1" : "0"); } catch (e) { /* private mode */ }
    state.armed = null;
    render();
  });
  $("tap-confirm").checked = tapConfirm();
  $("hints-switch").addEventListener("change", async (e) => {
    const on = e.currentTarget.checked;
    try {
      const data = await api("POST", `api/games/${gameId}/hints`, { on });
      accept(data, data.you);
    } catch (err) {
      $("error").textContent = explain(err);
      e.currentTarget.checked = !on;
    }
  });
  $("handover-go").addEventListener("click", () => {
    state.handedTo = state.view.turn.seat;
    render();
    focusInPlay($("roll"));
  });
  $("hint").addEventListener("pointerover", (e) => highlightHint(e.target));
  $("hint").addEventListener("focusin", (e) => highlightHint(e.target));
  $("hint").addEventListener("pointerleave", () => highlightHint(null));
  $("hint").addEventListener("focusout", () => highlightHint(null));
  $("pad-dice").addEventListener("submit", (e) => {
    e.preventDefault();
    const dice = parsePadDice($("pad-dice-input").value, state.view.num_dice, state.view.double);
    if (!dice) {
      $("error").textContent = state.view.double ? t("pad_dice_bad_double", { n: state.view.num_dice }) : t("pad_dice_bad", { n: state.view.num_dice });
      focusInPlay($("pad-dice-input"));
      return;
    }
    act({ dice });
  });
  $("pad-write").addEventListener("submit", (e) => {
    e.preventDefault();
    const raw = $("pad-points").value;
    if (raw === "" || !Number.isInteger(Number(raw))) {
      $("error").textContent = t("points_missing");
      focusInPlay($("pad-points"));
      return;
    }
    const entry = { write: $("pad-box").value, points: Number(raw) };
    if (state.view.double) choose($("pad-layer").value, entry, entry.write);
    else act(entry);
  });
  $("sound").addEventListener("change", () => {
    try { localStorage.setItem("yatzy-sound", $("sound").checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  try { $("sound").checked = localStorage.getItem("yatzy-sound") === "1"; } catch (e) { /* private mode */ }
  document.addEventListener("keydown", onKey);
  window.addEventListener("pagehide", sendHeldOnLeaving);
}
