// A timed game's clock (issue 26): the seat to move's time left (live: a countdown,
// daily: "until Thu 18:00"), a time-out and the other players' choice (the computer
// plays for the absent player, or the game ends), and the absent player's way back.
// The countdown is a role=timer that screen readers do not read out each second;
// what changes (a time-out, a choice, ten seconds left) is said once, politely.
import { el } from "./widgets.js";
import { root, $, gameId, state, t, seatName, url } from "./game-state.js";
import { accept, load, refused, Refusal } from "./game-net.js";

const lang = root.dataset.lang || "en";
const local = { endsAt: null, chooseEndsAt: null, said: "", warned: "", asked: false };

// m:ss (or h:mm:ss) of a number of seconds
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// "Thu 18:00" in the page's language, in this device's time zone
function whenText(iso) {
  const options = { weekday: "short", hour: "2-digit", minute: "2-digit" };
  try { return new Intl.DateTimeFormat(lang, options).format(new Date(iso)); } catch (e) { return iso; }
}

const left = (endsAt) => (endsAt === null ? 0 : (endsAt - performance.now()) / 1000);

function timeLine(clock) {
  if (clock.phase !== "running" || clock.seat === null) return "";
  if (clock.deadline === null) return clock.computer.includes(clock.seat) ? "" : t("clock_waiting");
  const mineNow = state.you.seats.includes(clock.seat);
  if (clock.mode === "daily") {
    const when = whenText(clock.deadline);
    return mineNow ? t("clock_your_until", { when }) : t("clock_daily_until", { player: seatName(clock.seat), when });
  }
  const time = clockText(left(local.endsAt));
  return mineNow ? t("clock_your_left", { time }) : t("clock_live_left", { player: seatName(clock.seat), time });
}

function news(clock) {
  if (clock.phase === "ended" && clock.ended_by !== null) return t("clock_ended", { player: seatName(clock.ended_by) });
  if (clock.phase === "paused") return t("clock_timed_out", { player: seatName(clock.seat) });
  const away = clock.computer.map((s) => (clock.returning.includes(s)
    ? t("clock_returning", { player: seatName(s) }) : t("clock_computer_plays", { player: seatName(s) })));
  return away.join(" ");
}

function note(clock) {
  const per = clock.mode === "daily"
    ? (clock.days === 1 ? t("clock_per_turn_day") : t("clock_per_turn_daily", { days: clock.days }))
    : t("clock_per_turn_live", { time: clockText(clock.seconds) });
  const played = new Map();
  for (const [seat, turn] of clock.computer_turns) played.set(seat, [...(played.get(seat) || []), turn]);
  const parts = [...played].map(([seat, turns]) => t("clock_computer_turns", { player: seatName(seat), turns: turns.join(", ") }));
  return [per, ...parts].join(" · ");
}

async function choose(choice) {
  $("error").textContent = "";
  try {
    let response;
    try {
      response = await fetch(url(`api/games/${gameId}/clock`), {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" },
        body: JSON.stringify({ choice }),
      });
    } catch (e) { throw Object.assign(new Error(t("unreachable")), { offline: true }); }
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (!response.ok) throw new Refusal(response.status, data.error, typeof data.detail === "string" ? data.detail : "");
    accept(data, data.you);
  } catch (e) {
    refused(e);
  }
}

function choices(clock) {
  const mySeats = state.you.seats;
  const buttons = [];
  let text = "";
  if (clock.phase === "paused") {
    const player = seatName(clock.seat);
    if (mySeats.some((s) => s !== clock.seat && !state.view.players[s].bot)) {
      text = clock.mode === "daily"
        ? t("clock_choose_daily", { player, when: whenText(clock.choose_until) })
        : t("clock_choose", { player, time: clockText(left(local.chooseEndsAt)) });
      buttons.push(el("button", { type: "button", class: "primary", "data-focus": "clock-computer", "data-choice": "computer", onclick: () => choose("computer") }, t("clock_computer", { player })));
      buttons.push(el("button", { type: "button", "data-focus": "clock-end", "data-choice": "end", onclick: () => choose("end") }, t("clock_end")));
    }
    if (mySeats.includes(clock.seat)) {
      text = text || t("clock_you_timed_out");
      buttons.push(el("button", { type: "button", class: "primary", "data-focus": "clock-back", "data-choice": "back", onclick: () => choose("back") }, t("clock_back")));
    }
  } else if (clock.computer.some((s) => mySeats.includes(s) && !clock.returning.includes(s))) {
    buttons.push(el("button", { type: "button", class: "primary", "data-focus": "clock-back", "data-choice": "back", onclick: () => choose("back") }, t("clock_take_back")));
  }
  return { text, buttons };
}

// Once a second: the countdowns' text (not read out), ten seconds' warning said once
// to everyone, and a look at the server when the time is out (it pauses the seat).
function tick() {
  const clock = state.view && state.view.clock;
  if (!clock || $("clock").hidden) return;
  $("clock-time").textContent = timeLine(clock);
  const low = clock.mode === "live" && clock.phase === "running" && local.endsAt !== null && left(local.endsAt) <= 10;
  $("clock-time").classList.toggle("low", low);
  const turnKey = `${state.view.version}:${clock.deadline}`;
  if (low && left(local.endsAt) > 0 && local.warned !== clock.deadline) {
    local.warned = clock.deadline;
    $("clock-news").textContent = t("clock_ten_left", { player: seatName(clock.seat) });
  }
  if (clock.phase === "paused" && clock.mode === "live") {
    const text = document.querySelector("#clock-choices-text");
    if (text) text.textContent = choices(clock).text;
  }
  const endsAt = clock.phase === "paused" ? local.chooseEndsAt : local.endsAt;
  if (endsAt !== null && left(endsAt) <= -0.5 && !local.asked) {
    local.asked = turnKey; // once per version: the server settles the clock on this look
    load();
  }
}

export function renderClock() {
  const clock = state.view.clock;
  $("clock").hidden = !clock;
  if (!clock) return;
  local.endsAt = clock.seconds_left === null ? null : performance.now() + clock.seconds_left * 1000;
  local.chooseEndsAt = clock.choose_left === null ? null : performance.now() + clock.choose_left * 1000;
  local.asked = false;
  $("clock").classList.toggle("paused", clock.phase === "paused");
  const said = news(clock);
  if (said !== local.said) { // said once when it changes, not at every render
    local.said = said;
    $("clock-news").textContent = said;
  }
  const { text, buttons } = choices(clock);
  const box = $("clock-choices");
  box.hidden = !buttons.length;
  box.replaceChildren(...(text ? [el("span", { id: "clock-choices-text" }, text)] : []), ...buttons);
  $("clock-note").textContent = note(clock);
  tick();
}

setInterval(tick, 1000);
