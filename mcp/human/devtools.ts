/**
 * The DevTools-console human channel: a confirm hook's question printed in
 * the console of the session's active tab, answered by a person who types
 * `__browx.confirm("CODE")` (allow) or `__browx.confirm(false)` (refuse) with
 * the console's execution context set to "browxai".
 *
 * Only a person can answer. The answer travels through a CDP binding
 * (`Runtime.addBinding` with `executionContextName: "browxai"`): Chromium
 * installs it only in execution contexts named "browxai" — browxai's own
 * isolated world, made with `Page.createIsolatedWorld` — and never in the
 * page's own world. A call counts only when `Runtime.bindingCalled` names
 * the world this question made (its execution context id), so another world
 * that happens to carry the name cannot answer either. Page scripts share
 * the DOM with that world but none of its JavaScript objects: they see
 * neither `__browx` nor the binding (whose name is random per question).
 * What a person types in DevTools with the "browxai" context picked runs in
 * that world: that is the one way to `__browx.confirm`.
 *
 * The page cannot answer, but it owns the console the person reads: it can
 * `console.clear()` and print a question of its own ("attach cat.jpg …"),
 * and a worker it starts can even be named "browxai". So each question
 * carries a fresh random code ({@link questionCode}) shown only in the real
 * question, and only `__browx.confirm("<that code>")` is a yes (letter case,
 * spaces and dashes aside). `__browx.confirm(false)` refuses. Anything else —
 * `true`, a wrong code (one a forged question showed), any other value — is
 * not an answer: the reply says so, repeats the real question and its code,
 * and the question keeps waiting (a person fooled once reads the real
 * question then; refusing instead would let a page turn every question into
 * a no). `__browx.question` holds the real question at any time, for a
 * console the page cleared or filled.
 *
 * Available when the asking session's browser is shown to a person: the
 * server runs `--headful`, the session was opened with `headful: true`, or the
 * operator set `BROWX_DEVTOOLS_CONFIRM=1`
 * (a headless browser someone inspects through chrome://inspect: an attached
 * one, since a browser browxai starts has no DevTools port to inspect). The
 * session must be open already (it is looked up, never created); when it
 * has no tab yet, one is opened to ask in.
 *
 * While waiting, a tab whose main frame commits a new document (a reload, a
 * page script moving it) gets the world made again in the new document and
 * the question (same code) printed again; the answer still counts once. A
 * tab that closes or crashes, or a browser that goes away, fails the ask
 * (the gate refuses the action). Questions about one tab are asked one at a
 * time.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { ConfirmRequest } from "../../policy/confirm.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { type HumanChannel, questionText } from "./channel.ts";

/** Name of the isolated world (the console's execution context) a person answers in. */
export const DEVTOOLS_WORLD = "browxai";

/**
 * Characters of a question's code: capitals and digits a person cannot
 * mistake for one another (no 0/O/Q/D, 1/I/L/7, 2/Z, 5/S, 6/G, 8/B, U/V).
 */
export const CODE_ALPHABET = "ACEFHJKMNPRTWXY349";

/** Length of a question's code (18^5 ≈ 1.9 million codes). */
export const CODE_LENGTH = 5;

/**
 * A fresh random code for one question: {@link CODE_LENGTH} characters of
 * {@link CODE_ALPHABET}, from `crypto.getRandomValues` (unbiased: bytes past
 * the last whole multiple of the alphabet's size are drawn again).
 */
export function questionCode(): string {
  const n = CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(CODE_LENGTH * 2))) {
      if (byte < limit && code.length < CODE_LENGTH) code += CODE_ALPHABET[byte % n];
    }
  }
  return code;
}

/** What the console tells the person after the question whose code is `code`. */
export function devtoolsHowTo(code: string): string {
  return `To answer, open DevTools on this tab, pick the "${DEVTOOLS_WORLD}" context in the ` +
    `Console's context drop-down (it shows "top" by default), then type ` +
    `__browx.confirm("${code}") to allow or __browx.confirm(false) to refuse. ` +
    `The code ${code} is new for each question: if the console shows another code or ` +
    `was cleared, type __browx.question in the "${DEVTOOLS_WORLD}" context to read the question ` +
    `browxai is really asking.`;
}

