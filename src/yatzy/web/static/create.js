// The new-game form: builds the request; the server checks and canonicalises the spec.
"use strict";
(function () {
  const form = document.getElementById("create");
  const variant = document.getElementById("variant");
  const seats = document.getElementById("seats");
  const rowTemplate = document.getElementById("seat-row");
  const specOut = document.getElementById("spec");
  const error = document.getElementById("error");

  function activeOptions() {
    return document.querySelector(`.opts[data-variant="${variant.value}"]`);
  }
  function spec() {
    let s = variant.value;
    activeOptions().querySelectorAll("[data-opt]").forEach((el) => {
      const name = el.dataset.opt;
      if (el.type === "checkbox") {
        if (el.checked) s += "+" + name;
      } else if (String(el.value) !== String(el.dataset.default) && el.value !== "") {
        s += `+${name}=${el.value}`;
      }
    });
    return s;
  }
  function refresh() {
    document.querySelectorAll(".opts").forEach((d) => { d.hidden = d.dataset.variant !== variant.value; });
    specOut.textContent = spec();
  }
  function addSeat(name, kind, here) {
    const node = rowTemplate.content.firstElementChild.cloneNode(true);
    node.querySelector(".seat-name").value = name;
    node.querySelector(".seat-kind").value = kind;
    node.querySelector(".seat-here").checked = here;
    node.querySelector(".seat-kind").addEventListener("change", (e) => {
      const here = node.querySelector(".seat-here");
      here.disabled = e.target.value !== "";
      if (here.disabled) here.checked = false;
    });
    node.querySelector(".seat-here").disabled = kind !== "";
    node.querySelector(".seat-remove").addEventListener("click", () => {
      if (seats.children.length > 1) node.remove();
    });
    seats.appendChild(node);
  }
  variant.addEventListener("change", refresh);
  form.addEventListener("change", refresh);
  form.addEventListener("input", refresh);
  document.getElementById("add-seat").addEventListener("click", () => {
    if (seats.children.length < 8) addSeat(`Player ${seats.children.length + 1}`, "", true);
  });
  addSeat("Player 1", "", true);
  addSeat("Bot", document.querySelector(".seat-kind option[value='greedy']") ? "greedy" : "", false);
  refresh();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = {
      rules: spec(),
      lang: document.getElementById("lang").value,
      pad: document.getElementById("pad").checked,
      hints: document.getElementById("hints").checked,
      seats: Array.from(seats.children).map((li) => {
        const bot = li.querySelector(".seat-kind").value;
        const seat = { name: li.querySelector(".seat-name").value.trim() || "?", here: li.querySelector(".seat-here").checked };
        if (bot) { seat.bot = bot; seat.here = false; }
        return seat;
      }),
    };
    const response = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) {
      error.textContent = typeof data.detail === "string" ? data.detail
        : (data.detail || []).map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
      return;
    }
    try { localStorage.setItem("yatzy-invite-" + data.id, data.invite); } catch (e) { /* private mode */ }
    window.location.href = "/g/" + data.id;
  });
})();
