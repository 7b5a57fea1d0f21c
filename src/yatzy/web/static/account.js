// The account pages: sign up (then the recovery codes, shown once), log in with the
// password or a recovery code, and the account's sessions, codes and deletion.
// Every request that changes something carries the X-Yatzy-CSRF header, which a
// page of another origin cannot send (see yatzy.web.accounts).
import { el } from "./widgets.js";

const HEADERS = { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" };
const holder = document.querySelector("[data-words]");
const words = JSON.parse(holder.dataset.words);
const error = document.getElementById("form-error");

async function post(path, body, shownError = error, reasons = {}) {
  let response, data = null;
  try {
    response = await fetch(new URL(path, document.baseURI), {
      method: "POST", headers: HEADERS, credentials: "same-origin", body: JSON.stringify(body || {}),
    });
    data = await response.json();
  } catch (e) {
    shownError.textContent = words.failed;
    return null;
  }
  if (!response.ok) {
    const reason = { 403: words.wrong_login, 409: words.name_taken, 422: words.bad_input, 429: words.too_many, ...reasons };
    shownError.textContent = reason[response.status] || words.failed;
    return null;
  }
  shownError.textContent = "";
  return data;
}

// A browser's User-Agent in a few words: "Firefox · Android" (the whole string is long).
function device(agent) {
  const browsers = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
  const systems = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"], ["Mac OS", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];
  const first = (pairs) => (pairs.find(([mark]) => agent.includes(mark)) || [null, null])[1];
  const words = [first(browsers), first(systems)].filter(Boolean);
  return words.length ? words.join(" · ") : (agent || "?");
}

function showCodes(list, codes) {
  list.replaceChildren(...codes.map((c) => el("li", {}, el("code", {}, c))));
  list.hidden = false;
}

// Passkeys where the browser reads WebAuthn's JSON (PublicKeyCredential's parse...FromJSON).
const passkeys = Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);

const signup = document.getElementById("signup");
if (signup) {
  signup.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = signup.elements.name.value.trim(), password = signup.elements.password.value;
    if (!name || password.length < 8) { error.textContent = words.bad_input; return; }
    const data = await post("api/account/signup", { name, password });
    if (!data) return;
    signup.hidden = true;
    const link = document.querySelector(".account-link"); // the header: signed in now
    if (link) { link.textContent = data.account.name; link.setAttribute("href", "account"); }
    const section = document.getElementById("codes");
    showCodes(document.getElementById("code-list"), data.recovery_codes);
    section.hidden = false;
    document.getElementById("codes-h").focus();
  });
}

const login = document.getElementById("login");
if (login) {
  const other = document.getElementById("switch");
  const passwordRow = document.getElementById("password-row"), codeRow = document.getElementById("code-row");
  other.addEventListener("click", () => {
    const useCode = codeRow.hidden;
    codeRow.hidden = !useCode;
    passwordRow.hidden = useCode;
    [other.textContent, other.dataset.other] = [other.dataset.other, other.textContent];
    (useCode ? login.elements.code : login.elements.password).focus();
  });
  if (passkeys) {
    document.getElementById("passkey-row").hidden = false;
    document.getElementById("passkey-login").addEventListener("click", async () => {
      const begun = await post("api/account/passkey-login/options");
      if (!begun) return;
      let credential;
      try {
        const options = PublicKeyCredential.parseRequestOptionsFromJSON(JSON.parse(begun.options));
        credential = await navigator.credentials.get({ publicKey: options });
      } catch (e) { error.textContent = words.passkey_failed; return; }
      const done = await post("api/account/passkey-login", { ceremony: begun.ceremony, credential: credential.toJSON() },
        error, { 403: words.passkey_failed });
      if (done) window.location.href = new URL("account", document.baseURI).href;
    });
  }
  login.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = login.elements.name.value.trim();
    const body = codeRow.hidden
      ? { name, password: login.elements.password.value }
      : { name, code: login.elements.code.value.trim() };
    if (!name || !(body.password || body.code)) { error.textContent = words.wrong_login; return; }
    if (await post("api/account/login", body)) window.location.href = new URL("account", document.baseURI).href;
  });
}

