// Free text between friends in a game: a signed-in player reads the lines their
// friends among the players wrote to them (and their own), and writes one when a
// friend plays too.  The server decides who reads what; the socket only says that
// something changed ({"type": "messages"}), and the page then asks for its lines.
// A muted player's lines are hidden here as their phrases are (talk.js).
import { el } from "./widgets.js";
import { $, root, gameId, state, t, url } from "./game-state.js";
import { muted, toggleMute } from "./talk.js";

const signedIn = root.dataset.account === "1";
let answer = null; // the latest GET answer: { lines, can_write, friends, max_length }
let askedFor = ""; // the seats the last read was made for (a seat taken: read again)
let reading = null;

async function call(method, body) {
  const headers = { "X-Yatzy-CSRF": "1" };
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(url(`api/games/${gameId}/messages`), {
    method, headers, body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
  });
  let data = {};
  try { data = await response.json(); } catch (e) { /* not JSON */ }
  return { status: response.status, data };
}

// Read the lines this player may see now (after a nudge, on opening, after joining).
export async function readMessages() {
  if (!signedIn || !state.you || !state.you.seats.length) return;
  if (reading) return reading;
  reading = (async () => {
    try {
      const { status, data } = await call("GET");
      answer = status === 200 ? data : null;
    } catch (e) { /* offline: the next nudge or reconnect reads again */ }
    reading = null;
    renderMessages();
  })();
  return reading;
}

// From the page's render: read once per set of seats this browser holds.
export function followMessages() {
  const seats = state.you ? state.you.seats.join(",") : "";
  if (seats && seats !== askedFor) {
    askedFor = seats;
    readMessages();
  }
}

export function renderMessages() {
  const box = $("friend-text");
  const shown = Boolean(answer && (answer.lines.length || answer.can_write));
  const before = box.hidden;
  box.hidden = !shown;
  if (shown) $("talk").hidden = false;
  else if (!before && !$("talk-lines").children.length && $("talk-say").hidden) $("talk").hidden = true;
  if (!shown) return;
  const quiet = muted();
  $("friend-lines").replaceChildren(...answer.lines.filter((line) => line.mine || !quiet.has(line.seat)).map((line) => {
    const item = el("li", { "data-message": line.id, "data-seat": line.seat, class: line.mine ? "mine" : null },
      t("text_line", { player: line.name, text: line.text }));
    if (!line.mine) {
      item.append(" ", el("button", { type: "button", class: "link mute", onclick: () => toggleMute(line.seat) },
        t("talk_mute", { player: line.name })));
    }
    return item;
  }));
  $("friend-form").hidden = !answer.can_write;
  $("friend-input").maxLength = answer.max_length;
}

async function send(event) {
  event.preventDefault();
  const input = $("friend-input");
  const text = input.value.trim();
  $("friend-error").textContent = "";
  if (!text) return;
  if (text.length > input.maxLength) { $("friend-error").textContent = t("text_too_long", { n: input.maxLength }); return; }
  $("friend-send").disabled = true;
  try {
    const { status, data } = await call("POST", { text });
    if (status === 201) {
      answer = data;
      input.value = "";
      renderMessages();
    } else if (status === 429) $("friend-error").textContent = t("text_refused");
    else if (status === 403) { $("friend-error").textContent = t("text_no_friends"); readMessages(); }
    else if (status === 422) $("friend-error").textContent = t("text_bad");
    else $("friend-error").textContent = t("unreachable");
  } catch (e) {
    $("friend-error").textContent = t("unreachable");
  } finally {
    $("friend-send").disabled = false;
    input.focus();
  }
}

$("friend-form").addEventListener("submit", send);
document.addEventListener("yatzy-messages", () => readMessages());
document.addEventListener("yatzy-muted", () => renderMessages());
