// The dice on the table and the sheet (the protocol): what the player picks and writes.
import { drawChances } from "./chances.js";
import { confirmAsk, el } from "./widgets.js";
import { rowWords, $, FACES, BOX_KEYS, state, lastWrite, t, seatName, boxOf, signed, mine, tapConfirm, focusInPlay } from "./game-state.js";
import { act } from "./game-net.js";
import { saveKept } from "./game-kept.js";
import { botWaitsForMe, handingOver, labelRoll } from "./game-panels.js";
import { render } from "./game-render.js";
import { heldNow } from "./game-hold.js";

export function dieLabel(i, d) {
  const face = Array.isArray(d) ? `${t("outer")} ${d[0]}, ${t("inner")} ${d[1]}` : String(d);
  return `${t("die")} ${i + 1}: ${face}` + (state.kept.has(i) ? `, ${t("kept")}` : "");
}

export function renderDice() {
  const tray = $("dice");
  tray.replaceChildren();
  const turn = state.view.turn;
  $("legend").hidden = !state.view.double;
  if (!turn || !turn.dice) {
    // While the computer waits for the person to go on, its turn has not begun: the
    // tray says when it will, not "Not rolled yet" as if someone were slow to roll.
    const words = botWaitsForMe() ? t("bot_rolls_after_go_on", { player: seatName(turn.seat) })
      : mine() ? t("roll_to_start") : t("not_rolled");
    if (turn && !state.view.pad) tray.append(el("p", { class: "hint" }, words));
    return;
  }
  const canKeep = mine() && !state.view.pad && turn.rolls_left > 0 && !heldNow();
  const heldBefore = new Set(turn.kept || []);
  turn.dice.forEach((d, i) => {
    const face = Array.isArray(d)
      ? el("span", { class: "double", "aria-hidden": "true" },
        el("span", { class: "outer" }, FACES[d[0]]), el("span", { class: "inner" }, FACES[d[1]]))
      : el("span", { "aria-hidden": "true" }, FACES[d]);
    const classes = ["die"];
    if (state.kept.has(i)) classes.push("kept");
    if (heldBefore.has(i)) classes.push("held");
    else if (performance.now() < state.freshUntil) classes.push("fresh");
    const attrs = {
      class: classes.join(" "), "aria-label": dieLabel(i, d), "data-pos": i, "data-focus": `die-${i}`,
    };
    if (canKeep) {
      attrs["aria-pressed"] = state.kept.has(i) ? "true" : "false";
      attrs["aria-keyshortcuts"] = String(i + 1);
      attrs.onclick = () => toggleKeep(i);
      tray.append(el("button", attrs, face, el("kbd", { class: "key", "aria-hidden": "true" }, String(i + 1))));
    } else {
      attrs.role = "img";
      tray.append(el("span", attrs, face));
    }
  });
}

export function toggleKeep(i) {
  if (!mine() || state.view.pad || !state.view.turn.dice || state.view.turn.rolls_left === 0 || i >= state.view.turn.dice.length || heldNow()) return;
  if (state.kept.has(i)) state.kept.delete(i); else state.kept.add(i);
  saveKept();
  renderDice();
  labelRoll();
  const die = document.querySelector(`.die[data-pos="${i}"]`);
  if (die) focusInPlay(die);
}

export function entryCell(entry, seat, boxId) {
  const held = heldNow();
  const holding = Boolean(held && held.seat === seat && held.boxes.includes(boxId));
  const just = lastWrite.get(seat) === boxId || holding;
  const cls = (just ? "just" : "") + (holding ? " held-write" : "");
  // "–" is a scratch (0 points), told apart from a 0 written with the dice.
  if (entry.scratched) return el("span", { class: "scratched " + cls, "aria-label": `0 (${t("scratched")})`, title: t("scratched_title") }, "–");
  const text = String(entry.points);
  if (entry.drop) {
    return el("span", { class: cls }, text, el("small", { class: "drop", title: t("dropped") }, ` ∖${entry.drop}`));
  }
  return el("span", { class: cls }, text);
}

