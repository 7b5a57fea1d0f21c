// The tournaments page: times in the reader's own zone, and the form that makes a
// tournament (signed in), then goes to its page.  The list is rendered by the server.
import { localTimes, post } from "./tournament-common.js";

localTimes(document);
const form = document.getElementById("tournament-create");
if (form) {
  const error = document.getElementById("tournament-error");
  const words = JSON.parse(form.dataset.words);
  const start = form.elements.starts_at;
  if (!start.value) {
    // an hour from now, to the minute, in the local zone as datetime-local wants it
    const soon = new Date(Date.now() + 3600e3);
    soon.setSeconds(0, 0);
    start.value = new Date(soon.getTime() - soon.getTimezoneOffset() * 60e3).toISOString().slice(0, 16);
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const when = new Date(start.value);
    if (!form.elements.name.value.trim() || Number.isNaN(when.getTime()) || when <= new Date()) {
      error.textContent = words.bad_form;
      (form.elements.name.value.trim() ? start : form.elements.name).focus();
      return;
    }
    const body = {
      name: form.elements.name.value.trim(),
      rules: form.elements.rules.value,
      lang: document.documentElement.lang,
      starts_at: when.toISOString(),
      rounds: Number(form.elements.rounds.value),
      table_size: Number(form.elements.table_size.value),
      round_minutes: Number(form.elements.round_minutes.value),
      duplicate: form.elements.duplicate.checked,
      public: form.elements.public.checked,
    };
    const { response, data } = await post("api/tournaments", body);
    if (!response || !response.ok) {
      error.textContent = !response ? words.failed : response.status === 429 ? words.too_many : response.status === 422 ? words.bad_form : words.failed;
      return;
    }
    window.location.href = new URL(`tournaments/${data.id}`, document.baseURI).href;
  });
}
