/**
 * One clipboard per Chromium, not per browser context: clients that share a Chromium
 * (`BrowserSession.sharedWithClients`) would read each other's copies (red team s11, http2:
 * client A copied a field with Ctrl+C, client B pasted it with Ctrl+V on its own page). So
 * the clipboard is a client's only while that client acts: when a step of another client
 * starts on the browser, the clipboard is emptied first; a paste shortcut checks again right
 * before it goes (another client's step may have run meanwhile, in another session).
 *
 * Two buffers are emptied (measured on Chromium 156, headless, Linux): the clipboard that
 * Ctrl+V and `navigator.clipboard.readText()` (a page granted clipboard-read) read, and the
 * selection that a middle click pastes, which a person-like selection writes (Ctrl+A, a
 * double click; a script's selection does not). Both from a blank page of browxai's own, in a
 * browser context of its own (no page sees or stops its events, and the other pages keep
 * their focus): `document.execCommand("copy")` with a user gesture and a `copy` listener that
 * sets empty text; then Ctrl+A in a field holding one space (the selection buffer is only
 * written by a selection that is not empty).
 *
 * What stays: a client's copy does not survive another client's step in between (the copy
 * is gone, not handed over); two clients' steps that run at the same moment can still meet
 * in the clipboard between the check and the key (the next step of either clears it again).
 *
 * Then a middle click and Ctrl+V into a box of that page must paste exactly the one space:
 * that proves both emptied, and, this page reading after its own writes, done before any
 * other page reads (measured: a middle click in another tab a moment after the Ctrl+A still
 * pasted the old selection).
 *
 * CDP: `Target.createBrowserContext`, `Target.createTarget`, `Runtime.evaluate`, `Input.dispatchKeyEvent`, `Input.dispatchMouseEvent`.
 *
 * @module
 */
import type { Browser } from "../../cdp/browser.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import { Keyboard } from "../../cdp/input.ts";
import { ToolError } from "../tool_error.ts";
import { currentCallScope } from "./call_scope.ts";

/** Where the check's box is on browxai's page, CSS px. */
const BOX = { top: 40, width: 200, height: 40 };

/**
 * Empties the clipboard (a copy whose data is empty text), then focuses the field whose one
 * space Ctrl+A selects next, its caret collapsed first (selecting what is selected already is
 * no change, and writes nothing); empties the check's box. The page is browxai's own.
 */
const CLEAR_EXPRESSION = `(() => {
  let field = document.getElementById("j"), box = document.getElementById("k");
  if (!field) {
    document.body.innerHTML = '<input id=j value=" "><textarea id=k ' +
      'style="position:fixed;left:0;top:${BOX.top}px;width:${BOX.width}px;height:${BOX.height}px"></textarea>';
    field = document.getElementById("j");
    box = document.getElementById("k");
  }
  const empty = (e) => { e.clipboardData.setData("text/plain", ""); e.preventDefault(); };
  document.addEventListener("copy", empty, true);
  let copied;
  try { copied = document.execCommand("copy"); }
  finally { document.removeEventListener("copy", empty, true); }
  box.value = "";
  field.focus();
  field.setSelectionRange(0, 0);
  return copied;
})()`;

/** Longest wait for the blank page and each step of a clear, ms. */
const CLEAR_TIMEOUT_MS = 10_000;

/** Who used a browser's clipboard last, and the page that empties it. */
class ClipboardOwner {
  #browser: Browser;
  /**
   * The client of the last step (a token: the client's session manager); undefined before
   * any (nothing copied yet), null when a clear failed (whatever is in it is nobody's known).
   */
  #client: object | null | undefined;
  #page: Promise<CdpSession> | undefined;
  /** Clears run one after another (two claims at once do not interleave their copies). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(browser: Browser) {
    this.#browser = browser;
  }

  /** Empties the clipboard when `client` is not the one that used it last. */
  claim(client: object, signal?: AbortSignal): Promise<void> {
    const last = this.#client;
    this.#client = client;
    if (last === client || last === undefined) return Promise.resolve();
    const run = this.#queue.then(() => this.#clear(signal));
    this.#queue = run.catch(() => {});
    return run.catch((e) => {
      // Not emptied: the next step of any client tries again.
      this.#client = null;
      throw new ToolError(
        "browser-unavailable",
        `Cannot empty the browser's clipboard, which other clients of this Chromium may have ` +
          `written: ${(e as Error).message}`,
        "call the tool again",
      );
    });
  }

  async #clear(signal?: AbortSignal): Promise<void> {
    const page = await this.#blankPage();
    const options = { timeoutMs: CLEAR_TIMEOUT_MS, signal };
    const run = async (expression: string, userGesture = false) =>
      (await page.send(
        "Runtime.evaluate",
        { expression, userGesture, returnByValue: true },
        options,
      ))
        .result.value;
    if (await run(CLEAR_EXPRESSION, true) !== true) throw new Error("the copy command did not run");
    // The selection buffer (a middle click's paste): one space, selected as a person would.
    const keyboard = new Keyboard(page);
    await keyboard.press("Control+a", { signal });
    // The check: a middle click and Ctrl+V into the box paste both buffers. Read by this page
    // after its own writes (in order), it also makes sure they are done before another page
    // reads (the selection's write is sent after Ctrl+A, and lands a moment later).
    const at = { x: 20, y: BOX.top + BOX.height / 2 };
    for (const type of ["mousePressed", "mouseReleased"] as const) {
      await page.send("Input.dispatchMouseEvent", {
        type,
        ...at,
        button: "middle",
        clickCount: 1,
      }, options);
    }
    await keyboard.press("Control+v", { signal });
    const pasted = await run(`document.getElementById("k").value`);
    if (pasted !== " ") throw new Error("the clipboard still held something after it was emptied");
  }

  /** browxai's blank page, in a context of its own: made on first need, again if it went. */
  async #blankPage(): Promise<CdpSession> {
    const known = this.#page;
    if (known) {
      const session = await known.catch(() => undefined);
      if (session && !session.detached) return session;
      if (this.#page === known) this.#page = undefined;
    }
    const made = this.#page ??= (async () => {
      const context = await this.#browser.createContext();
      return (await this.#browser.newPage(context)).session;
    })();
    made.catch(() => {
      if (this.#page === made) this.#page = undefined;
    });
    return await made;
  }
}

const owners = new WeakMap<Browser, ClipboardOwner>();

/** What {@link claimForCall} needs of a session. */
export interface ClipboardUser {
  readonly browser: Browser;
  /** Its Chromium serves other clients too: only then is there anything to keep apart. */
  readonly sharedWithClients: boolean;
}

/**
 * Makes the session's browser's clipboard the calling client's (`CallScope.client`): emptied
 * first when another client (or a failed clear) used it last. Nothing for a session whose
 * Chromium is its client's alone, or outside a tool call. Steps do it through
 * {@link clipboardStep}; a paste shortcut again right before it goes.
 *
 * @throws ToolError `browser-unavailable` when it could not be emptied.
 */
export async function claimForCall(session: ClipboardUser): Promise<void> {
  const scope = currentCallScope();
  if (!session.sharedWithClients || !scope?.client) return;
  let owner = owners.get(session.browser);
  if (!owner) owners.set(session.browser, owner = new ClipboardOwner(session.browser));
  await owner.claim(scope.client, scope.signal);
}

/** `fn` as a step that claims the clipboard first ({@link claimForCall}). */
export function clipboardStep<T>(session: ClipboardUser, fn: () => Promise<T>): () => Promise<T> {
  return async () => {
    await claimForCall(session);
    return await fn();
  };
}
