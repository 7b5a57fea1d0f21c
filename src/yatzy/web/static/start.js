// The start page: ways to play, the rules preset and its house rules, the seats.
// The server checks the rules spec and the seats; this module only builds the request.
const form = document.getElementById("start");
const setup = document.getElementById("setup");
const seats = document.getElementById("seats");
const rowTemplate = document.getElementById("seat-row");
const error = document.getElementById("error");
const names = form.dataset.names.split(",");
const words = JSON.parse(form.dataset.words);
let mode = null;

const preset = () => form.querySelector('input[name="preset"]:checked');
const variant = () => preset().dataset.variant;
const options = () => form.querySelector(`.opts[data-variant="${variant()}"]`);

// The preset's options are shown ticked in "more rules"; the spec is read back from them.
function showPreset() {
  const parts = preset().dataset.spec.split("+").slice(1);
  const flags = new Set(parts.filter((p) => !p.includes("=")));
  const values = new Map(parts.filter((p) => p.includes("=")).map((p) => p.split("=", 2)));
  form.querySelectorAll(".opts").forEach((div) => { div.hidden = div.dataset.variant !== variant(); });
  options().querySelectorAll('input[type="checkbox"][data-opt]').forEach((box) => { box.checked = flags.has(box.dataset.opt); });
  // a choice written bare in the preset ("+saved_rolls") takes its bare value ("all")
  options().querySelectorAll("select[data-opt]").forEach((select) => {
    const name = select.dataset.opt;
    select.value = values.get(name) ?? (flags.has(name) && select.dataset.bare ? select.dataset.bare : select.dataset.default);
  });
  document.getElementById("rules-link").setAttribute("href", `rules/${variant()}`);
  try { localStorage.setItem("yatzy-preset", preset().value); } catch (e) { /* private mode */ }
}

function spec() {
  let s = variant();
  options().querySelectorAll("[data-opt]").forEach((input) => {
    const name = input.dataset.opt;
    if (input.type === "checkbox") {
      if (input.checked) s += "+" + name;
    } else if (input.value !== "" && String(input.value) !== String(input.dataset.default)) {
      s += `+${name}=${input.value}`;
    }
  });
  return s;
}

form.rulesSpec = spec; // read by start-friends.js (friends invited into the game)

function addSeat(name, kind) {
  const node = rowTemplate.content.firstElementChild.cloneNode(true);
  const input = node.querySelector(".seat-name");
  const select = node.querySelector(".seat-kind");
  input.value = name;
  select.value = kind;
  const label = () => node.querySelector(".seat-remove").setAttribute("aria-label", `${words.remove} ${input.value}`);
  input.addEventListener("input", label);
  label();
  if (mode === "pad") select.querySelectorAll("option").forEach((o) => { o.hidden = o.value !== "here"; });
  if (mode === "hotseat") select.querySelector('option[value="remote"]').hidden = true;
  node.querySelector(".seat-remove").addEventListener("click", () => {
    if (seats.children.length > 1) { node.remove(); document.getElementById("add-person").focus(); }
  });
  seats.append(node);
  return node;
}

function nextName() {
  const taken = new Set([...seats.querySelectorAll(".seat-name")].map((i) => i.value));
  return names.find((n) => !taken.has(n)) || names[0];
}

function openSetup(which, button) {
  mode = which;
  seats.replaceChildren();
  document.getElementById("setup-h").textContent = button.textContent;
  form.querySelectorAll("[data-mode][aria-expanded]").forEach((b) => b.setAttribute("aria-expanded", String(b === button)));
  if (which === "invite") { addSeat(you() || names[0], "here"); addSeat(nextName(), "remote"); }
  else { addSeat(you() || names[0], "here"); addSeat(nextName(), "here"); }
  document.getElementById("add-bot").hidden = which === "pad";
  // A clock per turn: for games whose people play from their own devices.
  const clock = document.getElementById("clock-choice");
  clock.hidden = which !== "invite";
  if (which !== "invite") document.getElementById("clock").value = "";
  // A rated game (signed in only): people who join with the invite, one seat each.
  const rated = document.getElementById("rated-choice");
  if (rated) {
    rated.hidden = which !== "invite";
    if (which !== "invite") document.getElementById("rated").checked = false;
  }
  setup.hidden = false;
  document.getElementById("setup-h").focus();
}

const yourName = document.getElementById("your-name");
const you = () => yourName.value.trim();
try { yourName.value = localStorage.getItem("yatzy-name") || yourName.value; } catch (e) { /* private mode */ }
yourName.addEventListener("change", () => {
  try { localStorage.setItem("yatzy-name", you()); } catch (e) { /* private mode */ }
});

function seatList(which) {
  const level = document.getElementById("bot-level");
  if (which === "bot") {
    const botName = level.selectedOptions[0].textContent;
    return [{ name: you(), here: true }, { name: `${form.dataset.computer} (${botName})`, bot: level.value }];
  }
  if (which === "solo") return [{ name: you(), here: true }];
  return [...seats.children].map((li) => {
    const kind = li.querySelector(".seat-kind").value;
    const name = li.querySelector(".seat-name").value.trim();
    if (kind === "here" || kind === "remote") return { name, here: kind === "here" };
    return { name, bot: kind };
  });
}

