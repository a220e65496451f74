/**
 * Permission prompts a grant would skip, put back. An agent's grant of camera, microphone,
 * geolocation or clipboard (grant_permissions) is recorded, not given to the browser: every
 * page, popup and out-of-process iframe of the session gets a fixed script in its main world,
 * before its first script, that wraps the main entry points —
 * `navigator.geolocation.getCurrentPosition` / `watchPosition`,
 * `navigator.mediaDevices.getUserMedia`, `navigator.clipboard.read` / `readText` / `write` /
 * `writeText` (on their prototypes) — and asks browxai first. When a recorded grant covers the
 * asking document's origin (its security origin, as the browser announced the context),
 * browxai asks the human (the `page_permission` confirm hook: MCP elicitation or the DevTools
 * console), one question at a time; a yes gives that origin the grant in the browser, then
 * the call goes on. Otherwise the call goes on to the browser's own answer. Answers are
 * remembered per origin and permission until the grants change.
 *
 * The page owns its main world: it can reach the native functions another way (a fresh
 * iframe's prototypes, `webkitGetUserMedia`) or answer its own questions, but then meets the
 * browser without the grant (no human yes, no grant). What it can do is make browxai ask:
 * questions beyond {@link MAX_IN_FLIGHT} at once per target are answered no (beyond that,
 * dropped), calls of one window waiting for the same answer share one question, and human
 * questions beyond
 * {@link MAX_WAITING} waiting are a no. Documents already open when the first grant is made
 * get the wrappers in their main frame only; a popup's first document gets them when its
 * context is announced, which its own first inline script may beat.
 *
 * CDP: `Runtime.addBinding` and `Runtime.bindingCalled` (the question),
 * `Page.addScriptToEvaluateOnNewDocument` with `runImmediately` (the wrappers),
 * `Runtime.executionContextCreated` (each context's origin), `Runtime.evaluate` (the answer).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { ConfirmOutcome, ConfirmRequest } from "../../policy/confirm.ts";
import { promptScript } from "./permission_script.ts";
import { MAX_REFUSALS, type PermissionRefusal } from "./permission_refusal.ts";

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

/** How a session's grants reach the browser. */
export interface BrowserGrants {
  /** Sets one origin's permission names (`""`: every origin), replacing its earlier set. */
  grant(origin: string, names: string[]): Promise<void>;
  /** Clears every grant of the session's browser context. */
  reset(): Promise<void>;
}

/** Entry points the wrappers name; anything else a page sends is recorded as `page`. */
const APIS = new Set([
  "getCurrentPosition",
  "watchPosition",
  "getUserMedia",
  "read",
  "readText",
  "write",
  "writeText",
]);

/** Questions one target's documents have in flight; more are answered no (a page flooding). */
const MAX_IN_FLIGHT = 16;
/** Refusals of the excess in flight per target; past this, excess questions are dropped. */
const MAX_REFUSING = 16;
/** Human questions waiting behind the one being asked; more are answered no. */
const MAX_WAITING = 4;

/** An http(s) origin, or undefined for an opaque or other one. */
function webOrigin(origin: string): string | undefined {
  const o = URL.parse(origin)?.origin;
  return o && /^https?:\/\//.test(o) ? o : undefined;
}

/**
 * A session's permission prompts: the grants an agent asked for, the wrappers on its
 * targets, and the human's answers.
 *
 * Camera, microphone, geolocation and clipboard grants are recorded, not given to the
 * browser: an origin gets them from the browser only once the human said yes to a page of
 * that origin using them. A page that goes around the wrappers (another window's prototypes,
 * answering its own question) meets the browser's own default, not an agent's grant.
 * Other names (with `human-gate-override`) are given to the browser at once.
 */
export class PermissionPrompts {
  readonly #binding = randomName("__browxPermission_");
  readonly #key = randomName("__browxAnswer_");
  /** Origin (`""`: every origin) → permission names granted by the agent. */
  #grants: Record<string, string[]> = {};
  /** Targets carrying the wrappers. */
  #installed = new WeakSet<CdpSession>();
  /** `origin permission` → the human's answer, or the question in flight. */
  #answers = new Map<string, Promise<boolean>>();
  /** `origin` → prompted names the human allowed there (given to the browser). */
  #allowed = new Map<string, Set<string>>();
  /** `sessionId:contextId` → the context's security origin, as the browser announced it. */
  #origins = new Map<string, string>();
  /** Questions in flight, and refusals of the excess in flight, per target. */
  #inFlight = new WeakMap<CdpSession, { asking: number; refusing: number }>();
  #waiting = 0;
  /** Bumped by every grant change: answers to earlier questions no longer count. */
  #generation = 0;
  /** The browser grant commands, one after another (a yes's grant never lands mid-reset). */
  #ops: Promise<unknown> = Promise.resolve();
  /** The human question being asked (questions go one at a time). */
  #asking: Promise<unknown> = Promise.resolve();
  #asker: PermissionAsker | undefined;
  #browser: BrowserGrants | undefined;
  #session = "";
  /** `origin permission` → why the human's question was answered no (the gate's words). */
  #whyNo = new Map<string, string>();
  /** The last refusals of a granted permission a page asked to use (newest last). */
  #refused: PermissionRefusal[] = [];
  #refusedSeq = 0;

