/**
 * The DevTools-console human channel: a confirm hook's question printed in
 * the console of the session's active tab, answered by a person who types
 * `__browx.confirm(true)` (allow) or `__browx.confirm(false)` (refuse) with
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
 * Available when the asking session's browser is shown to a person: the
 * server runs `--headful`, or the operator set `BROWX_DEVTOOLS_CONFIRM=1`
 * (a headless browser someone inspects through chrome://inspect). The
 * session must be open already (it is looked up, never created); when it
 * has no tab yet, one is opened to ask in.
 *
 * While waiting, a tab whose main frame commits a new document (a reload, a
 * page script moving it) gets the world made again in the new document and
 * the question printed again; the answer still counts once. A tab that
 * closes or crashes, or a browser that goes away, fails the ask (the gate
 * refuses the action). Questions about one tab are asked one at a time.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import type { ConfirmRequest, ServerConfig } from "../context.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { SessionManager } from "../sessions/session_manager.ts";
import { type HumanChannel, questionText } from "./channel.ts";

/** Name of the isolated world (the console's execution context) a person answers in. */
export const DEVTOOLS_WORLD = "browxai";

/** What the console tells the person, after the question. */
export const DEVTOOLS_HOW_TO =
  `To answer, open DevTools on this tab, pick the "${DEVTOOLS_WORLD}" context in the ` +
  `Console's context drop-down (it shows "top" by default), then type ` +
  `__browx.confirm(true) to allow or __browx.confirm(false) to refuse.`;

/** Budget of each CDP command the channel sends, ms. */
const SEND_TIMEOUT_MS = 5000;

/**
 * Runs in the "browxai" world (sent as source: captures nothing): defines
 * `__browx` over the binding and prints the question with `console.warn`.
 */
function defineBrowx(binding: string, question: string, howTo: string): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const send = g[binding] as (payload: string) => void;
  g.__browx = {
    question,
    confirm(yes: unknown): string {
      if (yes !== true && yes !== false) {
        return "browxai: answer with __browx.confirm(true) or __browx.confirm(false)";
      }
      send(String(yes));
      return yes ? "browxai: allowed" : "browxai: refused";
    },
  };
  console.warn(`${question}\n${howTo}`);
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
 *   on `__browx.confirm(true)`, false on `__browx.confirm(false)`; rejects
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
    available: (request) => shown && find(request) !== undefined,
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
          arguments: [{ value: binding }, { value: question }, { value: DEVTOOLS_HOW_TO }],
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

  cleanups.push(cdp.on("Runtime.bindingCalled", (e: Protocol.Runtime.BindingCalledEvent) => {
    if (e.name !== binding || world === undefined || e.executionContextId !== world) return;
    if (e.payload === "true") settle.resolve(true);
    else if (e.payload === "false") settle.resolve(false);
  }));
  cleanups.push(page.onEvent((method, params, from) => {
    if (from !== cdp) return;
    if (method === "Page.frameNavigated") {
      const { frame } = params as Protocol.Page.FrameNavigatedEvent;
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
