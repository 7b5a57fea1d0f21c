// The start page of a signed-in player: "Invite friends" lists their friends to tick;
// the game starts at once with the player seated, and each friend ticked gets an
// invitation on their page (no link to send), and computers added here (each with its
// level) sit in the seats after the friends from the start.  The rules are the page's
// own choice.
import { el } from "./widgets.js";

const form = document.getElementById("start");
const button = document.getElementById("invite-friends");
const section = document.getElementById("friends-setup");
const error = document.getElementById("error");
const words = section ? JSON.parse(section.dataset.lobbyWords) : {};
const picks = document.getElementById("friend-picks");
const botList = document.getElementById("friend-bots");
const addBot = document.getElementById("friend-add-bot");
const MOST_BOTS = 6; // the server's limit (and at most 8 seats in all)

// Each computer's row is named by its number ("Computer 2"), its level and remove
// button with it; the add button stops at the most computers.
function renumber() {
  [...botList.children].forEach((row, i) => {
    const name = `${words.computer} ${i + 1}`;
    row.querySelector(".bot-label").textContent = name;
    row.querySelector(".seat-remove").setAttribute("aria-label", `${words.remove} ${name}`);
  });
  addBot.disabled = botList.children.length >= MOST_BOTS;
}

function addComputer() {
  const row = document.getElementById("friend-bot-row").content.firstElementChild.cloneNode(true);
  row.querySelector(".seat-remove").addEventListener("click", () => {
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber();
    (next ? next.querySelector("select") : addBot).focus();
  });
  botList.append(row);
  renumber();
  row.querySelector("select").focus();
}

async function showFriends() {
  let friends = [];
  try {
    const response = await fetch(new URL("api/friends", document.baseURI), { credentials: "same-origin" });
    if (response.ok) friends = (await response.json()).friends;
  } catch (e) { /* offline: none shown */ }
  const legend = picks.querySelector("legend");
  const boxes = friends.map((name) => el("label", { class: "check" }, el("input", { type: "checkbox", value: name }), ` ${name}`));
  picks.replaceChildren(legend, ...(boxes.length ? boxes : [el("p", { class: "hint" }, words.none)]));
  document.getElementById("invite-start").hidden = boxes.length === 0;
}

// The clock per turn chosen for the game ("daily:3" → {mode: "daily", days: 3}); null: none.
function timeControl() {
  const value = document.getElementById("friends-clock").value;
  if (!value) return null;
  const [mode, amount] = value.split(":");
  return mode === "live" ? { mode, seconds: Number(amount) } : { mode, days: Number(amount) };
}

async function start() {
  const friends = [...picks.querySelectorAll("input:checked")].map((b) => b.value);
  if (!friends.length) { error.textContent = words.pick; picks.querySelector("input")?.focus(); return; }
  let response, data;
  try {
    response = await fetch(new URL("api/invitations", document.baseURI), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" },
      body: JSON.stringify({
        rules: form.rulesSpec(), lang: form.dataset.lang, friends,
        bots: [...botList.querySelectorAll("select")].map((s) => s.value),
        hints: document.getElementById("hints").checked,
        time_control: timeControl(),
      }),
    });
    data = await response.json();
  } catch (e) { error.textContent = words.failed; return; }
  if (!response.ok) { error.textContent = response.status === 429 ? words.too_many : words.failed; return; }
  window.location.href = new URL(`g/${data.game}`, document.baseURI).href;
}

if (button && section) {
  button.addEventListener("click", async () => {
    document.getElementById("setup").hidden = true;
    form.querySelectorAll("[data-mode][aria-expanded]").forEach((b) => b.setAttribute("aria-expanded", "false"));
    button.setAttribute("aria-expanded", "true");
    section.hidden = false;
    await showFriends();
    document.getElementById("friends-setup-h").focus();
  });
  document.getElementById("invite-start").addEventListener("click", start);
  addBot.addEventListener("click", addComputer);
}
