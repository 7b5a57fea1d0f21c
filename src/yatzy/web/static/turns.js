// For a signed-in player, on every page: how many games wait for their move, in the
// header (a link to the list on the account page) and the page's title, checked
// every minute and whenever the page comes back into view.
const badge = document.getElementById("turns-badge");
const words = badge ? JSON.parse(badge.dataset.turnWords) : {};
const title = document.title;
const lang = document.documentElement.lang || "en";

async function check() {
  if (!badge || document.hidden) return;
  let games;
  try {
    const response = await fetch(new URL(`api/account/turns?lang=${lang}`, document.baseURI), { credentials: "same-origin" });
    if (!response.ok) return;
    games = (await response.json()).games;
  } catch (e) { return; }
  // a game's own page does not count the game it shows
  const here = document.getElementById("game")?.dataset.game;
  const count = games.filter((g) => g.id !== here).length;
  badge.hidden = count === 0;
  badge.textContent = words.your_turns.replace("{count}", String(count));
  document.title = count ? `(${count}) ${title}` : title;
  showList(games);
}

// The account page's list of the games that wait, each a link to its game.
function showList(games) {
  const list = document.getElementById("turns");
  if (!list) return;
  const items = games.map((g) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `g/${g.id}`;
    link.textContent = `${g.title}: ${g.players.join(", ")}`;
    item.append(link);
    // a daily game's whole days left for this move (issue 26)
    if (g.days_left !== undefined && g.days_left !== null) {
      const days = g.days_left === 0 ? words.time_out
        : g.days_left === 1 ? words.day_left : words.days_left.replace("{count}", String(g.days_left));
      const left = document.createElement("span");
      left.className = "days-left";
      left.textContent = ` – ${days}`;
      item.append(left);
    }
    return item;
  });
  if (!items.length) {
    const none = document.createElement("li");
    none.textContent = words.turns_none;
    items.push(none);
  }
  list.replaceChildren(...items);
}

check();
setInterval(check, 60_000);
document.addEventListener("visibilitychange", check);
