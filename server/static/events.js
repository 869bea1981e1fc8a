// The page's events: a feature says what happened or what the reader asked for ("go to card
// 12", "a search answered"), and the controller (viewer.js) decides what follows.  So no
// feature calls another, and no module imports one that imports it back.
const listeners = new Map();

export function on(name, listener) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(listener);
}

// every listener called at once, in the order they were added; the promise: all of them
// done (a listener may be async, as stepping to a card is)
export function emit(name, ...args) {
  const called = listeners.get(name);
  // an event no one listens to is a mistake in the wiring, not something to pass over
  if (!called) throw new Error("no listener for the page's event " + name);
  return Promise.all(called.map((listener) => listener(...args)));
}
