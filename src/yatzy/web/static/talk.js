// Preset phrases between the players: each viewer reads them in their own language,
// may mute a player (kept in this browser; their free text too: messages.js), and
// a player says one with a tap.
import { el } from "./widgets.js";
import { $, gameId, state, t, seatName } from "./game-state.js";
import { api, explain } from "./game-net.js";

const PHRASES = ["hello", "good_luck", "nice_roll", "so_close", "well_played", "thanks", "oops", "bye"];
const MUTED_KEY = `yatzy-muted-${gameId}`;

export function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]")); } catch (e) { return new Set(); }
}

function setMuted(seats) {
  try { localStorage.setItem(MUTED_KEY, JSON.stringify([...seats])); } catch (e) { /* private mode */ }
}

export function toggleMute(seat) {
  const seats = muted();
  if (seats.has(seat)) seats.delete(seat); else seats.add(seat);
  setMuted(seats);
  renderTalk();
  document.dispatchEvent(new CustomEvent("yatzy-muted"));
}

export function renderTalk() {
  const section = $("talk");
  const lines = (state.view.talk || []).filter((line) => PHRASES.includes(line.phrase));
  // a player talks only where another person plays too (not alone, nor to a computer)
  const mySeats = state.you ? state.you.seats : [];
  const company = state.view.players.some((p) => !p.bot && !mySeats.includes(p.seat));
  const player = mySeats.length > 0 && company;
  section.hidden = !lines.length && !player && $("friend-text").hidden;
  const quiet = muted();
  const mine = new Set(state.you ? state.you.seats : []);
  $("talk-lines").replaceChildren(...lines.filter((line) => !quiet.has(line.seat) || mine.has(line.seat)).map((line) => {
    const item = el("li", { "data-seat": line.seat },
      t("talk_said", { player: seatName(line.seat), phrase: t(`talk_${line.phrase}`) }));
    if (!mine.has(line.seat)) {
      item.append(" ", el("button", { type: "button", class: "link mute", onclick: () => toggleMute(line.seat) },
        t("talk_mute", { player: seatName(line.seat) })));
    }
    return item;
  }));
  // a muted player can be heard again from the list of the muted
  for (const seat of quiet) {
    if (mine.has(seat) || !state.view.players[seat]) continue;
    $("talk-lines").append(el("li", { class: "muted" }, el("button", { type: "button", class: "link", onclick: () => toggleMute(seat) },
      t("talk_unmute", { player: seatName(seat) }))));
  }
  $("talk-say").hidden = !player;
  if (player && !$("talk-phrases").children.length) {
    $("talk-phrases").replaceChildren(...PHRASES.map((phrase) => el("button", {
      type: "button", class: "phrase", "data-phrase": phrase,
      onclick: async () => {
        try {
          await api("POST", `api/games/${gameId}/say`, { phrase });
          $("talk-say").open = false;
        } catch (e) { $("error").textContent = e.status === 429 ? t("talk_refused") : explain(e); }
      },
    }, t(`talk_${phrase}`))));
  }
}