/** Budget of each CDP command the channel sends, ms. */
const SEND_TIMEOUT_MS = 5000;

/**
 * Runs in the "browxai" world (sent as source: captures nothing): defines
 * `__browx` over the binding and prints the question with `console.warn`.
 * `confirm` sends `yes:<code>` for the code, `no` for `false`, and nothing
 * for anything else (the reply repeats the real question).
 */
function defineBrowx(binding: string, question: string, code: string, howTo: string): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const send = g[binding] as (payload: string) => void;
  const full = `${question}\n${howTo}`;
  g.__browx = {
    question: full,
    confirm(answer: unknown): string {
      if (answer === false) {
        send("no");
        return "browxai: refused";
      }
      if (typeof answer === "string" && answer.replace(/[\s-]/g, "").toUpperCase() === code) {
        send(`yes:${code}`);
        return "browxai: allowed";
      }
      const what = answer === true
        ? "__browx.confirm(true) is not a yes any more"
        : typeof answer === "string"
        ? `${JSON.stringify(answer)} is not the code of the question browxai is asking`
        : `${String(answer)} is not an answer`;
      return `browxai: ${what}: nothing was allowed and the question is still waiting. ` +
        `The question browxai is asking (a question elsewhere in the console with another code ` +
        `is not from browxai):\n${full}`;
    },
  };
  console.warn(full);
}

/** Runs in the "browxai" world when the question is over: `__browx` answers nothing any more. */
function retireBrowx(note: string): void {
  (globalThis as unknown as Record<string, unknown>).__browx = {
    confirm: () => "browxai: no question is waiting for an answer",
  };
  console.info(note);
}

/**
 * Creates the DevTools-console channel of one client.
 *
 * @param config `headful` or `devtoolsConfirm` makes it available at all.
 * @param sessions The client's sessions; `request.session` (default `default`)
 *   is looked up there, never created.
 * @returns A {@link HumanChannel} named `devtools`. Its `ask` resolves true
 *   on `__browx.confirm("<the question's code>")`, false on
 *   `__browx.confirm(false)`, and keeps waiting on anything else; rejects
 *   with the signal's reason when it aborts, and with an Error when the
 *   session is gone, the tab closes or crashes, or CDP fails.
 *   CDP: `Runtime.addBinding`, `Page.createIsolatedWorld`,
 *   `Runtime.callFunctionOn`, `Runtime.bindingCalled`, `Runtime.removeBinding`.
 */
export function devtoolsChannel(
  config: Pick<ServerConfig, "headful" | "devtoolsConfirm">,
  sessions: SessionManager,
): HumanChannel {
  const shown = config.headful || config.devtoolsConfirm === true;
  const find = (request: ConfirmRequest) => {
    const id = request.session ?? "default";
    return sessions.list().find((s) => s.id === id && !s.closed && !s.crashed);
  };
  return {
    name: "devtools",
    // A session opened headful (open_session({ headful: true })) is shown on its own.
    available: (request) => {
      const session = find(request);
      return session !== undefined && (shown || session.headful);
    },
    async ask(request, signal) {
      const session = find(request);
      if (!session) throw new Error(`session "${request.session ?? "default"}" is not open`);
      const page = session.activePage ?? await session.page();
      const text = questionText(request);
      return await oneAtATime(page, signal, () => askInTab(session, page, text, signal));
    },
  };
}

/** The last question of each tab, so the next one waits for it. */
const queues = new WeakMap<Page, Promise<unknown>>();

/** Runs `fn` once every earlier question of `page` is over; rejects early when `signal` aborts. */
async function oneAtATime<T>(page: Page, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(page);
  const run = (async () => {
    if (before) await untilAborted(before.catch(() => {}), signal);
    signal.throwIfAborted();
    return await fn();
  })();
  queues.set(page, run.catch(() => {}));
  return await run;
}

/** `p`, or a rejection with the signal's reason when it aborts first. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([p, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

/**
 * Asks one question in `page` (see the module doc) and waits for the answer.
 * Removes every listener it added and the binding, and retires `__browx`,
 * whatever the outcome.
 */