  /** How many refusals of a granted permission there were so far (see {@link refusedSince}). */
  get refusedSeq(): number {
    return this.#refusedSeq;
  }

  /**
   * The refusals after `seq` (a {@link refusedSeq} read earlier): pages that asked to use a
   * permission an agent granted and were answered no (the human said no, or could not be asked).
   * The last {@link MAX_REFUSALS} are kept.
   */
  refusedSince(seq: number): PermissionRefusal[] {
    return this.#refused.filter((r) => r.seq > seq);
  }

  /** True once some grant of a {@link PROMPTED} permission was made: targets get the wrappers. */
  armed = false;

  /** A copy of the grants. */
  get grants(): Record<string, string[]> {
    return Object.fromEntries(Object.entries(this.#grants).map(([o, p]) => [o, [...p]]));
  }

  /**
   * Records a grant for `origin` (`""`: every origin), replacing that origin's earlier set;
   * `permissions` empty clears every origin's grants. Forgets the human's earlier answers (a
   * question still open is answered no). `asker` asks the human from now on (the granting
   * client's confirm gate) about the session named `session`. Then brings the browser in line:
   * every grant it holds is reset, and each origin gets its names that need no prompt (with the
   * every-origin ones, since an origin's own set replaces those in the browser).
   *
   * @throws what `browser` throws (CDP errors).
   */
  async setGrants(
    origin: string,
    permissions: string[],
    asker: PermissionAsker,
    session: string,
    browser: BrowserGrants,
  ): Promise<void> {
    if (permissions.length === 0) this.#grants = {};
    else this.#grants[origin] = [...permissions];
    this.#generation++;
    this.#answers.clear();
    this.#allowed.clear();
    this.#whyNo.clear();
    this.#asker = asker;
    this.#browser = browser;
    this.#session = session;
    if (permissions.some((p) => PROMPTED.includes(p))) this.armed = true;
    // Yeses given earlier put grants in the browser that no longer hold: start from none.
    await this.#serial(async () => {
      await browser.reset();
      for (const o of Object.keys(this.#grants)) {
        const set = this.#browserSet(o);
        // An empty every-origin set is no set: sending it would deny everything everywhere.
        if (o !== "" || set.length) await browser.grant(o, set);
      }
    });
  }

  /** Runs a browser grant command after the ones before it. */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#ops.catch(() => {}).then(op);
    this.#ops = run;
    return run;
  }

