// "Save image": the table as a picture for a forum post or a club bulletin — drawn by the
// server (atout/present/picture.py, as `atout show --svg` draws it) as SVG, and as PNG rasterised
// here on a canvas.  From one seat's view the picture is that view (the other hands face
// down); with every hand open it may carry the double-dummy value and each card's cost.
import { state, $, positionAt } from "./state.js";
import { post, fieldMessage } from "./api.js";
import { currentSolve } from "./position.js";

export function openImage(open) {
  $("image-panel").hidden = !open;
  $("save-image").setAttribute("aria-expanded", String(open));
  if (!open) return;
  const solved = currentSolve();
  const values = $("image-values");
  values.disabled = !solved || state.viewSeat !== null;
  $("image-values-label").title = values.disabled
    ? (state.viewSeat !== null ? "not from one seat's view: the values see every hand" : "once the value of this position is known")
    : "the value of the position and each legal card's value and cost";
  $("image-status").textContent = "";
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