async function askInTab(
  session: BrowserSession,
  page: Page,
  question: string,
  signal: AbortSignal,
): Promise<boolean> {
  const cdp = page.session;
  // Private per question: nothing else can guess it, and a late call to an
  // older question's binding never reaches this one.
  const binding = `__browx_answer_${crypto.randomUUID().replaceAll("-", "")}`;
  // Shown only in the real question: a question the page forges cannot know it.
  const code = questionCode();
  const shown = `${question} (code ${code})`;
  let settle!: { resolve(yes: boolean): void; reject(error: unknown): void };
  const answer = new Promise<boolean>((resolve, reject) => settle = { resolve, reject });
  // Handled where it is awaited; this keeps an early failure from counting as unhandled.
  answer.catch(() => {});
  let world: number | undefined; // the world whose calls count
  let defined: number | undefined; // the last world where __browx was defined
  let generation = 0;
  let setup: Promise<void> = Promise.resolve();
  const cleanups: Array<() => void> = [];

  /** (Re)makes the world in the tab's current document and prints the question there. */
  const prepare = () => {
    const gen = ++generation;
    world = undefined;
    setup = setup.then(async () => {
      if (gen !== generation) return;
      try {
        const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
          frameId: page.mainFrameId,
          worldName: DEVTOOLS_WORLD,
        }, { timeoutMs: SEND_TIMEOUT_MS });
        if (gen !== generation) return;
        await cdp.send("Runtime.callFunctionOn", {
          functionDeclaration: defineBrowx.toString(),
          executionContextId,
          arguments: [
            { value: binding },
            { value: shown },
            { value: code },
            { value: devtoolsHowTo(code) },
          ],
        }, { timeoutMs: SEND_TIMEOUT_MS });
        defined = executionContextId;
        if (gen === generation) world = executionContextId;
      } catch (e) {
        if (gen !== generation) return;
        settle.reject(
          page.isClosed
            ? new Error("the tab closed")
            : new Error(`cannot print the question in the tab: ${(e as Error).message}`),
        );
      }
    });
  };

  cleanups.push(cdp.on("Runtime.bindingCalled", (e) => {
    if (e.name !== binding || world === undefined || e.executionContextId !== world) return;
    if (e.payload === `yes:${code}`) settle.resolve(true);
    else if (e.payload === "no") settle.resolve(false);
  }));
  cleanups.push(page.onEvent((method, params, from) => {
    if (from !== cdp) return;
    if (method === "Page.frameNavigated") {
      const { frame } = params;
      if (!frame.parentId && frame.id === page.mainFrameId) prepare();
    } else if (method === "Inspector.targetCrashed") {
      settle.reject(new Error("the tab crashed"));
    }
  }));
  cleanups.push(session.listen({
    tabClosed(p) {
      if (p === page) settle.reject(new Error("the tab closed"));
    },
  }));
  const connection = session.browser.connection;
  cleanups.push(connection.on("Target.detachedFromTarget", (e) => {
    if (e.sessionId === cdp.id) settle.reject(new Error("the tab closed"));
  }));
  connection.closed.then((reason) => settle.reject(new Error(`the browser went away: ${reason}`)));
  const onAbort = () => settle.reject(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  cleanups.push(() => signal.removeEventListener("abort", onAbort));
  if (signal.aborted) onAbort();
  if (page.isClosed) settle.reject(new Error("the tab closed"));

  let outcome = "the question is closed without an answer";
  try {
    const ready = (async () => {
      await cdp.send("Runtime.addBinding", {
        name: binding,
        executionContextName: DEVTOOLS_WORLD,
      }, { timeoutMs: SEND_TIMEOUT_MS });
      prepare();
      await setup;
    })();
    ready.catch(() => {});
    await Promise.race([ready, answer]);
    const yes = await answer;
    outcome = `the question is answered: ${yes ? "allowed" : "refused"}`;
    return yes;
  } finally {
    for (const remove of cleanups) remove();
    // In-flight set-up must not define __browx again after the question is over.
    generation++;
    await setup;
    await cdp.send("Runtime.removeBinding", { name: binding }, { timeoutMs: SEND_TIMEOUT_MS })
      .catch(() => {});
    if (defined !== undefined) {
      await cdp.send("Runtime.callFunctionOn", {
        functionDeclaration: retireBrowx.toString(),
        executionContextId: defined,
        arguments: [{ value: `browxai: ${outcome}` }],
      }, { timeoutMs: SEND_TIMEOUT_MS }).catch(() => {});
    }
  }
}
