// The page's address and its share links.  The address always says what is shown — the
// deal, the card, a what-if line and the view — so a reload shows it again: a deal of the
// server's list by its number (#deal=4&card=49&from=48&whatif=6D), any other deal — and
// one of the list opened from a link — by itself (#d=<the deal, link.js>&card=…).  "Share" gives the second form for every deal:
// the link carries the deal, so anyone opening it on an atout viewer sees the same table.
import { state, $, noteDeal } from "./state.js";
import { encode, linkParts, readLink, viewNumber, LinkError } from "./link.js";

function viewPart() {
  let hash = "card=" + state.cursor;
  if (state.whatIfFrom !== null) hash += "&from=" + state.whatIfFrom + "&whatif=" + state.line.slice(state.whatIfFrom).join(",");
  if (state.viewSeat !== null) hash += "&seat=" + state.viewSeat;     // from one seat's view
  return hash;
}

function dealPart(share) {
  const d = state.deals[state.dealIndex];
  // a deal of the list by its number, unless it came in a link: another viewer's list
  // differs, so the address keeps the deal itself (a reload or a copy shows the same one)
  if (!share && d && !d.shared && !d.fromLink) return "deal=" + state.dealIndex;
  if (!d.payload) noteDeal(state.dealIndex, { payload: encode(d.obj) });
  return "d=" + state.deals[state.dealIndex].payload;
}

export function linkHash() { return "#" + dealPart(false) + "&" + viewPart(); }

export function shareLink() {
  return location.origin + location.pathname + "#" + dealPart(true) + "&" + viewPart();
}

export function writeAddress() {
  history.replaceState(null, "", linkHash());
  const field = $("share-link");
  if (!$("share-panel").hidden) field.value = shareLink();
}

// what the address asks for, read by link.js's rules (docs/format.md, "Reading a link"):
// {position (a deal in the link), card, from, whatif, seat}, or {deal (a number of this
// page's list), dealText, card, from, whatif, seat}; numbers null when absent.  A link the
// rules refuse is {problem: "field: reason"}, and nothing of it is shown.
export function readAddress() {
  const text = location.hash;
  try {
    const parts = linkParts(text);
    if (parts.has("d")) return readLink(text);
    const deal = parts.get("deal");
    const whatif = (parts.get("whatif") || "").split(",").filter((t) => t);
    return {
      deal: deal === undefined ? null : /^[0-9]{1,9}$/.test(deal) ? Number(deal) : NaN, dealText: deal,
      card: viewNumber(parts, "card"), from: viewNumber(parts, "from"), seat: viewNumber(parts, "seat"),
      whatif: whatif.length ? whatif : null,
    };
  } catch (e) {
    if (!(e instanceof LinkError)) throw e;
    return { problem: e.field + ": " + e.reason };
  }
}

export function openShare(open) {
  $("share-panel").hidden = !open;
  $("share").setAttribute("aria-expanded", String(open));
  if (!open) return;
  const field = $("share-link");
  field.value = shareLink();
  field.focus();
  field.select();
}

export async function copyShare() {
  const field = $("share-link");
  const done = $("share-done");
  try {
    await navigator.clipboard.writeText(field.value);
    done.textContent = "Copied.";
  } catch (e) {
    // no clipboard here (a page not served from this computer, or refused): selected to copy
    field.focus();
    field.select();
    done.textContent = "Selected: copy it with Ctrl+C (⌘C).";
  }
}
