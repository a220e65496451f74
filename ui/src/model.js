// Small pure helpers over the hub state.

/** The session `selected` ({ client, session }) names in `state.sessions`, or undefined. */
export function findSession(state, selected) {
  if (!selected || !state?.sessions) return undefined;
  const c = state.sessions.find((c) => c.label === selected.client);
  return c?.sessions.find((s) => s.id === selected.session);
}

/** The first session of any client, as a key, or null. */
export function firstSession(state) {
  for (const c of state?.sessions ?? []) {
    if (c.sessions.length) return { client: c.label, session: c.sessions[0].id };
  }
  return null;
}

/** True when two keys name the same session. */
export function sameKey(a, b) {
  return !!a && !!b && a.client === b.client && a.session === b.session;
}

/** "12 ms", "1.4 s". */
export function duration(ms) {
  if (typeof ms !== "number") return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "14:03:07" in local time. */
export function clock(time) {
  return new Date(time).toLocaleTimeString([], { hour12: false });
}

/** A URL without its scheme, for narrow places. */
export function shortUrl(url) {
  return (url ?? "").replace(/^https?:\/\//, "");
}
