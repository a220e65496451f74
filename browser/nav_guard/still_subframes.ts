/**
 * Before a guarded tab leaves its page to close (`leave_before_close.ts`): its out-of-process
 * iframes and its dedicated workers stop sending, and what they sent is answered, while the
 * sessions that hold their requests are still up.
 *
 * An out-of-process iframe's requests (its dedicated workers' too) are held on its own
 * session. When the tab leaves for `about:blank`, that session goes away, and Chromium lets
 * every request still paused there go unjudged; and a document that still runs then sends on
 * a loader no interception sees (measured: an iframe whose scripts were disabled made a
 * request as its session went). A cross-site iframe and the page's worker bursting `fetch`es
 * of a bound secret got 54 and 20 of them to the iframe's origin in one `tabs` close
 * (`tests/close_paused_test.ts`). Under such a burst the guard answers seconds behind
 * (measured: a request paused 22 s after the page made it), so a backlog is always there.
 *
 * So, deepest iframe first, each iframe's page is taken to `about:blank` on its own session
 * (the frame stays out of process: that session lives on), its workers are waited out, every
 * request its old page announced is waited for until the guard paused it
 * (`announced_requests.ts`; a quiet spell alone let a backlog out), and the guard answers
 * what it paused, before the tab's own page leaves. Scripts are stopped first, in every iframe
 * and worker at once, so the backlog stops growing at once.
 *
 * CDP: `Emulation.setScriptExecutionDisabled`, `Page.navigate` and `Runtime.evaluate` (a round
 * trip) on each iframe's session; `Runtime.evaluate` (`close()`) on each dedicated worker's.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import { poll } from "../poll.ts";
import type { NavGuard } from "./nav_guard.ts";

/** Out-of-process iframe of a tab: its frame id (its target id), its session, its depth. */
interface Oopif {
  frameId: string;
  session: CdpSession;
  /** How many frames are above it (a child of the main frame: 1). */
  depth: number;
}

/** `page`'s out-of-process iframes (a frame held by another session than its parent's). */
export function oopifs(page: Page): Oopif[] {
  const out: Oopif[] = [];
  for (const f of page.frames()) {
    const parent = f.parentId === undefined ? undefined : page.frame(f.parentId);
    if (!parent || parent.session === f.session) continue;
    let depth = 1;
    for (let id = parent.parentId; id !== undefined; id = page.frame(id)?.parentId) depth++;
    out.push({ frameId: f.frameId, session: f.session, depth });
  }
  return out;
}

/**
 * Stops `page`'s out-of-process iframes and dedicated workers (see the module doc) and waits
 * until `guard` answered what they sent, each step bounded by `stepMs`; `quietMs`: how long
 * an iframe's session must have paused nothing (its old page may still have requests on their
 * way). Never throws: the tab closes either way.
 */
export async function stillSubframes(
  page: Page,
  guard: NavGuard,
  options: { stepMs: number; quietMs: number },
): Promise<void> {
  const frames = oopifs(page);
  const t = { timeoutMs: options.stepMs };
  // Stopping scripts needs no answer to work: a late one only costs the wait below.
  await Promise.all([
    ...frames.map((f) =>
      f.session.send("Emulation.setScriptExecutionDisabled", { value: true }, t).catch(() => {})
    ),
    // A page may replace `close`: its worker ends with its document below all the same.
    ...page.workerSessions().map((w) =>
      w.send("Runtime.evaluate", { expression: "close()" }, t).catch(() => {})
    ),
  ]);
  for (const depth of [...new Set(frames.map((f) => f.depth))].sort((a, b) => b - a)) {
    await Promise.all(
      frames.filter((f) => f.depth === depth).map((f) => leave(page, f, guard, options)),
    );
  }
}

/** Takes one iframe's page to `about:blank`, waits its workers out and its requests answered. */
async function leave(
  page: Page,
  f: Oopif,
  guard: NavGuard,
  options: { stepMs: number; quietMs: number },
): Promise<void> {
  if (f.session.detached) return;
  const t = { timeoutMs: options.stepMs };
  await f.session.send("Page.navigate", { url: "about:blank", frameId: f.frameId }, t)
    .catch(() => {});
  // What the old page announced came before this answer (one pipe): waited for until paused.
  await f.session.send("Runtime.evaluate", { expression: "0" }, t).catch(() => {});
  const since = Date.now();
  await workersGone(page, f.session.id, options.stepMs);
  await guard.reached(since, Date.now() + options.stepMs);
  await guard.answered(f.frameId, options.quietMs, Date.now() + options.stepMs);
}

/**
 * Resolves once the dedicated workers that session `under` started (all of `page`'s when
 * undefined) are gone, or after `timeoutMs`: a worker outlives its document for a while, and
 * its requests are held on that document's session.
 */
export async function workersGone(
  page: Page,
  under: string | undefined,
  timeoutMs: number,
): Promise<void> {
  await poll(() => page.workerSessions(under).length === 0, {
    timeoutMs,
    intervalMs: 10,
    maxIntervalMs: 50,
  });
}
