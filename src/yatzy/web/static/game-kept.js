// The kept dice survive a reload (they are the page's until the roll).
import { gameId, state } from "./game-state.js";

export const keptKey = () => `yatzy-kept-${gameId}`;
export const turnStamp = () => `${state.view.turn.number}:${state.view.turn.seat}:${state.view.turn.rolls_used}`;

export function saveKept() {
  try { sessionStorage.setItem(keptKey(), JSON.stringify({ stamp: turnStamp(), kept: [...state.kept] })); } catch (e) { /* private mode */ }
}

export function restoreKept() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(keptKey()) || "null");
    if (saved && saved.stamp === turnStamp()) state.kept = new Set(saved.kept);
  } catch (e) { /* nothing saved */ }
}
