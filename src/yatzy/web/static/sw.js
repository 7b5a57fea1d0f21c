// The service worker: shows the server's Web Push notifications (your turn, a friend
// request, a game over, an invitation) and opens the game on a click. The server
// words each one in the language of the device's account page (title and body come
// in the encrypted payload); nothing else is cached or intercepted here.
const scope = self.registration.scope;

function target(data) {
  if (data.game) return new URL("g/" + encodeURIComponent(data.game), scope).href;
  return new URL(data.kind === "friend" ? "account" : "./", scope).href;
}

self.addEventListener("push", (event) => {
  let data;
  try { data = event.data ? event.data.json() : null; } catch (e) { data = null; }
  if (!data || !data.title) return;
  const url = target(data);
  event.waitUntil((async () => {
    // a window that shows this game already says it is your turn (its socket may
    // be held by another server process, which could not tell this one)
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    if (data.game && windows.some((w) => w.visibilityState === "visible" && w.url.split("?")[0] === url)) return;
    await self.registration.showNotification(data.title, {
      body: data.body || "",
      tag: data.kind + ":" + (data.game || ""),
      icon: new URL("static/icon-192.png", scope).href,
      data: { url },
    });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || scope;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => w.url.split("?")[0] === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
