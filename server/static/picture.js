// "Save image": the table as a picture for a forum post or a club bulletin — drawn by the
// server (atout/present/picture.py, as `atout show --svg` draws it) as SVG, and as PNG rasterised
// here on a canvas.  From one seat's view the picture is that view (the other hands face
// down); with every hand open it may carry the double-dummy value and each card's cost.
import { state, $, positionAt } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { currentSolve } from "./position.js";

let wanted = true;        // the reader's choice, kept while the values cannot be had

export function openImage(open) {
  $("image-panel").hidden = !open;
  $("save-image").setAttribute("aria-expanded", String(open));
  if (!open) return;
  $("image-values").onchange = (e) => { wanted = e.target.checked; };
  imageChanged();
  $("image-status").textContent = "";
}

// the position shown, its value or the view changed: the box offers what the picture can
// carry now — the exact value and each card's cost, the value's proven bounds where the
// search stopped before the value, nothing (unticked) while no search has answered or from
// one seat's view
export function imageChanged() {
  if ($("image-panel").hidden) return;
  const solved = currentSolve();
  const values = $("image-values");
  values.disabled = !solved || state.viewSeat !== null;
  values.checked = wanted && !values.disabled;
  const exact = solved && solved.status === "ok";
  const words = [...$("image-values-label").childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.nodeValue.trim());
  if (words) words.nodeValue = exact || !solved ? " with the double-dummy value and each card's cost"
    : " with the double-dummy value's proven bounds (the search stopped before the value)";
  $("image-values-label").title = values.disabled
    ? (state.viewSeat !== null ? "not from one seat's view: the values see every hand" : "once the value of this position is known (or its bounds)")
    : exact ? "the value of the position and each legal card's value and cost" : "the range the value is proven to lie in";
}

async function picture() {
  const body = { position: positionAt(state.cursor) };
  if (state.viewSeat !== null) body.seat = state.viewSeat;
  // a what-if's picture says so: the server finds where this line leaves the real play
  if (state.whatIfFrom !== null && state.whatIfFrom < state.cursor) body.real_played = state.real;
  const solved = currentSolve();
  if ($("image-values").checked && !$("image-values").disabled && solved) {
    body.values = { status: solved.status, value: solved.value, cards: solved.cards || null, bounds: solved.bounds || null };
  }
  const r = await post("/api/picture", body);
  if (!r.ok) throw new Error(fieldMessage(r.data));
  return r.data;
}

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// the SVG drawn on a canvas at twice its size (sharp on a high-density screen)
async function rasterise(svgText) {
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText);
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth * 2;
  canvas.height = img.naturalHeight * 2;
  const ctx = canvas.getContext("2d");
  ctx.scale(2, 2);
  ctx.drawImage(img, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the canvas made no PNG"))), "image/png"));
}

export async function saveImage(kind) {
  const status = $("image-status");
  status.textContent = "drawing…";
  try {
    const p = await picture();
    if (kind === "svg") download(new Blob([p.svg], { type: "image/svg+xml" }), p.name + ".svg");
    else download(await rasterise(p.svg), p.name + ".png");
    status.textContent = "Saved " + p.name + "." + kind + ".";
  } catch (e) {
    status.textContent = "The picture failed: " + e.message;
  }
}