// A refusal in the page's words (the server's reasons are English and name options
// by their ids): never shown as they are.
function explain(response, data) {
  if (response.status === 422 && Array.isArray(data.detail)) return words.bad_form;
  if (data.error === "SpecError") return rulesRefused(data.options || []);
  if (data.error === "RatedSetupError" || data.error === "RatedAccountError") return words.rated_refused;
  return words.start_refused;
}

// A refused combination of house rules, naming them as the form writes them (the
// server names them by their ids).
function rulesRefused(ids) {
  const names = ids.map(optionName).filter(Boolean);
  if (names.length >= 2) return words.rules_exclude.replace("{first}", names[0]).replace("{second}", names[1]);
  if (names.length === 1) return words.rule_refused.replace("{option}", names[0]);
  return words.rules_refused;
}

function optionName(id) {
  const input = options().querySelector(`[data-opt="${CSS.escape(id)}"]`);
  if (!input) return null;
  return input.dataset.text || input.closest("label").textContent.trim();
}

// A number of the house rules outside what the rules take, said with the option's
// name as the page writes it (before the server would refuse it); null when all fit.
function badNumber() {
  for (const input of options().querySelectorAll('input[type="number"][data-opt]')) {
    const value = input.value.trim();
    const low = Number(input.min), high = Number(input.max);
    if (value === "" || (/^\d+$/.test(value) && Number(value) >= low && Number(value) <= high)) continue;
    const text = words.number_range.replace("{option}", input.dataset.text).replace("{low}", low).replace("{high}", high);
    return { input, text };
  }
  return null;
}

async function start(which) {
  error.textContent = "";
  const list = seatList(which);
  const empty = list.findIndex((s) => !s.name);
  if (empty >= 0) {
    error.textContent = words.name_missing;
    (which === "bot" || which === "solo" ? yourName : seats.children[empty].querySelector(".seat-name")).focus();
    return;
  }
  const bad = badNumber();
  if (bad) {
    error.textContent = bad.text;
    bad.input.closest("details")?.setAttribute("open", "");
    bad.input.focus();
    return;
  }
  const body = {
    rules: spec(), lang: form.dataset.lang, seats: list,
    pad: which === "pad", hints: document.getElementById("hints").checked,
  };
  if (which !== "pad" && document.getElementById("duplicate").checked) body.dice = "duplicate";
  const clockValue = which === "invite" ? document.getElementById("clock").value : "";
  if (clockValue) {
    const [clockMode, amount] = clockValue.split(":");
    body.clock = clockMode === "live" ? { mode: "live", seconds: Number(amount) } : { mode: "daily", days: Number(amount) };
  }
  if (which === "invite" && document.getElementById("rated")?.checked) {
    body.rated = true;
    body.hints = false; // a rated game is played without hints
  }
  // This device's share of the dice (verifiable dice: docs/fair-dice.md).
  if (which !== "pad" && window.crypto) {
    body.entropy = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  let response, data;
  try {
    response = await fetch(new URL("api/games", document.baseURI), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    data = await response.json();
  } catch (e) {
    error.textContent = words.unreachable;
    return;
  }
  if (!response.ok) { error.textContent = explain(response, data); return; }
  try { localStorage.setItem("yatzy-invite-" + data.id, data.invite); } catch (e) { /* private mode */ }
  window.location.href = new URL(`g/${data.id}`, document.baseURI).href;
}

form.addEventListener("change", (e) => {
  if (e.target.name === "preset") showPreset();
  if (e.target.id === "bot-level") {
    document.getElementById("bot-strength").textContent = e.target.selectedOptions[0].dataset.strength;
  }
});
form.querySelectorAll("button[data-mode][aria-controls]").forEach((b) => {
  b.addEventListener("click", () => openSetup(b.dataset.mode, b));
});
document.getElementById("add-person").addEventListener("click", () => {
  if (seats.children.length < 8) addSeat(nextName(), mode === "invite" ? "remote" : "here").querySelector(".seat-name").focus();
});
document.getElementById("add-bot").addEventListener("click", () => {
  if (seats.children.length >= 8) return;
  const level = document.getElementById("bot-level");
  const botName = level.selectedOptions[0].textContent;
  addSeat(`${form.dataset.computer} (${botName})`, level.value).querySelector(".seat-name").focus();
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const which = event.submitter ? event.submitter.dataset.mode : "bot";
  start(which === "setup" ? mode : which);
});

try {
  const saved = localStorage.getItem("yatzy-preset");
  const radio = saved && form.querySelector(`input[name="preset"][value="${CSS.escape(saved)}"]`);
  if (radio) radio.checked = true;
} catch (e) { /* private mode */ }
showPreset();