export function chooseCell(box, seat, key) {
  const turn = state.view.turn;
  if (!turn || turn.seat !== seat || !mine() || !turn.allowed.includes(box.id) || handingOver()) return null;
  if (state.scratching && !box.scratchable) return null;
  if (!turn.preview && !(state.view.pad && state.scratching)) return null;
  const points = turn.preview ? turn.preview[box.id] : (state.view.double ? [0, 0] : 0);
  if (points === undefined) return null;
  if (!state.view.double) {
    const label = state.scratching ? t("scratch_box", { box: box.name }) : t("score_box", { points, box: box.name });
    const action = state.scratching ? { scratch: box.id } : { score: box.id };
    const armed = state.armed === armKey(box, action);
    return el("button", {
      class: "choose" + (state.scratching ? " scratch" : "") + (points === 0 && !state.scratching ? " zero" : "") + (armed ? " armed" : ""),
      "aria-label": label, "aria-describedby": `help-${box.id}`, "data-box": box.id,
      "data-focus": `box-${box.id}`, "aria-keyshortcuts": key ? key.toUpperCase() : null,
      onclick: (e) => tapThenWrite(e, box, action, points),
    }, state.scratching ? "✕" : String(points));
  }
  const wrap = el("span", { class: "pair" });
  ["inner", "outer"].forEach((layer, k) => {
    const chosen = state.pick[layer] && state.pick[layer].box === box.id;
    const value = state.scratching ? "✕" : String(points[k]);
    wrap.append(el("button", {
      class: "choose " + layer + (chosen ? " chosen" : ""), "aria-pressed": chosen ? "true" : "false",
      "data-box": box.id, "data-layer": layer, "data-focus": `box-${box.id}-${layer}`,
      "aria-describedby": `help-${box.id}`,
      "aria-label": `${t(layer)}: ${state.scratching ? t("scratch_box", { box: box.name }) : t("score_box", { points: points[k], box: box.name })}`,
      onclick: () => choose(layer, state.scratching ? { scratch: box.id } : { score: box.id }, box.id),
    }, (layer === "inner" ? "◦ " : "● ") + value));
  });
  return wrap;
}

function armKey(box, action) {
  return `${state.view.version}:${box.id}:${"scratch" in action ? "x" : ""}`;
}

// Tap-to-confirm (when switched on): a tap or click on a box first chooses it and
// says what it would write; a second tap on it writes.  Keys write at once (moving
// the focus to the box was their first step).
function tapThenWrite(e, box, action, points) {
  const key = armKey(box, action);
  // The game's last write is held with Undo anyway (game-hold.js): no second tap.
  if (tapConfirm() && e.detail > 0 && state.armed !== key && !state.view.turn.ends_game) {
    state.armed = key;
    state.armedText = "scratch" in action ? t("tap_again_scratch", { box: box.name }) : t("tap_again", { box: box.name, points });
    render();
    return;
  }
  state.armed = null;
  writeBox(box, action, points);
}

// A zero or a scratch where the dice would score something asks first.
export async function writeBox(box, action, points) {
  const preview = state.view.turn.preview || {};
  const better = state.view.turn.allowed
    .filter((b) => typeof preview[b] === "number" && preview[b] > 0)
    .sort((a, b) => preview[b] - preview[a]);
  const zero = "scratch" in action || points === 0;
  if (zero && better.length && !state.view.pad) {
    const best = better[0];
    const question = best === box.id
      ? t("confirm_scratch_self", { box: box.name, points: preview[best] })
      : t("confirm_zero", { box: box.name, other: boxOf(best).name, points: preview[best] });
    if (!(await confirmAsk(question))) return;
  }
  act(action);
}


export function choose(layer, entry, boxId) {
  state.pick[layer] = state.pick[layer] && state.pick[layer].box === boxId ? null : { box: boxId, entry };
  if (state.pick.inner && state.pick.outer) {
    const action = { inner: state.pick.inner.entry, outer: state.pick.outer.entry };
    state.pick = { inner: null, outer: null };
    act(action);
    return;
  }
  render();
}

