// What the tournament pages share: times shown in the reader's zone and language,
// and a state-changing request with the CSRF header.

export function localTimes(root) {
  const lang = document.documentElement.lang;
  root.querySelectorAll("time.local-time").forEach((el) => {
    const when = new Date(el.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      el.textContent = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    }
  });
}

export async function post(path, body) {
  try {
    const response = await fetch(new URL(path, document.baseURI), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Yatzy-CSRF": "1" },
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => null);
    return { response, data };
  } catch (err) {
    return { response: null, data: null };
  }
}
