// Drawing the whole page from the state, keeping the focus where play is.
import { root, $, state, mine, focusInPlay } from "./game-state.js";
import { announceChanges } from "./game-announce.js";
import { renderProtocol } from "./game-sheet.js";
import { renderFairDice } from "./fair-dice.js";
import { renderTalk } from "./talk.js";
import { followMessages } from "./messages.js";
import { renderClock } from "./clock.js";
import { heldNow } from "./game-hold.js";
import { renderRolloff, renderLinks, renderWaitingJoin, renderJoin, renderHandover, renderStatus, renderPlay, renderWinner, renderHintsSwitch } from "./game-panels.js";

// Focus stays where play is: a re-render replaces the buttons, so the focused one is
// found again by its data-focus key, or play's next step gets the focus.
export function keepFocus(before) {
  const active = document.activeElement;
  // A focused control that was just hidden or switched off (Undo once used) has
  // lost the focus in all but name: play gets it back.
  const lost = !active || active === document.body || !document.contains(active) || active.disabled || active.closest("[hidden]");
  if (!lost) return;
  if ($("confirm").open) return;
  const again = before && document.querySelector(`[data-focus="${before}"]`);
  if (again && !again.disabled) { focusInPlay(again); return; }
  if (!$("handover").hidden) { $("handover-go").focus(); return; }
  if (state.view.finished) { $("winner-h").focus(); return; }
  if (heldNow() && mine()) { focusInPlay($("end-game")); return; }
  if (mine()) {
    if (!$("roll").hidden && !$("roll").disabled) { focusInPlay($("roll")); return; }
    const first = document.querySelector("button.choose");
    if (first) { focusInPlay(first); return; }
  }
  if (!$("play").hidden) focusInPlay($("play"));
  else {
    $("status").setAttribute("tabindex", "-1");
    $("status").focus();
  }
}

export function render() {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  root.dataset.version = String(state.view.version);
  root.dataset.mine = mine() ? "1" : "0";
  root.dataset.variant = state.view.variant;
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
  renderHintsSwitch();
  renderFairDice();
  renderTalk();
  followMessages();
  renderClock();
  keepFocus(focused);
}
