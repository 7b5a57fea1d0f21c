// Verifiable dice in the browser: the game's fingerprint (commitment) while it runs,
// and when it is over every die recomputed from the revealed seed with Web Crypto,
// exactly as yatzy.game.fair_dice and `yatzy verify` do (docs/fair-dice.md).
import { el } from "./widgets.js";
import { $, gameId, state, t, url } from "./game-state.js";
import { api } from "./game-net.js";

const ACCEPT = 252; // bytes of 252 and more are skipped: every face equally likely
const V1 = "yatzy-hmac-sha256/1";
const enc = new TextEncoder();

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 || /[^0-9a-f]/i.test(text)) throw new Error("seed is not hex");
  return new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

async function context(contributions) {
  const parts = [enc.encode("yatzy-dice/1\n")];
  for (const c of contributions) {
    const raw = enc.encode(c);
    parts.push(new Uint8Array([raw.length >> 8, raw.length & 255]), raw);
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", concat(...parts)));
}

// The faces of one die stream: HMAC-SHA256(seed, context || label || ":" || block).
async function faces(key, ctx, label, count) {
  const out = [];
  for (let block = 0; out.length < count; block++) {
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, block);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, concat(ctx, enc.encode(label + ":"), counter)));
    for (const b of mac) {
      if (b < ACCEPT) { out.push((b % 6) + 1); if (out.length === count) break; }
    }
  }
  return out;
}

function label(mode, turn, roll, position, draw, players) {
  if (mode === "duplicate_seat") return `round/${Math.floor(turn / players)}/order/${turn % players}/die/${position}/draw/${draw}`;
  return mode === "duplicate" ? `round/${Math.floor(turn / players)}/die/${position}/draw/${draw}` : `turn/${turn}/roll/${roll}/die/${position}`;
}

const show = (die) => (Array.isArray(die) ? die.join("/") : String(die));

// Every die of a finished game's record against its revealed seed: {ok, count} or
// {ok: false, where} naming the first die (or the seed) that differs.
export async function verifyRecord(record) {
  const proof = record.dice;
  const seed = fromHex(proof.seed);
  const commitment = hex(await crypto.subtle.digest("SHA-256", seed));
  if (commitment !== proof.commitment) return { ok: false, where: t("fair_where_seed") };
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const ctx = await context(proof.contributions);
  const rolloffCtx = proof.scheme === V1 ? ctx : await context([]);
  const names = record.players.map((p) => (typeof p === "string" ? p : p.name));
  const double = state.view.double;
  let count = 0;
  for (const [r, round] of (record.rolloff || []).entries()) {
    for (const entry of round) {
      const [face] = await faces(key, rolloffCtx, `rolloff/${r}/seat/${entry.player}`, 1);
      if (face !== entry.die) return { ok: false, where: t("fair_where_rolloff", { player: names[entry.player], found: entry.die, expected: face }) };
      count++;
    }
  }
  for (const [ti, turn] of record.turns.entries()) {
    const rolls = turn.rolls || [];
    for (const [ri, roll] of rolls.entries()) {
      for (const [pos, found] of (roll.dice || []).entries()) {
        if (roll.keep.includes(pos) || found === null) continue;
        const draw = rolls.slice(0, ri).filter((prev) => !prev.keep.includes(pos)).length;
        const want = await faces(key, ctx, label(proof.mode, ti, ri, pos, draw, names.length), double ? 2 : 1);
        const expected = double ? want : want[0];
        if (show(found) !== show(expected)) {
          const where = { turn: ti + 1, player: names[turn.player], roll: ri + 1, die: pos + 1, found: show(found), expected: show(expected) };
          return { ok: false, where: t("fair_where_die", where) };
        }
        count++;
      }
    }
  }
  return { ok: true, count };
}

// Random text from this device for the game's dice (a contribution).
export function deviceEntropy() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

// After joining: this device adds to the dice while they are still open (best effort:
// a refusal only means the dice have begun).
export async function contributeOnce() {
  const dice = state.view.dice;
  if (!dice || !dice.contributions_open || !window.crypto) return;
  try { await api("POST", `api/games/${gameId}/contribute`, { text: deviceEntropy() }); } catch (e) { /* closed meanwhile */ }
}

export function renderFairDice() {
  const section = $("fair");
  const dice = state.view.dice;
  if (!dice) {
    section.hidden = !state.view.finished || state.view.pad;
    $("fair-body").replaceChildren(el("p", {}, t("fair_none")));
    return;
  }
  section.hidden = false;
  const body = [el("p", {}, t("fair_running")),
    el("p", {}, `${t("fair_fingerprint")}: `, el("code", { class: "fingerprint" }, dice.commitment))];
  if (dice.mode === "duplicate" && !dice.hold_until) body.unshift(el("p", {}, t("fair_duplicate")));
  if (dice.hold_until) {
    const line = el("p", { id: "daily-line" }, t("daily_game", { day: dice.hold_until }));
    if (state.view.finished) {
      const board = url(`daily?day=${dice.hold_until}&rules=${encodeURIComponent(state.view.rules)}`);
      line.append(" ", el("a", { href: board.href, id: "daily-board-link" }, t("daily_board")));
    }
    body.unshift(line);
    if (state.view.finished && !dice.seed) body.push(el("p", {}, t("fair_held")));
    if (!section.dataset.opened) { section.open = true; section.dataset.opened = "1"; }
  }
  const tournament = /^tournament\/([0-9a-f]{32})\/round\/\d+$/.exec(dice.hold_for || "");
  if (tournament) {
    // a tournament's game: back to its standings, and why a finished game's seed waits
    const back = url(`tournaments/${tournament[1]}`);
    body.unshift(el("p", { id: "tournament-line" }, t("tournament_game"), " ",
      el("a", { href: back.href, id: "tournament-link" }, t("tournament_back"))));
    if (state.view.finished && !dice.seed) body.push(el("p", {}, t("tournament_held")));
  }
  if (dice.contributions.length) body.push(el("p", {}, t("fair_added", { count: dice.contributions.length })));
  if (dice.seed) {
    // a check's result stays across re-renders of the finished game
    const result = $("fair-result") || el("p", { id: "fair-result", role: "status" });
    const check = el("button", { type: "button", id: "fair-check", onclick: async () => {
      if (!window.crypto || !crypto.subtle) { result.textContent = t("fair_unsupported"); return; }
      result.textContent = t("fair_checking");
      try {
        const response = await fetch(url(`api/games/${gameId}/record`), { credentials: "same-origin" });
        const verdict = await verifyRecord(await response.json());
        result.textContent = verdict.ok ? t("fair_ok", { count: verdict.count }) : t("fair_bad", { where: verdict.where });
        result.dataset.ok = verdict.ok ? "1" : "0";
      } catch (e) {
        // (the browser's own message is English and for developers)
        result.textContent = t("fair_bad", { where: t("fair_unreadable") });
        result.dataset.ok = "0";
      }
    } }, t("fair_check"));
    body.push(el("p", {}, check), result);
  }
  $("fair-body").replaceChildren(...body);
}
