// The deals' view: the list of deals offered, what the page could not do as asked (a link,
// the server's file, a file's refused lines) and the input panel.  It reads the state.
import { state, $, el, plural } from "./state.js";

export function showDealError(message) {
  const box = $("input-error");
  box.textContent = message;
  box.hidden = false;
  openInput(true);
}

// something the page could not do as asked (a link, the server's file): said above the
// table, after what is said there already with `more`
export function notice(message, items, more) {
  const box = $("notice");
  if (!more) box.replaceChildren();
  if (message) box.append(el("div", null, message));
  if (items && items.length) {
    const ul = el("ul");
    for (const item of items) ul.append(el("li", null, item));
    box.append(ul);
  }
  box.hidden = !box.childNodes.length;
}

export function openInput(open) {
  $("input-panel").hidden = !open;
  $("toggle-input").setAttribute("aria-expanded", String(open));
}

export function fillDeals() {
  const sel = $("deal-select");
  sel.replaceChildren();
  const groups = new Map();
  state.deals.forEach((d, i) => {
    if (!groups.has(d.group)) { const g = el("optgroup"); g.label = d.group; groups.set(d.group, g); sel.append(g); }
    const o = el("option", null, d.label);
    o.value = String(i);
    groups.get(d.group).append(o);
  });
  sel.value = String(state.dealIndex);
}

// deal i chosen in the list
export function drawChosen(i) {
  $("deal-select").value = String(i);
}

// the lines of a file or a paste refused (line numbers where named), shown and left open
// even when its good positions (loaded of them) are in the list
export function drawRefused(problems, loaded, named) {
  const box = $("input-error");
  box.hidden = !problems.length;
  if (problems.length) {
    box.replaceChildren(el("strong", null, loaded
      ? plural(problems.length, "position") + " refused; " +
        (loaded === 1 ? "the other one is" : "the other " + loaded + " are") + " in the list:"
      : problems.length === 1 ? "This position is refused:" : "These positions are refused:"));
    const ul = el("ul");
    for (const p of problems.slice(0, 20)) ul.append(el("li", null, (named ? "line " + p.n + ": " : "") + p.text));
    if (problems.length > 20) ul.append(el("li", null, "… and " + (problems.length - 20) + " more"));
    box.append(ul);
    openInput(true);
  } else {
    openInput(false);
  }
}
