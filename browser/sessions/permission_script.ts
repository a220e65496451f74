/**
 * The page-side half of the permission prompts (`permission_prompts.ts`): the fixed script
 * that wraps geolocation, media and clipboard entry points in a page's main world and asks
 * browxai through a binding before the browser answers.
 *
 * @module
 */

/**
 * The main-world script: wraps the entry points on their prototypes, each asking through
 * `binding` and waiting for `globalThis[key](id, allowed)`. A denial is what the API gives a
 * person's no: geolocation's error callback with code 1 (PERMISSION_DENIED), a rejected
 * promise with a `NotAllowedError` DOMException for media and clipboard.
 */
export function promptScript(binding: string, key: string): string {
  return `(() => {
  const KEY = ${JSON.stringify(key)};
  if (Object.prototype.hasOwnProperty.call(globalThis, KEY)) return;
  const bind = globalThis[${JSON.stringify(binding)}];
  if (typeof bind !== "function") return;
  const pending = new Map();
  let next = 1;
  Object.defineProperty(globalThis, KEY, {
    value: (id, allowed) => {
      const resolve = pending.get(id);
      if (resolve) { pending.delete(id); resolve(allowed === true); }
    },
  });
  // Calls waiting for the same answer share one question.
  const asking = new Map();
  const ask = (api, kinds) => {
    const key = kinds.join(" ");
    if (asking.has(key)) return asking.get(key);
    const answer = new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      try { bind(JSON.stringify({ id, api, kinds })); } catch { pending.delete(id); resolve(false); }
    });
    asking.set(key, answer);
    answer.then(() => asking.delete(key));
    return answer;
  };
  const notAllowed = () => new DOMException("Permission denied", "NotAllowedError");
  const G = globalThis.Geolocation && Geolocation.prototype;
  if (G && G.getCurrentPosition) {
    const getCurrent = G.getCurrentPosition, watch = G.watchPosition, clear = G.clearWatch;
    const denied = () => {
      const e = Object.create(GeolocationPositionError.prototype);
      Object.defineProperties(e, {
        code: { value: 1 }, message: { value: "User denied Geolocation" },
      });
      return e;
    };
    G.getCurrentPosition = function getCurrentPosition(ok, err, opts) {
      ask("getCurrentPosition", ["geolocation"]).then((yes) => {
        if (yes) getCurrent.call(this, ok, err, opts);
        else if (typeof err === "function") err(denied());
      });
    };
    const watches = new Map();
    let nextWatch = 1e6;
    G.watchPosition = function watchPosition(ok, err, opts) {
      const id = nextWatch++;
      watches.set(id, null);
      ask("watchPosition", ["geolocation"]).then((yes) => {
        if (!watches.has(id)) return;
        if (yes) watches.set(id, watch.call(this, ok, err, opts));
        else { watches.delete(id); if (typeof err === "function") err(denied()); }
      });
      return id;
    };
    G.clearWatch = function clearWatch(id) {
      if (!watches.has(id)) return clear.call(this, id);
      const real = watches.get(id);
      watches.delete(id);
      if (real !== null) clear.call(this, real);
    };
  }
  const M = globalThis.MediaDevices && MediaDevices.prototype;
  if (M && M.getUserMedia) {
    const gum = M.getUserMedia;
    M.getUserMedia = function getUserMedia(constraints) {
      const kinds = [];
      if (constraints && constraints.video) kinds.push("camera");
      if (constraints && constraints.audio) kinds.push("microphone");
      if (!kinds.length) return gum.call(this, constraints);
      return ask("getUserMedia", kinds)
        .then((yes) => yes ? gum.call(this, constraints) : Promise.reject(notAllowed()));
    };
  }
  const C = globalThis.Clipboard && Clipboard.prototype;
  if (C) {
    for (const [name, kind] of [["read", "clipboard-read"], ["readText", "clipboard-read"],
      ["write", "clipboard-write"], ["writeText", "clipboard-write"]]) {
      const native = C[name];
      if (typeof native !== "function") continue;
      C[name] = { [name](...args) {
        return ask(name, [kind])
          .then((yes) => yes ? native.apply(this, args) : Promise.reject(notAllowed()));
      } }[name];
    }
  }
})();`;
}
