// The /ws client: one socket per tab, reconnects with backoff and tells the shell when it is down.
const listeners = new Set();
const stateListeners = new Set();
let socket = null;
let state = 'connecting';
let attempt = 0;
let timer = null;

function setState(s) {
  state = s;
  for (const fn of stateListeners) fn(s);
}

function connect() {
  clearTimeout(timer);
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  try {
    socket = new WebSocket(url);
  } catch {
    return retry();
  }
  socket.onopen = () => {
    attempt = 0;
    setState('open');
  };
  socket.onmessage = (m) => {
    let ev;
    try {
      ev = JSON.parse(m.data);
    } catch {
      return;
    }
    for (const fn of listeners) fn(ev);
  };
  socket.onclose = () => retry();
}

function retry() {
  socket = null;
  setState('reconnecting');
  attempt += 1;
  // 1 s, 2 s, 4 s ... up to 15 s, so a restarted server is picked up quickly without hammering it
  timer = setTimeout(connect, Math.min(15000, 1000 * 2 ** Math.min(attempt - 1, 4)));
}

/** starts the socket (the shell does, once the user is known) */
export function startLive() {
  if (!socket && !timer) connect();
}

/** every event from /ws: fn({type, ...payload}); returns an unsubscribe function */
export function onEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** 'connecting' | 'open' | 'reconnecting'; fn is called now and on every change */
export function onLiveState(fn) {
  stateListeners.add(fn);
  fn(state);
  return () => stateListeners.delete(fn);
}

/** for tests: drop the socket as a network failure would */
export function dropLive() {
  socket?.close();
}
