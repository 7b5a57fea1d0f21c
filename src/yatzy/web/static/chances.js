// Live chances to win on the game screen: a percentage and a bar under each player's
// name in the sheet's column heads, a line on how they were found (exact, or
// simulated: "about", and the half-width of the 95 % interval in words), and the
// viewer's switch.  It
// draws what the view's win_chances say; it computes nothing.
import { formatNumber } from "./insight.js";
import { el } from "./widgets.js";

// A chance in percent to a tenth, never rounded to a certainty it is not: "> 99.9".
export function percentText(p) {
  if (p > 0.999 && p < 1) return ">\u00a0" + formatNumber(99.9);
  if (p > 0 && p < 0.001) return "<\u00a0" + formatNumber(0.1);
  return formatNumber(p * 100);
}

// The viewer's switch, remembered in this browser (on unless turned off).
export function chancesShown() {
  try { return localStorage.getItem("yatzy-chances") !== "off"; } catch (e) { return true; }
}

export function showChances(on) {
  try { localStorage.setItem("yatzy-chances", on ? "on" : "off"); } catch (e) { /* private mode */ }
}

// The margin of a simulated chance in percent, rounded up (never narrower than it is).
export function marginText(m) {
  const pct = m * 100;
  return pct >= 1 ? formatNumber(Math.ceil(pct), 0) : formatNumber(Math.ceil(pct * 10) / 10);
}

// "54,3 %" when exact; "about 54 %" when simulated (to a tenth when the margin is that
// small; "under 3 %" / "over 97 %", bounded by the margin, where it would round to 0 or
// 100: never a certainty the simulation does not give): plain words, the margin itself
// is in the note under the sheet.  A no-break space joins the figure to its "%" (a
// narrow column head would otherwise wrap the sign alone).
export function chanceText(seat, t) {
  const p = seat.chance;
  if (seat.margin === 0) return percentText(p) + "\u00a0%";
  if (seat.margin * 100 >= 0.5 && Math.round(p * 100) <= 0) {
    const bound = Math.max(1, Math.ceil((p + seat.margin) * 100 - 1e-9));
    return t("under_percent", { percent: formatNumber(bound, 0) });
  }
  if (seat.margin * 100 >= 0.5 && Math.round(p * 100) >= 100) {
    const bound = Math.min(99, Math.floor((p - seat.margin) * 100 + 1e-9));
    return t("over_percent", { percent: formatNumber(bound, 0) });
  }
  const pct = seat.margin * 100 < 0.5 ? percentText(p) : formatNumber(Math.round(p * 100), 0);
  return t("about_percent", { percent: pct });
}

// Fill the column heads' .win cells of the view's sheet with ``chances`` (the newest
// received, maybe of an earlier version: then they are drawn as stale) and the note.
export function drawChances(view, chances, { t, seatName, toggle, note }) {
  const multi = view.win_chances !== null;
  toggle.closest("label").hidden = !multi;
  toggle.checked = chancesShown();
  const shown = multi && chancesShown();
  const stale = Boolean(chances && chances.version < view.version);
  document.querySelectorAll("#protocol .win").forEach((span) => {
    const seat = chances && chances.seats && chances.seats[Number(span.dataset.seat)];
    span.hidden = !shown;
    span.classList.toggle("stale", stale);
    if (!seat) {
      const none = chances && chances.unavailable;
      // Until the chances come, a word says they are being worked out (on a fresh
      // install that takes a minute): never a bare "…".
      span.replaceChildren(el("span", { class: "sr" }, none ? unavailableWords(view, chances, t) : t("win_pending")),
        el("span", { class: "pending", "aria-hidden": "true" }, none ? "–" : t("win_pending_short")));
      return;
    }
    const text = chanceText(seat, t);
    span.replaceChildren(
      el("span", { class: "sr" }, t("win_chance_of", { player: seatName(seat.seat), chance: text })),
      el("span", { "aria-hidden": "true" }, text),
      el("meter", { min: 0, max: 1, value: seat.chance, "aria-hidden": "true" }));
  });
  note.hidden = !shown;
  if (!shown) return;
  if (!chances) note.textContent = t("win_pending");
  else if (chances.unavailable) note.textContent = unavailableWords(view, chances, t);
  else if (chances.method === "final") note.textContent = "";
  else if (chances.exact) note.textContent = t("win_note_exact");
  else note.textContent = t("win_note_about", { margin: marginText(chances.margin) });
  const measured = measuredWords(view, chances, t, seatName);
  if (measured) note.textContent += " " + measured;
  note.hidden = !note.textContent;
}

// Why a "–" stands where a chance would: Maxi's and DubbelYatzy's games have too many
// positions to work out early on (their chances come in the last rounds), or this
// server prepares no tables for the rules.
function unavailableWords(view, chances, t) {
  if (chances.why === "large") return t("win_unavailable_large", { title: view.title });
  if (chances.why === "not_prepared") return t("win_unavailable_not_prepared");
  return t("win_unavailable");
}

// The people counted at the level their play has shown so far, in this game and their
// earlier games of these rules (not as perfect players): "Ann counts as playing like
// the computer level “Casual” …"; before their play has been seen, at the middle level,
// said as assumed.
const MEASURED = ["strong", "casual", "beginner"];
function measuredWords(view, chances, t, seatName) {
  if (!chances || !chances.seats) return "";
  const from = chances.measured || {};
  return chances.seats
    .filter((s) => !view.players[s.seat].bot && MEASURED.includes(s.level))
    .map((s) => {
      const earlier = from[s.seat] ? from[s.seat].earlier : 0;
      const words = { player: seatName(s.seat), level: t("level_" + s.level), games: earlier };
      if (from[s.seat] && from[s.seat].assumed) return t("win_assumed", words); // not seen yet
      return t(earlier ? "win_measured_earlier" : "win_measured", words);
    })
    .join(" ");
}
