// A tournament's page: join or cancel, and the live standings (asked for every 15 s
// while the tournament is open or running and the page is in view; a new round, the
// start or the end reloads the page, a changed score only redraws the standings).
import { localTimes, post } from "./tournament-common.js";

const root = document.getElementById("tournament");
const id = root.dataset.id;
const words = JSON.parse(root.dataset.words);
const error = document.getElementById("tournament-error");
localTimes(document);

async function change(action) {
  error.textContent = "";
  const lang = document.documentElement.lang;
  const { response } = await post(`api/tournaments/${id}/${action}?lang=${lang}`);
  if (!response || !response.ok) {
    error.textContent = response && response.status === 409 ? words.too_late : words.failed;
    return;
  }
  window.location.reload();
}

document.getElementById("join")?.addEventListener("click", () => change("join"));
document.getElementById("cancel")?.addEventListener("click", () => change("cancel"));

function cell(label, content, strong) {
  const td = document.createElement("td");
  td.dataset.label = label;
  if (strong) {
    const b = document.createElement("strong");
    b.textContent = content;
    td.append(b);
  } else {
    td.textContent = content;
  }
  return td;
}

function redraw(view) {
  const table = document.getElementById("standings");
  if (!table) return;
  const labels = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  const rows = view.standings.map((s) => {
    const tr = document.createElement("tr");
    if (s.yours) tr.className = "yours";
    const values = [s.place, s.name, ...s.rounds.map((x) => (x === null ? "–" : x)), s.total, s.points];
    if (view.state === "running") values.push(s.live === null ? "–" : s.live);
    values.forEach((v, i) => tr.append(cell(labels[i] || "", String(v), i === 1 && s.yours)));
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}

let shown = null;
async function refresh() {
  if (document.hidden) return;
  let view;
  try {
    const lang = document.documentElement.lang;
    const response = await fetch(new URL(`api/tournaments/${id}?lang=${lang}`, document.baseURI), { credentials: "same-origin" });
    if (!response.ok) return;
    view = await response.json();
  } catch (err) {
    return;
  }
  if (view.state !== root.dataset.state || String(view.round) !== root.dataset.round) {
    window.location.reload();
    return;
  }
  const key = JSON.stringify(view.standings);
  if (shown !== null && key !== shown) redraw(view);
  shown = key;
}

if (root.dataset.state === "open" || root.dataset.state === "running") {
  refresh();
  setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", refresh);
}
