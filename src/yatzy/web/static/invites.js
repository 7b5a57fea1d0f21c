// For a signed-in player, on every page: the invitations of friends into games, in
// the header (a link to the list on the account page), checked every 30 seconds and
// whenever the page comes back into view; the account page lists them, each with
// "Join the game" (one tap: the seat is the account's, the game opens) and "Decline".
import { el } from "./widgets.js";

const badge = document.getElementById("invites-badge");
const words = badge ? JSON.parse(badge.dataset.inviteWords) : {};
const lang = document.documentElement.lang || "en";
const HEADERS = { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" };
const api = (path) => new URL(path, document.baseURI);

async function answer(id, how) {
  let response, data;
  try {
    response = await fetch(api(`api/invitations/${id}/${how}?lang=${lang}`), {
      method: "POST", headers: HEADERS, credentials: "same-origin", body: "{}",
    });
    data = await response.json();
  } catch (e) { data = null; }
  if (!response || !response.ok || !data) {
    const shown = document.getElementById("form-error"); // the account page's alert
    if (shown) shown.textContent = words.failed;
    check();
    return;
  }
  if (how === "accept") { window.location.href = api(`g/${data.game}`).href; return; }
  show(data.invitations);
  document.getElementById("invitations-h")?.focus();
}

function show(invitations) {
  badge.hidden = invitations.length === 0;
  badge.textContent = words.count.replace("{count}", String(invitations.length));
  const list = document.getElementById("invitations");
  if (!list) return;
  const items = invitations.map((inv) => {
    const what = words.from.replace("{name}", inv.by).replace("{title}", inv.title);
    return el("li", {},
      el("span", { class: "who" }, what), " ", el("span", { class: "hint" }, inv.players.join(", ")), " ",
      el("button", { type: "button", "aria-label": `${words.accept}: ${what}`, onclick: () => answer(inv.id, "accept") }, words.accept), " ",
      el("button", { type: "button", "aria-label": `${words.decline}: ${what}`, onclick: () => answer(inv.id, "decline") }, words.decline));
  });
  list.replaceChildren(...(items.length ? items : [el("li", {}, words.none)]));
}

async function check() {
  if (!badge || document.hidden) return;
  try {
    const response = await fetch(api(`api/invitations?lang=${lang}`), { credentials: "same-origin" });
    if (!response.ok) return;
    show((await response.json()).invitations);
  } catch (e) { /* offline: the next check tries again */ }
}

check();
setInterval(check, 30_000);
document.addEventListener("visibilitychange", check);
