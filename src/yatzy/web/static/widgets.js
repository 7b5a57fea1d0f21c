// Small pieces of the game screen that know nothing of the game: building elements,
// the optional sound, the confirmation dialog, reading typed dice.

// An element with attributes (on... are listeners) and children.
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

// An SVG element (charts), with its attributes and children.
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

// A beep of the given tones (WebAudio, no files), only when the player ticked Sound.
let audio = null;
export function beep(freqs, length) {
  if (!document.getElementById("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    freqs.forEach((f, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.08, audio.currentTime + i * 0.09);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + i * 0.09 + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + i * 0.09);
      osc.stop(audio.currentTime + i * 0.09 + length);
    });
  } catch (e) { /* no audio here */ }
}

// Ask a yes/no question in the page's dialog; resolves true for yes.  "No" has the
// focus, so Enter alone never writes a zero by accident.
export function confirmAsk(question) {
  const dialog = document.getElementById("confirm");
  const yes = document.getElementById("confirm-yes");
  const no = document.getElementById("confirm-no");
  document.getElementById("confirm-text").textContent = question;
  return new Promise((resolve) => {
    const done = (answer) => {
      yes.onclick = null;
      no.onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
    no.focus();
  });
}

// Dice typed on a score pad ("66622", or pairs inner first "56 34 ..." for double dice); null
// unless there are exactly n of them, each 1-6.
export function parsePadDice(raw, n, double) {
  if (double) {
    const pairs = raw.trim().split(/[\s,]+/).filter(Boolean);
    if (pairs.length !== n || !pairs.every((p) => /^[1-6][\/-]?[1-6]$/.test(p))) return null;
    // inner face first, as everywhere (5/6: inner 5, outer 6); the server takes [outer, inner]
    return pairs.map((p) => p.replace(/[\/-]/, "").split("").map(Number).reverse());
  }
  const digits = raw.replace(/[\s,\-]+/g, "");
  if (digits.length !== n || !/^[1-6]+$/.test(digits)) return null;
  return digits.split("").map(Number);
}