  /** What the browser should hold for `origin`: unprompted grants, and what the human allowed. */
  #browserSet(origin: string): string[] {
    const names = new Set<string>();
    for (const o of origin === "" ? [""] : [origin, ""]) {
      for (const n of this.#grants[o] ?? []) if (!PROMPTED.includes(n)) names.add(n);
    }
    for (const n of this.#allowed.get(origin) ?? []) names.add(n);
    return [...names];
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
      if (e.name !== this.#binding) return;
      // A page calling the binding in a loop must not stall the server: the excess is
      // answered no, and past that dropped.
      let n = this.#inFlight.get(session);
      if (!n) this.#inFlight.set(session, n = { asking: 0, refusing: 0 });
      const count = n;
      if (count.asking < MAX_IN_FLIGHT) {
        count.asking++;
        void this.#answer(session, e.executionContextId, e.payload)
          .finally(() => count.asking--);
      } else if (count.refusing < MAX_REFUSING) {
        count.refusing++;
        void this.#answer(session, e.executionContextId, e.payload, true)
          .finally(() => count.refusing--);
      }
    });
    // A popup's first document can miss both the binding and the new-document script sent while
    // its target waited for the debugger (measured: window.open of a same-origin page). Every
    // new page-world context gets them again (the script installs once per window).
    session.on("Runtime.executionContextCreated", (e) => {
      const key = `${session.id}:${e.context.id}`;
      if (this.#origins.size > 10_000) this.#origins.clear();
      this.#origins.set(key, e.context.origin);
      const aux = e.context.auxData as { isDefault?: boolean } | undefined;
      if (!aux?.isDefault) return;
      const contextId = e.context.id;
      void session.send("Runtime.addBinding", { name: this.#binding })
        .then(() => session.send("Runtime.evaluate", { expression: source, contextId }))
        .catch(() => {});
    });
    session.on("Runtime.executionContextDestroyed", (e) => {
      this.#origins.delete(`${session.id}:${e.executionContextId}`);
    });
    session.on("Runtime.executionContextsCleared", () => {
      for (const k of this.#origins.keys()) {
        if (k.startsWith(`${session.id}:`)) this.#origins.delete(k);
      }
    });
    const sent = [
      session.send("Runtime.addBinding", { name: this.#binding }),
      session.send("Page.addScriptToEvaluateOnNewDocument", { source, runImmediately: true }),
      ...(now ? [session.send("Runtime.evaluate", { expression: source })] : []),
    ];
    return Promise.all(sent.map((p) => p.catch(() => {})));
  }

  /** Decides one question (`refuse`: no, unasked) and hands the answer to the asking document. */
  async #answer(
    session: CdpSession,
    contextId: number,
    payload: string,
    refuse = false,
  ): Promise<void> {
    let q: Question;
    try {
      q = JSON.parse(payload) as Question;
    } catch {
      return;
    }
    if (!Number.isSafeInteger(q?.id) || !Array.isArray(q.kinds)) return;
    let allowed = false;
    const generation = this.#generation;
    try {
      if (refuse) throw new Error("too many questions");
      const kinds = [...new Set(q.kinds)];
      const known = kinds.length > 0 && kinds.every((k) => PROMPTED.includes(k));
      const origin = known ? await this.#originOf(session, contextId) : undefined;
      if (known && origin) {
        const api = APIS.has(q.api) ? q.api : "page";
        const answers = kinds.map((k) =>
          this.#granted(origin, k) ? this.#ask(origin, k, api) : Promise.resolve(true)
        );
        const each = await Promise.all(answers);
        allowed = each.every(Boolean);
        const no = kinds.filter((_, i) => !each[i]);
        if (no.length) {
          this.#noteRefusal({
            api,
            kinds: no,
            origin,
            why: this.#whyNo.get(`${origin} ${no[0]}`) ?? "the human's answer was no",
          });
        }
      } else if (known) {
        // An opaque origin (about:blank, srcdoc, sandboxed) is never asked about, nor granted:
        // the browser answers from what its parent was given.
        allowed = true;
      }
    } catch {
      allowed = false;
    }
    // The grants changed meanwhile: the answer was to a question that no longer stands.
    if (generation !== this.#generation) allowed = false;
    await session.send("Runtime.evaluate", {
      expression: `globalThis[${JSON.stringify(this.#key)}]?.(${q.id}, ${allowed})`,
      contextId,
    }).catch(() => {});
  }

  #noteRefusal(r: Omit<PermissionRefusal, "seq">): void {
    this.#refused.push({ seq: ++this.#refusedSeq, ...r });
    if (this.#refused.length > MAX_REFUSALS) this.#refused.shift();
  }

  /** The http(s) security origin of a context; undefined for an opaque one. */
  async #originOf(session: CdpSession, contextId: number): Promise<string | undefined> {
    const known = this.#origins.get(`${session.id}:${contextId}`);
    if (known !== undefined) return webOrigin(known);
    const o = await session.send("Runtime.evaluate", {
      expression: "location.origin",
      contextId,
      returnByValue: true,
    });
    return webOrigin(String(o.result.value));
  }

  #granted(origin: string, kind: string): boolean {
    return !!(this.#grants[origin]?.includes(kind) || this.#grants[""]?.includes(kind));
  }

  /**
   * The human's answer for `origin` using `kind`, asked once (and remembered), one question
   * at a time; a yes gives the browser the grant for that origin before the page goes on.
   */
  #ask(origin: string, kind: string, api: string): Promise<boolean> {
    const key = `${origin} ${kind}`;
    let answer = this.#answers.get(key);
    if (answer) return answer;
    const asker = this.#asker;
    if (!asker || this.#waiting >= MAX_WAITING) return Promise.resolve(false);
    this.#waiting++;
    const turn = this.#asking;
    const generation = this.#generation;
    answer = (async () => {
      await turn.catch(() => {});
      this.#waiting--;
      // The grants changed while this question waited: it is not asked.
      if (generation !== this.#generation) return false;
      const yes = await asker({
        hook: "page_permission",
        tool: api,
        session: this.#session,
        origin,
        summary: `the page wants ${kind}, which grant_permissions granted without asking you`,
      }).then(() => true, (e) => {
        // The gate's refusal and its hint (how a person could be asked).
        const hint = (e as { hint?: unknown })?.hint;
        const why = e instanceof Error ? e.message : String(e);
        this.#whyNo.set(key, typeof hint === "string" && hint ? `${why}. Next: ${hint}` : why);
        return false;
      });
      // A yes that comes after the grants changed gives nothing.
      if (!yes || generation !== this.#generation) return false;
      return await this.#serial(async () => {
        if (generation !== this.#generation) return false;
        let set = this.#allowed.get(origin);
        if (!set) this.#allowed.set(origin, set = new Set());
        set.add(kind);
        await this.#browser?.grant(origin, this.#browserSet(origin));
        return true;
      });
    })().catch(() => false);
    this.#asking = answer;
    this.#answers.set(key, answer);
    return answer;
  }
}
