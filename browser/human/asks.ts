/**
 * What the agent hands a person (seeds 003/004): `ask_human` tasks (credentials, CAPTCHAs,
 * 2FA, payment) and `highlight` outlines, kept on the session's {@link HumanState} for the web
 * console, and drawn in the page itself when its browser is shown. Both need someone who can
 * see the session: {@link requireAttended} answers `unattended` at once otherwise — never a
 * wait for nobody.
 *
 * @module
 */
import type { RemoteHandle } from "../injected/mod.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { HumanAsk, HumanHighlight } from "../sessions/human_state.ts";
import { ToolError } from "../tool_error.ts";
import { locateTarget, type TargetBox } from "./target_box.ts";

/** The most asks and highlights a session keeps (the oldest go first; pending asks stay). */
export const HUMAN_ITEMS_KEPT = 50;

/**
 * True when a person can see `session`: a console viewer watches it, its browser is shown
 * (`open_session({ headful: true })`), the whole server runs `--headful`, or the browser is one
 * someone else runs (attached: whoever runs it may be looking at it).
 */
export function isAttended(
  session: Pick<BrowserSession, "human" | "headful" | "mode">,
  serverHeadful: boolean,
): boolean {
  return session.human.viewers > 0 || session.headful || serverHeadful ||
    session.mode === "attached";
}

/**
 * Refuses at once when nobody can see `session` (see {@link isAttended}).
 *
 * @throws ToolError `unattended` (details `status: "unattended"`) with how to attend it.
 */
export function requireAttended(
  session: BrowserSession,
  serverHeadful: boolean,
  tool: string,
): void {
  if (isAttended(session, serverHeadful)) return;
  throw new ToolError(
    "unattended",
    `${tool}: session "${session.id}" is unattended: its browser is headless and nobody ` +
      "watches it in the web console, so no person would see this",
    "carry on without a person, or have the operator open the web console (browxai --console, " +
      "or the console page of --http) and watch this session, or open a session with " +
      "open_session({ headful: true }) whose window a person sees",
    { status: "unattended" },
  );
}

/** Asks are numbered across the process, so an id names one ask in the console. */
let nextAsk = 1;

/** Drops the oldest entries past {@link HUMAN_ITEMS_KEPT} (`keep`: entries never dropped). */
function cap<T>(list: T[], keep: (item: T) => boolean = () => false): void {
  for (let i = 0; list.length > HUMAN_ITEMS_KEPT && i < list.length;) {
    if (keep(list[i]!)) i++;
    else list.splice(i, 1);
  }
}

/**
 * Locates the element `ref` names for a person: its box and the tab's URL, and in a shown
 * browser an outline drawn by the browser itself ({@link outlineInPage}).
 *
 * @throws ToolError as the ref fails in any action (`ref-gone`, …).
 */
async function locate(
  session: BrowserSession,
  ref: string,
  signal: AbortSignal | undefined,
  serverHeadful: boolean,
): Promise<TargetBox & { url: string }> {
  const shown = session.headful || serverHeadful;
  const found = await locateTarget(session, { ref }, {
    signal,
    ...(shown ? { outline: (h: RemoteHandle) => outlineInPage(h) } : {}),
  });
  return { ...found, url: session.activePage?.url ?? "" };
}

/**
 * Hands the person a task: a new {@link HumanAsk} (`awaiting_user`) on the session, the
 * element `ref` names outlined when given.
 *
 * @throws ToolError `unattended`; as the ref fails.
 */
export async function askHuman(
  session: BrowserSession,
  request: { instruction: string; ref?: string | undefined },
  options: { serverHeadful: boolean; signal?: AbortSignal | undefined },
): Promise<HumanAsk> {
  requireAttended(session, options.serverHeadful, "ask_human");
  const found = request.ref !== undefined
    ? await locate(session, request.ref, options.signal, options.serverHeadful)
    : undefined;
  const ask: HumanAsk = {
    id: `a${nextAsk++}`,
    instruction: request.instruction,
    ...(found ? { ref: found.ref ?? request.ref!, box: found.box, url: found.url } : {}),
    status: "awaiting_user",
    created: Date.now(),
  };
  session.human.asks.push(ask);
  cap(session.human.asks, (a) => a.status === "awaiting_user");
  session.human.changed("asks");
  return ask;
}

/**
 * The person marked ask `id` done: its status becomes `done`, and the session's next result
 * carries it once (`sinceLastCall.asksDone`).
 *
 * @returns The ask, or undefined when the session has no pending ask `id`.
 */
export function markAskDone(session: BrowserSession, id: string): HumanAsk | undefined {
  const ask = session.human.asks.find((a) => a.id === id && a.status === "awaiting_user");
  if (!ask) return undefined;
  ask.status = "done";
  ask.done = Date.now();
  session.between.askDone(ask);
  session.human.changed("asks");
  return ask;
}

/**
 * Outlines the element `ref` names for the person: a new {@link HumanHighlight} (the console
 * draws its box and note over the live view) and, in a shown browser, the browser's own
 * outline in the window.
 *
 * @throws ToolError `unattended`; as the ref fails.
 */
export async function highlightFor(
  session: BrowserSession,
  request: { ref: string; note?: string | undefined },
  options: { serverHeadful: boolean; signal?: AbortSignal | undefined },
): Promise<HumanHighlight> {
  requireAttended(session, options.serverHeadful, "highlight");
  const found = await locate(session, request.ref, options.signal, options.serverHeadful);
  const highlight: HumanHighlight = {
    ref: found.ref ?? request.ref,
    ...(request.note !== undefined ? { note: request.note } : {}),
    box: found.box,
    url: found.url,
    created: Date.now(),
  };
  session.human.highlights.push(highlight);
  cap(session.human.highlights);
  session.human.changed("highlights");
  return highlight;
}

/** Outline colours: an orange border over a faint fill (the DevTools inspect style). */
const OUTLINE = {
  showInfo: true,
  borderColor: { r: 255, g: 128, b: 0, a: 1 },
  contentColor: { r: 255, g: 128, b: 0, a: 0.12 },
};

/**
 * Outlines an element in a shown browser's window with the browser's own inspect overlay
 * (`Overlay.highlightNode`): drawn by Chromium above the page, not in the DOM, so the page
 * can neither read nor hide it (an outline element of ours, even in an isolated world, would
 * sit in the DOM the page walks). It lasts until the next outline in that tab. Best effort:
 * a failure leaves the console's outline only.
 *
 * CDP: `DOM.enable`, `Overlay.enable`, `Overlay.highlightNode` on the element's frame session.
 */
export async function outlineInPage(handle: RemoteHandle): Promise<void> {
  const cdp = handle.session;
  try {
    await cdp.send("DOM.enable", {}, { timeoutMs: 5000 });
    await cdp.send("Overlay.enable", undefined, { timeoutMs: 5000 });
    await cdp.send("Overlay.highlightNode", {
      highlightConfig: OUTLINE,
      objectId: handle.objectId,
    }, { timeoutMs: 5000 });
  } catch {
    // The console still shows the outline.
  }
}