const account = document.getElementById("account");
if (account) {
  const lang = account.dataset.lang || "en";
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const shown = (iso) => when.format(new Date(iso));
  for (const t of document.querySelectorAll("time[datetime]")) t.textContent = shown(t.getAttribute("datetime"));
  const list = document.getElementById("sessions");
  const home = () => { window.location.href = new URL("./", document.baseURI).href; };

  const showSessions = (sessions) => {
    list.replaceChildren(...sessions.map((s) => el("li", { class: "session" },
      el("strong", { title: s.agent }, device(s.agent)), s.current ? ` (${words.this_device})` : "", el("br"),
      el("small", {}, `${words.since}: ${shown(s.created)} · ${words.seen}: ${shown(s.seen)}`), el("br"),
      el("button", { type: "button", onclick: async () => {
        const left = await post("api/account/sessions/revoke", { id: s.id });
        if (left === null) return;
        if (s.current) home(); else showSessions(left);
      } }, words.revoke))));
  };
  const load = async () => {
    try {
      const [sessions, me] = await Promise.all(["api/account/sessions", "api/account"].map(
        (p) => fetch(new URL(p, document.baseURI), { credentials: "same-origin" }).then((r) => r.json())));
      showSessions(sessions);
      document.getElementById("codes-left").textContent = words.codes_left.replace("{n}", me.recovery_codes_left);
    } catch (e) { error.textContent = words.failed; }
  };
  load();

  // passkeys: the list, one more, one less
  const passkeyError = document.getElementById("passkey-error");
  const showPasskeys = (keys) => {
    document.getElementById("passkeys").replaceChildren(...keys.map((k) => el("li", {},
      el("span", { class: "who", title: k.agent }, device(k.agent)), " ",
      el("small", {}, shown(k.created)), el("br"),
      el("button", { type: "button", onclick: async () => {
        const left = await post("api/account/passkeys/delete", { id: k.id }, passkeyError);
        if (left) showPasskeys(left);
      } }, words.passkey_remove))));
  };
  if (passkeys) {
    document.getElementById("passkey-section").hidden = false;
    fetch(new URL("api/account/passkeys", document.baseURI), { credentials: "same-origin" })
      .then((r) => r.json()).then(showPasskeys).catch(() => { passkeyError.textContent = words.failed; });
    document.getElementById("passkey-add").addEventListener("click", async () => {
      const begun = await post("api/account/passkeys/options", {}, passkeyError);
      if (!begun) return;
      let credential;
      try {
        const options = PublicKeyCredential.parseCreationOptionsFromJSON(JSON.parse(begun.options));
        credential = await navigator.credentials.create({ publicKey: options });
      } catch (e) { passkeyError.textContent = words.passkey_failed; return; }
      const keys = await post("api/account/passkeys", { ceremony: begun.ceremony, credential: credential.toJSON() },
        passkeyError, { 403: words.passkey_failed });
      if (keys) showPasskeys(keys);
    });
  }

  // friends: each list's people with the answers that fit it
  const friendError = document.getElementById("friend-error");
  // The lists are asked for once at load; the answer to a change made meanwhile is
  // newer, so a slow first answer must not draw the old lists over it (a request sent
  // before the first answer came vanished from "Asked").
  let listsChanged = false;
  const befriend = async (action, name) => {
    const lists = await post(`api/friends/${action}`, { name }, friendError, { 404: words.friend_unknown, 422: words.friend_unknown });
    if (lists) { listsChanged = true; showFriends(lists); }
    return lists;
  };
  const person = (name, ...actions) => el("li", {}, el("span", { class: "who" }, name), " ",
    ...actions.map(([action, label]) => el("button", { type: "button", onclick: () => befriend(action, name) }, label)));
  const fill = (id, names, actions) => {
    document.getElementById(id).replaceChildren(...names.map((n) => person(n, ...actions)));
    const heading = document.getElementById(`${id}-h`);
    if (heading && id !== "friends") heading.hidden = names.length === 0;
  };
  function showFriends(lists) {
    fill("incoming", lists.incoming, [["accept", words.friend_accept], ["remove", words.friend_decline], ["block", words.friend_block]]);
    fill("friends", lists.friends, [["remove", words.friend_remove], ["block", words.friend_block]]);
    // presence: who is online, who is in a game (as the server saw them lately)
    for (const item of document.getElementById("friends").children) {
      const name = item.querySelector(".who").textContent;
      const status = lists.playing.includes(name) ? words.friend_playing : (lists.online.includes(name) ? words.friend_online : "");
      if (status) item.querySelector(".who").after(" ", el("span", { class: "presence" }, `(${status})`));
    }
    fill("outgoing", lists.outgoing, [["remove", words.friend_cancel]]);
    fill("blocked", lists.blocked, [["unblock", words.friend_unblock]]);
    document.getElementById("no-friends").hidden = lists.friends.length > 0;
  }
  fetch(new URL("api/friends", document.baseURI), { credentials: "same-origin" })
    .then((r) => r.json()).then((lists) => { if (!listsChanged) showFriends(lists); })
    .catch(() => { friendError.textContent = words.failed; });
  const addFriend = document.getElementById("add-friend");
  addFriend.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = addFriend.elements.friend.value.trim();
    if (!name) { friendError.textContent = words.friend_unknown; return; }
    if (await befriend("request", name)) addFriend.elements.friend.value = "";
  });
  document.getElementById("logout").addEventListener("click", async () => {
    if (await post("api/account/logout")) home();
  });
  document.getElementById("logout-everywhere").addEventListener("click", async () => {
    if (await post("api/account/logout-everywhere")) home();
  });
  document.getElementById("new-codes").addEventListener("click", async () => {
    const data = await post("api/account/recovery-codes");
    if (!data) return;
    showCodes(document.getElementById("code-list"), data.recovery_codes);
    document.getElementById("codes-note").hidden = false;
    document.getElementById("codes-left").textContent = words.codes_left.replace("{n}", data.recovery_codes.length);
  });
  const del = document.getElementById("delete");
  del.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await post("api/account/delete", { confirm: del.elements.confirm.value.trim() })) home();
  });
}
