// The daily challenges page: start today's game of a rule set (or carry on with the
// one begun), then go to it.  Everything else on the page is rendered by the server.
const page = document.getElementById("main");
const error = document.getElementById("daily-error");
const words = JSON.parse(error.dataset.words);

function remembered() {
  try { return localStorage.getItem("yatzy-name") || ""; } catch (e) { return ""; }
}

page.querySelectorAll("form.daily-start").forEach((form) => {
  const input = form.querySelector("input[name=name]");
  if (!input.value) input.value = remembered();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const name = input.value.trim();
    if (!name) { error.textContent = words.name_missing; input.focus(); return; }
    let response, data;
    try {
      response = await fetch(new URL(`api/daily/${form.dataset.rules}`, document.baseURI), {
        method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
        body: JSON.stringify({ name, lang: document.documentElement.lang }),
      });
      data = await response.json();
    } catch (err) {
      error.textContent = words.unreachable;
      return;
    }
    if (!response.ok) {
      error.textContent = response.status === 409 ? words.daily_played : (response.status === 422 ? words.daily_bad_name : words.unreachable);
      input.focus();
      return;
    }
    try { localStorage.setItem("yatzy-name", name); } catch (err) { /* private mode */ }
    window.location.href = new URL(data.url, document.baseURI).href;
  });
});
