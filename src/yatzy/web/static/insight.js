// Hints during play and the analysis after the game, as a player reads them.
// A plain ES module (no build step): the server words every choice in the game's
// language; this module lays the words out, ranks nothing and computes no rule.
// Exports renderHint(container, hint, strings),
// renderAnalysis(container, analysis, view, strings, mine) and
// renderWinAnalysis(container, data, strings, mine); `strings` is the page's dict of
// words (web/i18n.py ui_strings), `mine` the viewer's seats (their analysis first).

import { el, svg } from "./widgets.js";

// The stylesheet of this module, next to it (so a path prefix needs nothing more).
function ensureStyles() {
  if (document.querySelector("link[data-insight]")) return;
  const link = el("link", { rel: "stylesheet", href: new URL("insight.css", import.meta.url).href, "data-insight": true });
  document.head.append(link);
}

const lang = () => document.documentElement.lang || "en";

// The players with the viewer's own seats first (each part in seat order): the end
// screen leads with the viewer's own result, and so does its analysis.
export function viewerFirst(players, mine = []) {
  const own = (p) => (mine.includes(p.seat) ? 0 : 1);
  return [...players].sort((a, b) => own(a) - own(b) || a.seat - b.seat);
}

// A number in the page's language with ``digits`` decimals ("1,3" in Swedish).  Each
// language and number of decimals builds its Intl.NumberFormat once: building one is
// what took the time (about 60 ms of a whole game against the computer, on every chance
// and hint drawn).
const numberFormats = new Map();

