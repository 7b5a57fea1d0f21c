// Placeholder of the hints and analysis renderer (the "insight" work replaces this
// module): it shows the hint options' texts and the analysis' summary lines.
export function renderHint(container, hint, strings) {
  container.replaceChildren();
  if (!hint) return;
  if (hint.pending) { container.textContent = strings.hint_pending || ""; return; }
  const list = document.createElement("ol");
  for (const option of hint.options || hint.choices || []) {
    const item = document.createElement("li");
    item.tabIndex = 0;
    item.textContent = option.loss > 0 ? `${option.text} (−${option.loss.toFixed(1)})` : String(option.text || "");
    if (option.keep) item.dataset.keep = option.keep.join(",");
    if (option.box) item.dataset.box = option.box;
    if (option.inner) item.dataset.inner = option.inner;
    if (option.outer) item.dataset.outer = option.outer;
    list.append(item);
  }
  const title = document.createElement("h3");
  title.textContent = strings.hint || "";
  container.append(title, list);
  if (hint.approximate) {
    const note = document.createElement("p");
    note.textContent = strings.approximate || "";
    container.append(note);
  }
}

export function renderAnalysis(container, analysis, view, strings) {
  container.replaceChildren();
  if (!analysis) return;
  const p = document.createElement("p");
  if (analysis.unavailable) p.textContent = analysis.unavailable;
  else if (analysis.pending) p.textContent = strings.analysis_pending || "";
  else {
    const title = document.createElement("h3");
    title.textContent = strings.analysis || "";
    container.append(title);
    const list = document.createElement("ul");
    for (const player of analysis.players || []) {
      if (view.players[player.player] && view.players[player.player].bot) continue;
      const item = document.createElement("li");
      item.textContent = `${player.name}: −${Number(player.total_loss).toFixed(1)}`;
      list.append(item);
    }
    container.append(list);
    return;
  }
  container.append(p);
}
