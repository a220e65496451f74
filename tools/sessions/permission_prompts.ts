/**
 * Permission prompts a grant would skip, put back: once an agent granted camera, microphone,
 * geolocation or clipboard access (grant_permissions), the browser answers a page's request
 * from that grant without asking anyone. So every page, popup and out-of-process iframe of
 * the session gets a fixed script in its main world, before its first script, that wraps the
 * main entry points — `navigator.geolocation.getCurrentPosition` / `watchPosition`,
 * `navigator.mediaDevices.getUserMedia`, `navigator.clipboard.read` / `readText` / `write` /
 * `writeText` (on their prototypes) — and asks browxai first. browxai asks the human (the
 * `page_permission` confirm hook: MCP elicitation or the DevTools console) only when a grant
 * covers the page's origin; otherwise the call goes on natively (the browser's own answer).
 * A yes or no is remembered per origin and permission until the grants change.
 *
 * Limits: the page owns its main world. A page can reach the native functions another way
 * (a fresh iframe's prototypes, the legacy `webkitGetUserMedia`), answer its own pending
 * questions, or call the binding to make browxai ask; the wrappers stop an agent's grant from
 * silently skipping the human, not a hostile page. Documents already open when the first
 * grant is made get the wrappers in their main frame only; a popup's first document gets them
 * when its context is announced, which its own first inline script may beat.
 *
 * CDP: `Runtime.addBinding` and `Runtime.bindingCalled` (the question),
 * `Page.addScriptToEvaluateOnNewDocument` with `runImmediately` (the wrappers),
 * `Runtime.evaluate` (the asking document's `location.origin`, the answer).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { ConfirmOutcome, ConfirmRequest } from "../context.ts";

/** Permissions whose page-side entry points are wrapped (a grant of them still asks the human). */
export const PROMPTED = [
  "geolocation",
  "camera",
  "microphone",
  "clipboard-read",
  "clipboard-write",
];

/** Asks the human; rejects (a ToolError) for a no, a timeout or no channel. */
export type PermissionAsker = (request: ConfirmRequest) => Promise<ConfirmOutcome>;

/** What a page's wrapper sends through the binding. */
interface Question {
  id: number;
  api: string;
  kinds: string[];
}

function randomName(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return prefix + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

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
  const ask = (api, kinds) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    try { bind(JSON.stringify({ id, api, kinds })); } catch { pending.delete(id); resolve(false); }
  });
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

/** A session's permission prompts: its grants, the wrappers on its targets, the answers. */
export class PermissionPrompts {
  readonly #binding = randomName("__browxPermission_");
  readonly #key = randomName("__browxAnswer_");
  /** Origin (`""`: every origin) → granted permission names, as grant_permissions set them. */
  #grants: Record<string, string[]> = {};
  /** Targets carrying the wrappers. */
  #installed = new WeakSet<CdpSession>();
  /** `origin permission` → the human's answer, or the question in flight. */
  #answers = new Map<string, Promise<boolean>>();
  #asker: PermissionAsker | undefined;
  #session = "";

  /** True once some grant of a {@link PROMPTED} permission was made: targets get the wrappers. */
  armed = false;

  /** A copy of the grants. */
  get grants(): Record<string, string[]> {
    return Object.fromEntries(Object.entries(this.#grants).map(([o, p]) => [o, [...p]]));
  }

  /**
   * Records a grant for `origin` (`""`: every origin), replacing that origin's earlier set;
   * `permissions` empty clears every origin's grants. Forgets the human's earlier answers.
   * `asker` is who asks the human from now on (the granting client's confirm gate) about the
   * session named `session`.
   */
  setGrants(origin: string, permissions: string[], asker: PermissionAsker, session: string): void {
    if (permissions.length === 0) this.#grants = {};
    else this.#grants[origin] = [...permissions];
    this.#answers.clear();
    this.#asker = asker;
    this.#session = session;
    if (permissions.some((p) => PROMPTED.includes(p))) this.armed = true;
  }

  /**
   * Puts the wrappers on a target: the binding and the script for every new document, and,
   * with `now`, the script in the current main-frame document too. Once per target.
   * Synchronous sends, so a target waiting for the debugger gets them before it resumes.
   */
  install(session: CdpSession, now: boolean): Promise<unknown> {
    if (this.#installed.has(session)) return Promise.resolve();
    this.#installed.add(session);
    const source = promptScript(this.#binding, this.#key);
    session.on("Runtime.bindingCalled", (e) => {
      if (e.name === this.#binding) void this.#answer(session, e.executionContextId, e.payload);
    });
    // A popup's first document can miss both the binding and the new-document script sent while
    // its target waited for the debugger (measured: window.open of a same-origin page). Every
    // new page-world context gets them again (the script installs once per window).
    session.on("Runtime.executionContextCreated", (e) => {
      const aux = e.context.auxData as { isDefault?: boolean } | undefined;
      if (!aux?.isDefault) return;
      const contextId = e.context.id;
      void session.send("Runtime.addBinding", { name: this.#binding })
        .then(() => session.send("Runtime.evaluate", { expression: source, contextId }))
        .catch(() => {});
    });
    const sent = [
      session.send("Runtime.addBinding", { name: this.#binding }),
      session.send("Page.addScriptToEvaluateOnNewDocument", { source, runImmediately: true }),
      ...(now ? [session.send("Runtime.evaluate", { expression: source })] : []),
    ];
    return Promise.all(sent.map((p) => p.catch(() => {})));
  }

  /** Decides one question and hands the answer to the asking document. */
  async #answer(session: CdpSession, contextId: number, payload: string): Promise<void> {
    let q: Question;
    try {
      q = JSON.parse(payload) as Question;
      if (!Number.isInteger(q.id) || !Array.isArray(q.kinds)) return;
    } catch {
      return;
    }
    let allowed = false;
    try {
      const o = await session.send("Runtime.evaluate", {
        expression: "location.origin",
        contextId,
        returnByValue: true,
      });
      const origin = String(o.result.value);
      const kinds = q.kinds.filter((k) => PROMPTED.includes(k));
      const answers = kinds.filter((k) => this.#granted(origin, k))
        .map((k) => this.#ask(origin, k, String(q.api).slice(0, 40)));
      allowed = (await Promise.all(answers)).every(Boolean) && kinds.length === q.kinds.length;
    } catch {
      allowed = false;
    }
    await session.send("Runtime.evaluate", {
      expression: `globalThis[${JSON.stringify(this.#key)}]?.(${q.id}, ${allowed})`,
      contextId,
    }).catch(() => {});
  }

  #granted(origin: string, kind: string): boolean {
    return !!(this.#grants[origin]?.includes(kind) || this.#grants[""]?.includes(kind));
  }

  /** The human's answer for `origin` using `kind`, asked once (and remembered). */
  #ask(origin: string, kind: string, api: string): Promise<boolean> {
    const key = `${origin} ${kind}`;
    let answer = this.#answers.get(key);
    if (!answer) {
      const asker = this.#asker;
      answer = asker
        ? asker({
          hook: "page_permission",
          tool: api,
          session: this.#session,
          origin,
          summary: `the page wants ${kind}, which grant_permissions granted without asking you`,
        }).then(() => true, () => false)
        : Promise.resolve(false);
      this.#answers.set(key, answer);
    }
    return answer;
  }
}