export function formatNumber(x, digits = 1) {
  const key = `${lang()}:${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(key, format);
  }
  return format.format(x);
}

// A percentage as the page writes it, "54,3 %": the figure and its sign joined by a
// no-break space, so that a line never starts with the "%".
export function formatPercent(x, digits = 1) {
  return `${formatNumber(x, digits)}\u00a0%`;
}

// Points lost against the best option, to a tenth: "−1,3 p", or "as good"
// (percentage points "−1,3 %" for a hint that aims at a target).
export function lossText(loss, strings, unit) {
  if (loss < 0.05) return strings.as_good || "=";
  return `−${formatNumber(loss)} ${unit || strings.points_short || "p"}`;
}

function approximateBadge(strings, note) {
  return el("span", { class: "badge approximate", title: note || null }, strings.approximate || "≈");
}

// The hint: the best option's expected final score once, then the options ranked by
// points lost.  Each option carries data-keep ("0,2": die positions) or data-box
// (box id; DubbelYatzy "inner,outer" with data-inner/data-outer) for highlighting.
export function renderHint(container, hint, strings) {
  ensureStyles();
  container.replaceChildren();
  if (!hint) return;
  container.classList.add("insight-hint");
  const head = el("p", { class: "hint-head" }, el("strong", {}, strings.hint));
  if (hint.pending) {
    // the server's words while the table is being prepared, else "working out"
    head.append(" ", el("span", { role: "status" }, hint.note || strings.hint_pending));
    container.append(head);
    return;
  }
  if (!hint.options.length) {
    if (hint.note) container.append(head, el("p", { class: "hint-note" }, hint.note));
    return;
  }
  if (hint.approximate) head.append(" ", approximateBadge(strings, hint.note));
  // A hint aiming at the record ranks by the chance of reaching it (percent).
  const aim = hint.aim === "record";
  const label = aim ? (strings.record_hint_value || "").replace("{target}", hint.target) : strings.best_value;
  const best = aim ? formatPercent(hint.options[0].value) : formatNumber(hint.options[0].value);
  head.append(" · ", `${label}: `, el("strong", { class: "hint-value" }, best));
  container.append(head);
  const list = el("ol", { class: "hint-options" });
  hint.options.forEach((o, i) => {
    const boxes = o.box || (o.inner && o.outer ? `${o.inner},${o.outer}` : null);
    list.append(el("li", {
      class: "hint-option" + (i === 0 ? " best" : ""), tabindex: "0",
      "data-keep": o.keep ? o.keep.join(",") : null,
      "data-box": boxes, "data-inner": o.inner, "data-outer": o.outer,
    }, el("span", { class: "hint-text" }, o.text), " ",
    el("span", { class: "hint-loss" }, i === 0 ? strings.best_choice : lossText(o.loss, strings, aim ? "%" : null))));
  });
  container.append(list);
  if (hint.approximate && hint.note) container.append(el("p", { class: "hint-note" }, hint.note));
}

// An inline line chart of the expected final score before each turn, ending in the
// actual final score; role="img" with the server's one-sentence summary, and the
// numbers in a visually hidden table.
function chart(player, strings) {
  const points = player.trajectory.map((p) => [p.turn, p.expected]);
  const n = points.length;
  const W = 340, H = 170, L = 40, R = 14, T = 12, B = 30;
  const values = points.map((p) => p[1]).concat([player.final]);
  let lo = Math.min(...values), hi = Math.max(...values);
  const pad = Math.max(5, (hi - lo) * 0.1);
  lo = Math.max(0, Math.floor((lo - pad) / 10) * 10);
  hi = Math.ceil((hi + pad) / 10) * 10;
  const x = (turn) => L + ((turn - 1) / Math.max(1, n)) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / Math.max(1, hi - lo)) * (H - T - B);
  const line = points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const end = [x(n + 1), y(player.final)];
  const graph = svg("svg", {
    class: "trajectory", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": player.chart_label || strings.chart_title, width: W, height: H,
  });
  graph.append(svg("title", {}, player.chart_label || strings.chart_title));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    graph.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    graph.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, formatNumber(v, 0)));
  }
  for (const t of [1, Math.ceil(n / 2), n]) {
    graph.append(svg("text", { x: x(t), y: H - B + 16, "text-anchor": "middle", class: "tick" }, String(t)));
  }
  graph.append(svg("text", { x: end[0], y: H - B + 16, "text-anchor": "middle", class: "tick" }, "★"));
  graph.append(svg("text", { x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle", class: "axis" }, strings.turn));
  graph.append(svg("polyline", { points: line, class: "expected" }));
  const last = points[n - 1];
  graph.append(svg("line", { x1: x(last[0]), y1: y(last[1]), x2: end[0], y2: end[1], class: "to-final" }));
  points.forEach(([t, v]) => graph.append(svg("circle", { cx: x(t), cy: y(v), r: 2.5, class: "expected" })));
  graph.append(svg("circle", { cx: end[0], cy: end[1], r: 4.5, class: "final" }));
  const table = el("table", { class: "sr" },
    el("caption", {}, player.chart_label || strings.chart_title),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, strings.turn), el("th", { scope: "col" }, strings.expected))));
  const body = el("tbody");
  points.forEach(([t, v]) => body.append(el("tr", {}, el("th", { scope: "row" }, String(t)), el("td", {}, formatNumber(v)))));
  body.append(el("tr", {}, el("th", { scope: "row" }, strings.final_score), el("td", {}, String(player.final))));
  table.append(body);
  const legend = el("p", { class: "chart-legend" },
    el("span", { class: "key expected" }), ` ${strings.expected} `,
    el("span", { class: "key final" }), ` ${strings.final_score}: ${player.final}`);
  return el("figure", { class: "chart" }, el("figcaption", {}, strings.chart_title), graph, legend, table);
}

function playerSection(player, strings, scope) {
  const section = el("section", { class: "analysis-player", "data-seat": player.seat });
  section.append(el("h4", {}, `${player.name} — ${player.final}`));
  section.append(el("p", { class: "analysis-summary" }, player.summary));
  if (player.costliest.length) {
    section.append(el("h5", {}, strings.costliest));
    const list = el("ol", { class: "costliest" });
    player.costliest.forEach((c) => list.append(el("li", {}, c.text)));
    section.append(list);
  } else if (player.decisions) {
    section.append(el("p", {}, strings.no_mistakes));
  }
  if (player.trajectory.length && scope !== "none") section.append(chart(player, strings));
  return section;
}

// The analysis after the game: "being computed" while it is, else per person the
// summary in words, the costliest choices and the chart.  `analysis` null means
// not here yet; {error: "..."} a failure.
export function renderAnalysis(container, analysis, view, strings, mine = []) {
  ensureStyles();
  container.replaceChildren(el("h3", {}, strings.analysis));
  container.classList.add("insight-analysis");
  if (!analysis || analysis.pending) {
    container.setAttribute("aria-busy", "true");
    container.append(el("p", { role: "status", class: "analysis-pending" }, analysis && analysis.preparing ? strings.analysis_preparing : strings.analysis_pending));
    return;
  }
  container.removeAttribute("aria-busy");
  if (analysis.error) {
    // true: a reason the server gave in its own words (not the page's): none is shown.
    container.append(el("p", { class: "error" }, analysis.error === true ? `${strings.analysis_failed}.` : `${strings.analysis_failed}: ${analysis.error}`));
    return;
  }
  if (analysis.explanation) container.append(el("p", { class: "analysis-explanation" }, analysis.explanation));
  if (analysis.approximate) {
    container.append(el("p", { class: "hint-note" }, approximateBadge(strings, analysis.note), " ", analysis.note || ""));
  }
  for (const player of viewerFirst(analysis.players, mine)) container.append(playerSection(player, strings, analysis.scope));
}

// -- the analysis in win chance -------------------------------------------------------------

// Line colours and dash patterns: the players' lines differ by more than colour.
const LINE_STYLES = [
  ["#0b5cad", ""], ["#b5400b", "6 3"], ["#1f7a3a", "2 3"], ["#6a3d9a", "8 3 2 3"],
  ["#8a6d00", "1 2"], ["#00727a", "10 4"], ["#a3195b", "4 2 1 2"], ["#444444", "3 5"],
];

// Every player's chance before each turn of the game and at its end (0–100 %): an
// SVG line chart, role="img" with the server's summary, the numbers in a hidden table.
// Rounds played: whole rounds as "8", a round under way as "7,5".
const roundText = (r) => (Number.isInteger(r) ? String(r) : formatNumber(r));

// Along the rounds played (0 to 15 for Yatzy, whatever the players), not the game's turns.
function winChart(data, strings) {
  const turns = data.rounds || data.turns;
  const n = Math.max(1, turns[turns.length - 1] - turns[0]);
  const W = 340, H = 190, L = 40, R = 12, T = 10, B = 32;
  const x = (t) => L + ((t - turns[0]) / n) * (W - L - R);
  const y = (v) => T + (1 - v / 100) * (H - T - B);
  const graph = svg("svg", {
    class: "win-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": data.label, width: W, height: H,
  });
  graph.append(svg("title", {}, data.label));
  for (const v of [0, 50, 100]) {
    graph.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    graph.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, formatPercent(v, 0)));
  }
  const first = turns[0], last = turns[turns.length - 1];
  for (const t of [first, Math.round((first + last) / 2), last]) {
    graph.append(svg("text", { x: x(t), y: H - B + 16, "text-anchor": "middle", class: "tick" }, roundText(t)));
  }
  graph.append(svg("text", { x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle", class: "axis" }, strings.wa_rounds));
  data.lines.forEach((line, i) => {
    const [colour, dash] = LINE_STYLES[i % LINE_STYLES.length];
    const points = line.chances.map((c, k) => `${x(turns[k]).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
    graph.append(svg("polyline", {
      points, class: "win-line", "data-seat": line.seat, stroke: colour, "stroke-dasharray": dash || "none",
    }));
  });
  const legend = el("p", { class: "chart-legend" });
  data.lines.forEach((line, i) => {
    const [colour, dash] = LINE_STYLES[i % LINE_STYLES.length];
    const key = svg("svg", { class: "win-key", width: 24, height: 8, "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: colour, "stroke-width": 2.5, "stroke-dasharray": dash || "none" }));
    legend.append(key, ` ${line.name} `);
  });
  const head = el("tr", {}, el("th", { scope: "col" }, strings.wa_rounds));
  data.lines.forEach((line) => head.append(el("th", { scope: "col" }, line.name)));
  const body = el("tbody");
  turns.forEach((t, k) => {
    const row = el("tr", {}, el("th", { scope: "row" }, roundText(t)));
    data.lines.forEach((line) => row.append(el("td", {}, formatPercent(line.chances[k]))));
    body.append(row);
  });
  const table = el("table", { class: "sr" }, el("caption", {}, data.title), el("thead", {}, head), body);
  return el("figure", { class: "chart win" }, el("figcaption", {}, data.title), graph, legend, table);
}

// One person's decisions: the costliest for the chance in words, then every decision
// with the points it cost beside the chance (a table inside a disclosure).
function winPlayer(player, strings) {
  const section = el("section", { class: "win-player", "data-seat": player.seat });
  section.append(el("h4", {}, player.name));
  section.append(el("p", { class: "win-summary" }, player.summary));
  if (player.costliest.length) {
    section.append(el("h5", {}, strings.wa_costliest));
    const list = el("ol", { class: "costliest win-costliest" });
    player.costliest.forEach((text) => list.append(el("li", {}, text)));
    section.append(list);
  }
  if (player.decisions.length) {
    const head = el("tr", {},
      ...[strings.turn, strings.roll, strings.wa_choice, strings.wa_points, strings.wa_change, strings.wa_after]
        .map((h) => el("th", { scope: "col" }, h)));
    const body = el("tbody");
    for (const d of player.decisions) {
      // Simulated: "about −3.2" (the note under the analysis says by how much it may be off).
      const lost = d.cost >= 0.05 ? `−${formatNumber(d.cost)}` : "0";
      const change = d.margin > 0 ? strings.wa_about.replace("{value}", lost) : lost;
      const choice = el("td", {}, d.chosen);
      if (d.better) choice.append(el("br"), el("span", { class: "win-better" }, `${strings.wa_better}: ${d.better}`));
      body.append(el("tr", { class: d.cost >= 0.5 ? "costly" : null },
        el("th", { scope: "row" }, String(d.turn)), el("td", {}, String(d.roll)), choice,
        el("td", { class: "num" }, d.points >= 0.05 ? `−${formatNumber(d.points)}` : "0"),
        el("td", { class: "num" }, change),
        el("td", { class: "num" }, formatPercent(d.after))));
    }
    const table = el("table", { class: "win-decisions" }, el("caption", { class: "sr" }, `${strings.wa_all} – ${player.name}`),
      el("thead", {}, head), body);
    section.append(el("details", { class: "win-all" }, el("summary", {}, strings.wa_all), el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${strings.wa_all} – ${player.name}` }, table)));
  }
  return section;
}

// The analysis in win chance after the game: "being computed" while it is, else the
// chart of every player's chance and each person's decisions with the change in
// chance beside the points (meanwhile an estimate, `estimated`, its note saying so).  `data` null means not here yet; {error: "..."} a failure.
export function renderWinAnalysis(container, data, strings, mine = []) {
  ensureStyles();
  const title = data && data.goal === "record" ? strings.wa_analysis_record : strings.wa_analysis;
  container.replaceChildren(el("h3", {}, title));
  container.classList.add("insight-analysis", "win-analysis");
  if (!data || (data.pending && !data.estimated)) {
    container.setAttribute("aria-busy", "true");
    container.append(el("p", { role: "status", class: "analysis-pending" }, data && data.preparing ? strings.wa_preparing : strings.wa_pending));
    return;
  }
  container.removeAttribute("aria-busy");
  if (data.error) {
    container.append(el("p", { class: "error" }, data.error === true ? `${strings.wa_failed}.` : `${strings.wa_failed}: ${data.error}`));
    return;
  }
  if (data.unavailable) {
    container.append(el("p", { class: "analysis-explanation" }, data.explanation));
    return;
  }
  container.append(winChart(data, strings));
  if (data.people_note) container.append(el("p", { class: "hint-note" }, data.people_note));
  if (data.note) container.append(el("p", { class: "hint-note" }, approximateBadge(strings, data.note), " ", data.note));
  for (const player of viewerFirst(data.players, mine)) container.append(winPlayer(player, strings));
}