export function renderProtocol() {
  const table = $("protocol");
  const caption = table.querySelector("caption");
  table.replaceChildren(caption);
  const head = el("tr", {}, el("th", { scope: "col" }, el("span", { class: "sr" }, t("box"))));
  state.view.players.forEach((p) => {
    const current = state.view.turn && state.view.turn.seat === p.seat;
    head.append(el("th", { scope: "col", class: current ? "current" : "" },
      seatName(p.seat),
      !p.claimed ? el("small", { class: "free" }, ` (${t("not_joined")})`) : null,
      current ? el("span", { class: "sr" }, ` — ${t("to_play")}`) : null,
      state.view.win_chances !== null ? el("span", { class: "win", "data-seat": p.seat }) : null));
  });
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const row = (label, cells, cls) => {
    const tr = el("tr", { class: cls || "" }, el("th", { scope: "row" }, label));
    cells.forEach((c) => tr.append(el("td", {}, c)));
    body.append(tr);
  };
  // A row whose name opens a line on what it means (as the boxes' names do).
  const helpLabel = (id, name, text) => {
    const help = el("span", { id: `help-${id}`, class: "box-help", hidden: true }, text);
    const button = el("button", {
      class: "box-name", type: "button", title: text, "aria-expanded": "false", "aria-controls": `help-${id}`,
      onclick: (e) => {
        const open = help.hidden;
        help.hidden = !open;
        e.currentTarget.setAttribute("aria-expanded", String(open));
      },
    }, name);
    return el("span", { class: "box-label" }, button, help);
  };
  // The game's last write, held on the page, is drawn as it would stand.
  const held = heldNow();
  const sheets = held ? held.sheets : state.view.sheets;
  const boxRow = (original, index) => {
    const b = boxOf(original.id);
    const key = mine() && !state.view.finished ? BOX_KEYS[index] : null;
    const help = el("span", { id: `help-${b.id}`, class: "box-help", hidden: true }, b.help || "");
    const name = el("button", {
      class: "box-name", type: "button", title: b.help || "", "aria-expanded": "false",
      "aria-controls": `help-${b.id}`,
      onclick: (e) => {
        const open = help.hidden;
        help.hidden = !open;
        e.currentTarget.setAttribute("aria-expanded", String(open));
      },
    }, b.name);
    const label = el("span", { class: "box-label" },
      key ? el("kbd", { class: "key", "aria-hidden": "true" }, key.toUpperCase()) : null, name, help);
    const tr = el("tr", { class: "box", "data-row": b.id }, el("th", { scope: "row" }, label));
    sheets.forEach((s, seat) => {
      const entry = s.entries[b.id];
      tr.append(el("td", {}, entry ? entryCell(entry, seat, b.id) : chooseCell(b, seat, key)));
    });
    body.append(tr);
  };
  state.view.boxes.forEach((b, i) => { if (b.section === "upper") boxRow(b, i); });
  row(rowWords.sum, sheets.map((s) => String(s.upper_sum)), "computed");
  row(rowWords.bonus, sheets.map((s) => String(s.bonus)), "computed");
  row(helpLabel("par", rowWords.par, t("par_help")), sheets.map((s) => signed(s.bonus_par)), "computed par");
  state.view.boxes.forEach((b, i) => { if (b.section === "lower") boxRow(b, i); });
  if (state.view.variant === "yahtzee") row(rowWords.yatzy_bonus, sheets.map((s) => String(s.yatzy_bonus)), "computed");
  row(rowWords.total, sheets.map((s) => String(s.total)), "computed total");
  const extra = state.view.boxes.map((b, i) => [b, i]).filter(([b]) => b.section === "extra");
  if (extra.length) {
    extra.forEach(([b, i]) => boxRow(b, i));
    row(rowWords.final, sheets.map((s) => String(s.final)), "computed total");
  }
  table.append(body);
  // A scratch's "–" said in words under the sheet once there is one: its tooltip
  // never shows on a touch screen.
  const scratched = sheets.some((s) => Object.values(s.entries).some((e) => e && e.scratched));
  const key = $("sheet-key");
  key.hidden = !scratched;
  key.textContent = scratched ? t("scratched_key") : "";
  renderChances();
}

export function renderChances() {
  drawChances(state.view, state.chances, { t, seatName, toggle: $("show-chances"), note: $("chances-note") });
}
