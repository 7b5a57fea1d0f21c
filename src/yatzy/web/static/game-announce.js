// What changed: the written cell, said aloud to everyone.
import { beep } from "./widgets.js";
import { root, $, state, lastWrite, t, seatName, boxOf } from "./game-state.js";

export function announceChanges() {
  if (!state.prev || state.prev.id !== state.view.id) return;
  const said = [];
  let party = null;
  state.view.sheets.forEach((sheet, seat) => {
    for (const [box, entry] of Object.entries(sheet.entries)) {
      if (!entry || (state.prev.sheets[seat] && state.prev.sheets[seat].entries[box])) continue;
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

export function celebrate() {
  root.classList.add("party");
  beep([523, 659, 784, 1047], 0.35);
  clearTimeout(state.partyTimer);
  state.partyTimer = setTimeout(() => root.classList.remove("party"), 2400);
}
