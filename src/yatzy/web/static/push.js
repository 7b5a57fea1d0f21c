// The account page's notifications: turn Web Push on or off on this device, and
// choose the kinds. Permission is asked only when the button is pressed (a user
// gesture), never on load. The service worker (/sw.js, the app's whole scope) shows
// what the server sends (see yatzy.web.notifications).
const HEADERS = { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" };
const holder = document.querySelector("[data-words]");
const words = JSON.parse(holder.dataset.words);
const lang = holder.dataset.lang;
const $ = (id) => document.getElementById(id);
const state = $("push-state"), on = $("push-on"), off = $("push-off"), kinds = $("push-kinds"), error = $("push-error");

const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function call(path, body) {
  const init = body === undefined ? { credentials: "same-origin" }
    : { method: "POST", headers: HEADERS, credentials: "same-origin", body: JSON.stringify(body) };
  try {
    const response = await fetch(new URL(path, document.baseURI), init);
    if (!response.ok) throw new Error(String(response.status));
    error.textContent = "";
    return await response.json();
  } catch (e) {
    error.textContent = words.failed;
    return null;
  }
}

// The server's key as pushManager.subscribe wants it (bytes from base64url).
function keyBytes(text) {
  const b64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function subscription() {
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

function show(view) {
  if (!view) return;
  const mine = view.this_device;
  const lines = [mine ? words.push_is_on : words.push_is_off];
  if (view.devices) lines.push(words.push_devices.replace("{count}", view.devices));
  if (!mine && Notification.permission === "denied") lines.push(words.push_denied);
  state.textContent = lines.join(" ");
  on.hidden = mine || Notification.permission === "denied";
  off.hidden = !mine;
  kinds.hidden = false;
  for (const box of kinds.querySelectorAll("input")) box.checked = Boolean(view.kinds[box.name]);
}

async function refresh() {
  const current = await subscription();
  // this page's language is the one the device's notifications are worded in
  show(current ? await call("api/push/device", { endpoint: current.endpoint, lang }) : await call("api/push"));
}

async function turnOn() {
  on.disabled = true;
  try {
    if ((await Notification.requestPermission()) !== "granted") { await refresh(); return; }
    await navigator.serviceWorker.register("sw.js", { scope: "./" });
    const registration = await navigator.serviceWorker.ready;
    const key = await call("api/push/key");
    if (!key) return;
    const sub = (await registration.pushManager.getSubscription())
      || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.key) }));
    show(await call("api/push/subscribe", { ...sub.toJSON(), lang }));
  } catch (e) {
    error.textContent = words.failed;
  } finally {
    on.disabled = false;
  }
}

async function turnOff() {
  const current = await subscription();
  if (!current) { await refresh(); return; }
  const endpoint = current.endpoint;
  try { await current.unsubscribe(); } catch (e) { /* the server forgets it all the same */ }
  show(await call("api/push/unsubscribe", { endpoint }));
}

if (!supported) {
  state.textContent = words.push_unsupported;
} else {
  on.addEventListener("click", turnOn);
  off.addEventListener("click", turnOff);
  kinds.addEventListener("change", async (e) => {
    const box = e.target;
    const view = await call("api/push/settings", { kinds: { [box.name]: box.checked } });
    if (view) show({ ...view, this_device: !off.hidden });
    else box.checked = !box.checked;
  });
  refresh();
}
