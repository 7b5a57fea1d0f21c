// The lobby: the open seeks (polled every few seconds; a page seated in a seek goes
// to its game once it is full), a new seek, and "play someone now" (polled every
// second while waiting: a wait whose page stops polling is dropped by the server).
// Every request that changes something carries the X-Yatzy-CSRF header.
import { el } from "./widgets.js";

const root = document.getElementById("lobby");
const words = JSON.parse(root.dataset.lobbyWords);
const lang = root.dataset.lang;
const signedIn = root.dataset.signedIn === "true";
const error = document.getElementById("lobby-error");
const HEADERS = { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" };
const api = (path) => new URL(path, document.baseURI);
const go = (game) => { window.location.href = api(`g/${game}`).href; };
let seatedIn = new Set(); // the seeks this account sits in (it is sent to their games)

async function call(path, body) {
  let response, data = null;
  try {
    response = await fetch(api(path), {
      method: body === undefined ? "GET" : "POST", credentials: "same-origin",
      headers: body === undefined ? {} : HEADERS, body: body === undefined ? undefined : JSON.stringify(body),
    });
    data = await response.json();
  } catch (e) {
    error.textContent = words.failed;
    return null;
  }
  if (!response.ok) {
    error.textContent = response.status === 429 ? words.too_many : response.status === 409 ? words.closed : words.failed;
    return null;
  }
  error.textContent = "";
  return data;
}

function clockWords(tc) {
  if (!tc) return words.tc_none;
  return tc.mode === "live" ? words.tc_live.replace("{n}", tc.seconds) : words.tc_daily.replace("{n}", tc.days);
}

function seekItem(seek) {
  const seated = words.seated.replace("{seated}", seek.seated.length).replace("{players}", seek.players);
  const item = el("li", {},
    el("span", { class: "who" }, seek.title), " ",
    el("span", {}, `${words.by.replace("{name}", seek.by)} · ${seated} · ${clockWords(seek.time_control)}`),
    el("br"), el("span", { class: "hint" }, seek.seated.join(", ")), " ");
  const act = (action, text) => el("button", {
    type: "button", "aria-label": `${text}: ${seek.title}, ${words.by.replace("{name}", seek.by)}`,
    onclick: async () => {
      const data = await call(`api/lobby/seeks/${seek.id}/${action}?lang=${lang}`, {});
      if (data && data.game) go(data.game);
      refresh();
    },
  }, text);
  if (seek.mine) item.append(act("cancel", words.cancel));
  else if (seek.joined) item.append(act("leave", words.leave));
  else if (signedIn) item.append(act("join", words.join));
  if (seek.joined) item.append(el("br"), el("span", { role: "status" }, words.you_are_in));
  return item;
}

async function refresh() {
  if (document.hidden) return;
  const data = await call(`api/lobby?lang=${lang}`);
  if (!data) return;
  for (const s of data.started) if (seatedIn.has(s.seek)) { go(s.game); return; }
  seatedIn = new Set(data.seeks.filter((s) => s.joined).map((s) => s.id));
  document.getElementById("seeks").replaceChildren(...data.seeks.map(seekItem));
  document.getElementById("no-seeks").hidden = data.seeks.length > 0;
  queues = data.queues;
  showQueue();
}

// How many wait now in the queue the quick-match form has chosen.
let queues = [];
function showQueue() {
  const rules = quickForm.elements.rules.value, players = Number(quickForm.elements.players.value);
  const queue = queues.find((q) => q.rules === rules && q.players === players);
  document.getElementById("queue-note").textContent = queue ? words.queue.replace("{n}", queue.waiting) : "";
}

document.getElementById("seek").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  const [mode, n] = form.elements.clock.value.split(":");
  const time_control = !mode ? null : mode === "live" ? { mode, seconds: Number(n) } : { mode, days: Number(n) };
  const data = await call("api/lobby/seeks", {
    rules: form.elements.rules.value, players: Number(form.elements.players.value), lang, time_control,
  });
  if (data) refresh();
});

// -- play someone now --------------------------------------------------------------------
const quickForm = document.getElementById("quick");
const waitBox = document.getElementById("quick-wait");
let polling = null;

function showQuick(state) {
  if (!state) return;
  if (state.game) { stopPolling(); go(state.game); return; }
  const waiting = state.state === "waiting" || state.state === "matched";
  waitBox.hidden = !waiting;
  quickForm.hidden = waiting;
  const status = state.state === "matched" ? words.starting : words.waiting.replace("{seconds}", Math.floor(state.waited));
  document.getElementById("quick-status").textContent = waiting ? status : "";
  document.getElementById("computer-offer").hidden = !state.computer;
  if (!waiting) stopPolling();
}

function stopPolling() { if (polling) clearInterval(polling); polling = null; }

quickForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const state = await call("api/lobby/quick", {
    rules: quickForm.elements.rules.value, players: Number(quickForm.elements.players.value), lang,
  });
  if (!state) return;
  showQuick(state);
  if (!state.game && !polling) polling = setInterval(async () => showQuick(await call("api/lobby/quick")), 1000);
  document.getElementById("quick-stop").focus();
});
quickForm.addEventListener("change", showQueue);
document.getElementById("quick-stop").addEventListener("click", async () => {
  stopPolling();
  showQuick(await call("api/lobby/quick/leave", {}));
  quickForm.querySelector("button").focus();
});
document.getElementById("play-computer").addEventListener("click", async () => {
  const data = await call("api/lobby/quick/computer", {});
  if (data) { stopPolling(); go(data.game); }
});

refresh();
setInterval(refresh, 3000);
document.addEventListener("visibilitychange", refresh);
