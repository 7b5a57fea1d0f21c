// The game page: renders the server's view and sends the player's choices.
// Every rule (what may be scored, the points, whose turn) comes from the server.
"use strict";
(function () {
  const root = document.getElementById("game");
  const gameId = root.dataset.game;
  const $ = (id) => document.getElementById(id);
  const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  const params = new URLSearchParams(window.location.search);
  let view = null;
  let you = { seats: [] };
  let kept = new Set();
  let turnKey = null;
  let pick = { inner: null, outer: null }; // DubbelYatzy's two results being chosen
  let busy = false;
  // Hints and the analysis are drawn by the insight module (loaded beside this script).
  let insight = null;
  import("/static/insight.js").then((m) => { insight = m; if (view) render(); });

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }
  let words = {}; // the page's words in the game's language (sent once, with the first view)
  const t = (key) => words[key] || key;
  const seatName = (seat) => view.players[seat].name;
  const signed = (n) => (n > 0 ? "+" + n : String(n));

  function myTurn() {
    return view && view.turn && you.seats.includes(view.turn.seat);
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = { detail: response.statusText }; }
    if (!response.ok) {
      const detail = typeof data.detail === "string" ? data.detail
        : (data.detail || []).map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
      throw new Error(detail || `HTTP ${response.status}`);
    }
    return data;
  }

  function accept(game, mine) {
    if (view && game.version < view.version) return;
    if (mine) you = Object.assign({}, you, mine);
    if (game.ui) words = game.ui;
    view = game;
    render();
  }

  async function load() {
    try {
      const data = await api("GET", `/api/games/${gameId}`);
      accept(data, data.you);
    } catch (e) { $("error").textContent = e.message; }
  }

  // Actions go over the game's WebSocket while it is open (no request per click);
  // the answer quotes the action's ref. Without the socket they are POSTed.
  let socket = null;
  let refs = 0;
  const waiting = new Map(); // ref -> { resolve, reject, timer }

  function sendOverSocket(body) {
    return new Promise((resolve, reject) => {
      const ref = ++refs;
      const timer = setTimeout(() => take(ref).reject(new Error(t("no_answer"))), 15000);
      waiting.set(ref, { resolve, reject, timer });
      socket.send(JSON.stringify(Object.assign({ type: "act", ref }, body)));
    });
  }

  // The waiting action with this ref, no longer waiting (undefined if none is).
  function take(ref) {
    const entry = waiting.get(ref);
    if (entry) { waiting.delete(ref); clearTimeout(entry.timer); }
    return entry;
  }

  function answered(data) {
    const entry = take(data.ref);
    if (!entry) return false;
    if (data.type === "error") {
      entry.reject(Object.assign(new Error(data.detail || `HTTP ${data.status}`), { status: data.status }));
    } else entry.resolve(data.game);
    return true;
  }

  async function act(action) {
    if (busy || !view || !view.turn) return;
    busy = true;
    $("error").textContent = "";
    const body = { action, seat: view.turn.seat, version: view.version };
    const post = () => api("POST", `/api/games/${gameId}/actions`, body);
    try {
      let data;
      if (socket && socket.readyState === WebSocket.OPEN) {
        try {
          data = await sendOverSocket(body);
        } catch (e) {
          // A seat taken in another tab after this socket opened: the request
          // carries today's cookies, and a new socket will too.
          if (e.status !== 403) throw e;
          reconnect();
          data = await post();
        }
      } else data = await post();
      accept(data, data.you);
    } catch (e) {
      $("error").textContent = e.message;
    } finally {
      busy = false;
      if (view) render();
    }
  }

  function connect() {
    const proto = window.location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${window.location.host}/api/games/${gameId}/ws`);
    socket = ws;
    ws.onopen = () => {
      root.dataset.socket = "open";
      $("live").textContent = "● " + t("live"); $("live").className = "live on";
    };
    ws.onmessage = (msg) => {
      const data = JSON.parse(msg.data);
      if (data.ref != null && answered(data)) return;
      if (data.type === "state") accept(data.game, null);
    };
    ws.onclose = () => {
      if (socket !== ws) return; // replaced by reconnect()
      socket = null;
      delete root.dataset.socket;
      for (const ref of [...waiting.keys()]) take(ref).reject(new Error(t("offline")));
      $("live").textContent = "○ " + t("offline"); $("live").className = "live off";
      setTimeout(() => { load(); connect(); }, 1500);
    };
  }

  // A seat claimed after the socket opened is not among the socket's seats (they
  // come with its opening request's cookies): open a new one.
  function reconnect() {
    const old = socket;
    delete root.dataset.socket;
    connect();
    if (old) old.close();
  }

  // -- rendering --------------------------------------------------------------------------

  function dieLabel(i, d) {
    const face = Array.isArray(d) ? `${t("outer")} ${d[0]}, ${t("inner")} ${d[1]}` : String(d);
    return `${t("die")} ${i + 1}: ${face}` + (kept.has(i) ? `, ${t("kept")}` : "");
  }

  function renderDice() {
    const box = $("dice");
    box.replaceChildren();
    const turn = view.turn;
    if (!turn || !turn.dice) return;
    const canKeep = myTurn() && !view.pad && turn.rolls_left > 0;
    turn.dice.forEach((d, i) => {
      const face = Array.isArray(d)
        ? el("span", { class: "double" }, el("span", { class: "outer" }, FACES[d[0]]), el("span", { class: "inner" }, FACES[d[1]]))
        : FACES[d];
      const button = el("button", {
        class: "die" + (kept.has(i) ? " kept" : ""), "aria-pressed": kept.has(i) ? "true" : "false",
        "aria-label": dieLabel(i, d), "data-pos": i, disabled: !canKeep,
        onclick: () => toggleKeep(i),
      }, face);
      box.append(button);
    });
  }

  function toggleKeep(i) {
    if (!myTurn() || view.pad || !view.turn.dice || view.turn.rolls_left === 0) return;
    if (kept.has(i)) kept.delete(i); else kept.add(i);
    renderDice();
  }

  function entryCell(entry) {
    if (!entry) return "";
    if (entry.scratched) return el("span", { class: "scratched", "aria-label": `0 (${t("scratch")})` }, "–");
    const text = String(entry.points);
    if (entry.drop) {
      return el("span", {}, text, el("small", { class: "drop", title: t("dropped") }, ` ∖${entry.drop}`));
    }
    return text;
  }

  function chooseCell(box, seat) {
    const turn = view.turn;
    if (!turn || turn.seat !== seat || !myTurn() || !turn.allowed.includes(box.id)) return null;
    const scratch = $("scratch-mode").checked;
    if (scratch && !box.scratchable) return null;
    if (!turn.preview && !(view.pad && scratch)) return null;
    const points = turn.preview ? turn.preview[box.id] : (view.double ? [0, 0] : 0);
    if (points === undefined) return null;
    if (!view.double) {
      const label = scratch ? `${t("scratch")} ${box.name}` : `${t("score")} ${points} ${box.name}`;
      return el("button", {
        class: "choose" + (scratch ? " scratch" : ""), "aria-label": label, "data-box": box.id,
        onclick: () => act(scratch ? { scratch: box.id } : { score: box.id }),
      }, scratch ? "✕" : String(points));
    }
    const wrap = el("span", { class: "pair" });
    ["inner", "outer"].forEach((layer, k) => {
      const chosen = pick[layer] && pick[layer].box === box.id;
      const value = scratch ? "✕" : String(points[k]);
      wrap.append(el("button", {
        class: "choose " + layer + (chosen ? " chosen" : ""), "aria-pressed": chosen ? "true" : "false",
        "data-box": box.id, "data-layer": layer,
        "aria-label": `${t(layer)}: ${scratch ? t("scratch") : t("score") + " " + points[k]} ${box.name}`,
        onclick: () => choose(layer, scratch ? { scratch: box.id } : { score: box.id }, box.id),
      }, (layer === "inner" ? "◦" : "●") + value));
    });
    return wrap;
  }

  function choose(layer, entry, boxId) {
    pick[layer] = pick[layer] && pick[layer].box === boxId ? null : { box: boxId, entry };
    if (pick.inner && pick.outer) {
      const action = { inner: pick.inner.entry, outer: pick.outer.entry };
      pick = { inner: null, outer: null };
      act(action);
      return;
    }
    render();
  }

  function renderProtocol() {
    const table = $("protocol");
    table.replaceChildren();
    const head = el("tr", {}, el("th", { scope: "col" }, t("box")));
    view.players.forEach((p) => {
      const current = view.turn && view.turn.seat === p.seat;
      head.append(el("th", { scope: "col", class: current ? "current" : "" },
        p.name, p.bot ? el("small", {}, ` (${t("bot")}: ${p.bot})`) : null,
        !p.claimed ? el("small", {}, ` (${t("free")})`) : null,
        current ? el("span", { class: "sr" }, ` — ${t("turn_of")}`) : null));
    });
    table.append(el("thead", {}, head));
    const body = el("tbody");
    const row = (label, cells, cls) => {
      const tr = el("tr", { class: cls || "" }, el("th", { scope: "row" }, label));
      cells.forEach((c) => tr.append(el("td", {}, c)));
      body.append(tr);
    };
    const sheets = view.sheets;
    const upper = view.boxes.filter((b) => b.section === "upper");
    const lower = view.boxes.filter((b) => b.section === "lower");
    const extra = view.boxes.filter((b) => b.section === "extra");
    const boxRow = (b) => row(b.name, sheets.map((s, seat) => {
      const entry = s.entries[b.id];
      return entry ? entryCell(entry) : chooseCell(b, seat);
    }), "box");
    upper.forEach(boxRow);
    row(view.labels.sum, sheets.map((s) => String(s.upper_sum)), "computed");
    row(view.labels.bonus, sheets.map((s) => String(s.bonus)), "computed");
    row(view.labels.par, sheets.map((s) => signed(s.bonus_par)), "computed par");
    lower.forEach(boxRow);
    if (view.variant === "yahtzee") row(view.labels.yatzy_bonus, sheets.map((s) => String(s.yatzy_bonus)), "computed");
    row(view.labels.total, sheets.map((s) => String(s.total)), "computed total");
    if (extra.length) {
      extra.forEach(boxRow);
      row(view.labels.final, sheets.map((s) => String(s.final)), "computed total");
    }
    if (view.saved_rolls_rule) row(t("saved_rolls"), sheets.map((s) => String(s.saved_rolls)), "computed");
    table.append(body);
  }

  function renderRolloff() {
    const section = $("rolloff");
    if (!view.rolloff.length) { section.hidden = true; return; }
    section.hidden = false;
    section.replaceChildren(el("h2", { id: "rolloff-h" }, t("rolloff")));
    const list = el("ol");
    view.rolloff.forEach((round) => {
      list.append(el("li", {}, round.map((r) => `${seatName(r.seat)} ${FACES[r.die]} (${r.die})`).join(", ")));
    });
    section.append(list);
    if (view.starter !== null) section.append(el("p", { id: "starter" }, `${seatName(view.starter)} ${t("starts")}.`));
  }

  function renderLinks() {
    const links = $("links");
    links.replaceChildren();
    const base = `${window.location.origin}/g/${gameId}`;
    let invite = null;
    try { invite = localStorage.getItem("yatzy-invite-" + gameId); } catch (e) { /* ignore */ }
    const free = view.players.some((p) => !p.claimed);
    if (invite && free) {
      links.append(el("p", {}, `${t("invite")}: `, el("input", { readonly: true, value: `${base}?invite=${invite}`, id: "invite-link", "aria-label": t("invite"), class: "link" })));
    }
    links.append(el("p", {}, `${t("spectate")}: `, el("input", { readonly: true, value: base, id: "spectate-link", "aria-label": t("spectate"), class: "link" })));
    links.hidden = false;
  }

  function renderJoin() {
    const section = $("join");
    const invite = params.get("invite");
    const free = view.players.filter((p) => !p.claimed);
    if (!invite || !free.length || you.seats.length) { section.hidden = true; return; }
    section.hidden = false;
    section.replaceChildren(el("h2", {}, t("join")));
    free.forEach((p) => section.append(el("button", {
      class: "primary join", "data-seat": p.seat,
      onclick: async () => {
        try {
          const data = await api("POST", `/api/games/${gameId}/join`, { invite, seat: p.seat });
          accept(data, data.you);
          reconnect();
        } catch (e) { $("error").textContent = e.message; }
      },
    }, `${t("join")}: ${p.name}`)));
  }

  function renderStatus() {
    const status = $("status");
    if (view.finished) { status.textContent = t("game_over"); return; }
    if (!view.turn) { status.textContent = ""; return; }
    const who = seatName(view.turn.seat);
    const spectator = you.seats.length === 0 ? ` (${t("spectating")})` : "";
    status.textContent = myTurn()
      ? `${t("your_turn")}: ${who}` + (you.seats.length > 1 ? "" : "")
      : `${t("waiting_for")} ${who}${spectator}`;
  }

  function renderPlay() {
    const play = $("play");
    const turn = view.turn;
    play.hidden = !turn;
    if (!turn) return;
    const key = `${turn.number}:${turn.seat}`;
    if (key !== turnKey) { turnKey = key; kept = new Set(); pick = { inner: null, outer: null }; }
    const mine = myTurn();
    $("roll").textContent = t("roll");
    $("dice").setAttribute("aria-label", t("dice"));
    $("roll").hidden = view.pad;
    $("roll").disabled = !mine || turn.rolls_left === 0 || busy;
    $("scratch-label").textContent = t("scratch");
    $("keys").textContent = mine && !view.pad ? t("keys") : "";
    let left = view.pad ? "" : `${t("rolls_left")}: ${turn.rolls_left}`;
    if (view.saved_rolls_rule && !view.pad) left += ` (${t("saved_rolls")}: ${view.sheets[turn.seat].saved_rolls})`;
    $("rolls-left").textContent = left;
    $("pad-dice").hidden = !(view.pad && mine);
    $("pad-write").hidden = !(view.pad && mine);
    $("pad-dice-label").textContent = t("enter_dice") + (view.double ? " (outer+inner: 65 43 …)" : "");
    $("pad-dice-btn").textContent = t("set_dice");
    $("pad-box-label").textContent = t("box");
    $("pad-points-label").textContent = t("points");
    $("pad-write-btn").textContent = t("write_points");
    $("pad-layer-wrap").hidden = !view.double;
    const select = $("pad-box");
    const current = select.value;
    select.replaceChildren(...view.boxes.filter((b) => turn.allowed.includes(b.id)).map((b) => el("option", { value: b.id }, b.name)));
    if (turn.allowed.includes(current)) select.value = current;
    const choice = $("dubbel-choice");
    if (view.double && mine) {
      const parts = [];
      const boxName = (id) => view.boxes.find((b) => b.id === id).name;
      parts.push(pick.inner ? `◦ ${t("inner")}: ${boxName(pick.inner.box)}` : `◦ ${t("choose_inner")}`);
      parts.push(pick.outer ? `● ${t("outer")}: ${boxName(pick.outer.box)}` : `● ${t("choose_outer")}`);
      choice.textContent = parts.join(" · ");
    } else choice.textContent = "";
    if (insight) insight.renderHint($("hint"), mine ? turn.hint : null, words);
    renderDice();
    highlightHint();
  }

  // The dice and boxes of the hint under the pointer or focus, marked on the page.
  let hinted = null;
  function highlightHint() {
    document.querySelectorAll(".hinted").forEach((n) => n.classList.remove("hinted"));
    if (!hinted) return;
    if (hinted.dataset.keep) {
      hinted.dataset.keep.split(",").forEach((i) => {
        const die = document.querySelector(`.die[data-pos="${i}"]`);
        if (die) die.classList.add("hinted");
      });
    }
    const layers = { inner: hinted.dataset.inner, outer: hinted.dataset.outer };
    for (const [layer, box] of Object.entries(layers)) {
      if (box) document.querySelectorAll(`button.choose.${layer}[data-box="${box}"]`).forEach((b) => b.classList.add("hinted"));
    }
    if (hinted.dataset.box && !hinted.dataset.inner) {
      document.querySelectorAll(`button.choose[data-box="${hinted.dataset.box}"]`).forEach((b) => b.classList.add("hinted"));
    }
  }
  const hintTarget = (e) => (e.target.closest ? e.target.closest(".hint-option") : null);
  for (const type of ["mouseover", "focusin"]) {
    $("hint").addEventListener(type, (e) => { hinted = hintTarget(e); highlightHint(); });
  }
  for (const type of ["mouseout", "focusout"]) {
    $("hint").addEventListener(type, () => { hinted = null; highlightHint(); });
  }

  function renderWinner() {
    const section = $("winner");
    if (!view.finished) { section.hidden = true; return; }
    section.hidden = false;
    const names = view.winners.map((w) => `${seatName(w)} (${view.totals[w]})`).join(", ");
    section.replaceChildren(el("h2", { id: "winner-h" }, `${t("winner")}: ${names}`));
    renderAnalysis(section);
    if ("solo_record" in you) {
      const record = you.solo_record;
      section.append(el("p", { id: "record" }, you.beats_record
        ? `${t("new_record")} ${record === null ? "" : `(${t("record")}: ${record})`}`
        : `${t("record")}: ${record}`));
    }
  }

  let analysis = null;
  let analysisAsked = false;

  async function fetchAnalysis() {
    analysisAsked = true;
    try {
      const data = await api("GET", `/api/games/${gameId}/analysis`);
      if (data.pending) { setTimeout(fetchAnalysis, 2000); return; }
      analysis = data;
    } catch (e) { analysis = { error: e.message }; }
    render();
  }

  function renderAnalysis(section) {
    if (!analysisAsked) fetchAnalysis();
    const box = el("div", { id: "analysis" });
    section.append(box);
    if (insight) insight.renderAnalysis(box, analysis, view, words);
  }

  function renderSoloRecord() {
    if (!("solo_record" in you) || view.finished) return;
    const status = $("status");
    status.textContent += ` · ${t("record")}: ${you.solo_record === null ? t("no_record") : you.solo_record}`;
  }

  function render() {
    document.documentElement.lang = view.lang;
    root.dataset.version = String(view.version);
    root.dataset.mine = myTurn() ? "1" : "0";
    $("title").textContent = view.title + (view.pad ? ` — ${t("pad")}` : "");
    $("spec").textContent = view.rules;
    renderLinks();
    renderJoin();
    renderRolloff();
    renderStatus();
    renderSoloRecord();
    renderPlay();
    renderWinner();
    renderProtocol();
  }

  // -- input -------------------------------------------------------------------------------

  $("roll").addEventListener("click", () => act({ roll: view.turn.dice ? Array.from(kept).sort() : [] }));
  $("scratch-mode").addEventListener("change", () => render());
  $("pad-dice").addEventListener("submit", (e) => {
    e.preventDefault();
    // The server reads the text with the library's dice notation (never guessed).
    act({ dice: $("pad-dice-input").value });
  });
  $("pad-write").addEventListener("submit", (e) => {
    e.preventDefault();
    const points = Number($("pad-points").value);
    const entry = { write: $("pad-box").value, points };
    if (view.double) choose($("pad-layer").value, entry, entry.write);
    else act(entry);
  });
  document.addEventListener("keydown", (e) => {
    if (!view || e.ctrlKey || e.altKey || e.metaKey) return;
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (/^[1-6]$/.test(e.key) && view.turn && view.turn.dice && Number(e.key) <= view.num_dice) {
      toggleKeep(Number(e.key) - 1);
      const die = document.querySelector(`.die[data-pos="${Number(e.key) - 1}"]`);
      if (die) die.focus();
    } else if ((e.key === "r" || e.key === "R") && myTurn() && !view.pad && view.turn.rolls_left > 0) {
      e.preventDefault();
      $("roll").click();
    }
  });

  load().then(connect);
})();
