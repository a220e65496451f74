// The live socket: connects to /console/live (the cookie authenticates it), reconnects after
// a drop, and hands every message to `onMessage`. `send` returns false while disconnected.

const listeners = new Set();

/**
 * Calls `fn(message)` for every message the server sends (panels waiting for a reply use it).
 * Returns a function that removes it.
 */
export function onMessage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Opens the socket; `onStatus(status)` gets "connecting" | "open" | "closed". */
export function connect({ onMessage, onStatus }) {
  let ws;
  let stopped = false;
  let delay = 250;
  const queue = [];
  const open = () => {
    onStatus("connecting");
    ws = new WebSocket(
      `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/console/live`,
    );
    ws.onopen = () => {
      delay = 250;
      onStatus("open");
      for (const m of queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      onMessage(m);
      for (const l of listeners) {
        try {
          l(m);
        } catch (err) {
          console.error(err);
        }
      }
    };
    ws.onclose = () => {
      onStatus("closed");
      if (stopped) return;
      setTimeout(open, delay);
      delay = Math.min(5000, delay * 2);
    };
  };
  open();
  return {
    send(message) {
      const text = JSON.stringify(message);
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(text);
        return true;
      }
      // The latest watch is what matters after a reconnect; other messages wait too.
      if (queue.length < 50) queue.push(text);
      return false;
    },
    close() {
      stopped = true;
      ws?.close();
    },
  };
}
