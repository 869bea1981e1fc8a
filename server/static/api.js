// Talking to the server: the JSON API (token, errors) and the searches under way, one per
// slot, stopped when the page moves on.
import { state, setRequest } from "./state.js";
import { withCardText } from "./cards.js";

// A server started with --token-file wants every API request to carry its token: asked for
// on the first 401, kept for this tab only (sessionStorage).
export async function api(path, init) {
  for (let asked = 0; ; asked++) {
    const token = sessionStorage.getItem("atoutToken");
    const headers = Object.assign({}, init.headers || {}, token ? { Authorization: `Bearer ${token}` } : {});
    const response = await fetch(path, Object.assign({}, init, { headers }));
    if (response.status !== 401 || asked >= 2) return response;
    const given = window.prompt("This server asks for its token (atout serve --token-file):");
    if (!given) return response;
    sessionStorage.setItem("atoutToken", given.trim());
  }
}

export async function post(path, body, signal) {
  const response = await api(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { reason: "the server's answer is not JSON" }; }
  return { ok: response.ok, status: response.status, data };
}

// A request whose answer streams, one JSON object a line (application/x-ndjson): onLine(obj)
// for each as it comes.  {ok: true} once the answer ends; {ok: false, status, data} when it
// was refused before it began (data: the JSON refusal).
export async function postLines(path, body, signal, onLine) {
  const response = await api(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal,
  });
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch (e) { data = { reason: "the server's answer is not JSON" }; }
    return { ok: false, status: response.status, data };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  if (buffer.trim()) onLine(JSON.parse(buffer));
  return { ok: true, status: response.status };
}

// "field: reason" of a refusal, its card codes written as a player writes them
export function fieldMessage(data) {
  if (!data) return "no answer";
  return (data.field ? data.field + ": " : "") + withCardText(data.reason || data.error || "refused");
}

// the server's rules engine says whether a position is good: null, or "field: reason"
export async function validate(obj) {
  const r = await post("/api/validate", { position: obj });
  if (r.ok && r.data.ok) return null;
  return fieldMessage(r.data);
}

// A request for the position shown (state[slot]: the one under way): sent after a short
// pause, so that stepping quickly through cards starts no search for each of them; tick(job)
// shows its progress meanwhile; done(data) or fail(message) when it answers, unless the
// view has moved on (stopRequest aborts it: the server stops the search when the request
// goes away; 409: a newer request from this tab took its place).
export function startRequest(slot, key, path, body, delay, tick, done, fail) {
  const job = { key, controller: new AbortController(), started: performance.now(), timer: null };
  setRequest(slot, job);
  tick(job);
  job.timer = setInterval(() => tick(job), 200);
  job.delay = setTimeout(async () => {
    let r;
    try {
      r = await post(path, body, job.controller.signal);
    } catch (e) {
      if (e.name === "AbortError") return;
      r = { ok: false, data: { reason: "the server did not answer (" + e.message + ")" } };
    }
    if (state[slot] !== job) return;
    clearInterval(job.timer);
    setRequest(slot, null);
    job.seconds = (performance.now() - job.started) / 1000;
    if (r.ok) done(r.data, job);
    else if (r.status !== 409) fail(fieldMessage(r.data));
  }, delay);
}

export function stopRequest(slot) {
  const job = state[slot];
  if (!job) return;
  clearTimeout(job.delay);
  clearInterval(job.timer);
  job.controller.abort();
  setRequest(slot, null);
}
