// The history page: dates in the reader's time zone and language, and the
// statistics per rule set from /api/stats (a table and an inline SVG bar chart).
import { el, svg } from "./widgets.js";
const section = document.getElementById("stats");
const lang = section.dataset.lang || document.documentElement.lang || "en";
const words = JSON.parse(document.getElementById("stats").dataset.words);

const link = el("link", { rel: "stylesheet", href: new URL("insight.css", import.meta.url).href });
document.head.append(link);

const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
for (const t of document.querySelectorAll("time[datetime]")) {
  const date = new Date(t.getAttribute("datetime"));
  if (!Number.isNaN(date.getTime())) t.textContent = when.format(date);
}

const one = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

function rulesCell(row) {
  const cell = el("th", { scope: "row" }, row.title);
  if (row.house_rules.length) cell.append(el("br"), el("span", { class: "rules-words" }, row.house_rules.join(", ")));
  return cell;
}

function table(rows) {
  const head = el("tr", {}, ...["variant", "games_played", "average", "best_score", "bonus_rate", "yatzy_rate", "solo_record"]
    .map((k) => el("th", { scope: "col" }, words[k])));
  const body = el("tbody");
  // Each cell names its column: on a phone the rows become cards whose cells show the
  // label (app.css, .history td::before), as the games list's do.
  const cell = (key, text) => el("td", { "data-label": words[key] }, text);
  for (const r of rows) {
    body.append(el("tr", { "data-rules": r.rules }, rulesCell(r),
      cell("games_played", String(r.games)), cell("average", one.format(r.average)), cell("best_score", String(r.best)),
      cell("bonus_rate", percent.format(r.bonus_rate)), cell("yatzy_rate", percent.format(r.yatzy_rate)),
      cell("solo_record", r.solo_record === null ? "–" : String(r.solo_record))));
  }
  const wrap = el("div", { class: "protocol-wrap" }, el("table", { class: "history stats-table" }, el("thead", {}, head), body));
  // A "–" said in words under the table once there is one (no tooltip on a phone).
  if (rows.some((r) => r.solo_record === null)) wrap.append(el("p", { class: "sheet-key" }, words.dash_no_solo));
  return wrap;
}

// Average (bar) and best (tick) per rule set, one row each.
function chart(rows) {
  const rowH = 30, L = 150, R = 90, W = 560, H = rows.length * rowH + 10;
  const top = Math.max(...rows.map((r) => r.best), 1);
  const scale = (v) => (v / top) * (W - L - R);
  const summary = `${words.stats_chart}: ` + rows.map((r) => `${r.title} ${one.format(r.average)} (${words.best_score} ${r.best})`).join("; ");
  const graph = svg("svg", { class: "bars", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": summary });
  graph.append(svg("title", {}, summary));
  rows.forEach((r, i) => {
    const y = 5 + i * rowH;
    const name = r.title + (r.house_rules.length ? " *" : "");
    graph.append(svg("text", { x: L - 6, y: y + 18, "text-anchor": "end" }, name.length > 22 ? name.slice(0, 21) + "…" : name));
    graph.append(svg("rect", { x: L, y: y + 4, width: Math.max(1, scale(r.average)), height: rowH - 10, class: "bar" }));
    graph.append(svg("rect", { x: L + scale(r.best) - 1.5, y: y + 1, width: 3, height: rowH - 4, class: "bar best" }));
    graph.append(svg("text", { x: L + scale(r.best) + 5, y: y + 18 }, `${one.format(r.average)} / ${r.best}`));
  });
  const marked = rows.some((r) => r.house_rules.length);
  return el("figure", { class: "chart" }, el("figcaption", {}, `${words.stats_chart} (${words.average} / ${words.best_score})`),
    graph, marked ? el("p", { class: "chart-legend" }, words.house_rules_mark) : null);
}

async function load() {
  const body = document.getElementById("stats-body");
  try {
    const response = await fetch(new URL(`api/stats?lang=${encodeURIComponent(lang)}`, document.baseURI), { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data = await response.json();
    if (!data.variants.length) { body.replaceChildren(el("p", { id: "no-stats" }, words.no_stats)); return; }
    body.replaceChildren(table(data.variants), chart(data.variants));
  } catch (e) {
    console.warn(e);
    body.replaceChildren(el("p", { class: "error", role: "alert" }, words.stats_failed));
  }
}

load();
