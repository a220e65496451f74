/**
 * The set-up commands a page target (a tab or one of its out-of-process iframes) gets while it
 * waits for the debugger, sent in one batch: the page, lifecycle, runtime, network, log and
 * inspector domains, browxai's utility world for every document, and focus emulation.
 *
 * CDP: `Page.getFrameTree`, `Page.enable`, `Page.setLifecycleEventsEnabled`, `Runtime.enable`,
 * `Page.addScriptToEvaluateOnNewDocument`, `Network.enable`, `Log.enable`, `Inspector.enable`,
 * `Emulation.setFocusEmulationEnabled`.
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import { UTILITY_WORLD } from "./execution_contexts.ts";
import type { Protocol } from "./types.ts";

/** What {@link enableTarget} needs besides the session. */
export interface TargetSetup {
  /** The script run in the utility world of every document (see `PageAttachOptions`). */
  utilityScript?: string | undefined;
  /** The target is an out-of-process iframe, not a tab. */
  oopif: boolean;
  /** Told the frame tree the moment it arrives. */
  frameTree(tree: Protocol.Page.FrameTree): void;
  /** Told once `Runtime.enable` answered. */
  runtimeEnabled(): void;
}

/**
 * Sends the set-up batch on `session`; resolves when every command answered.
 *
 * @throws whatever the enabling commands throw (target closed, …).
 */
export async function enableTarget(session: CdpSession, setup: TargetSetup): Promise<void> {
  await Promise.all([
    // Applied the moment it arrives: events that follow it on the wire
    // (a navigation committing) must win over this older picture.
    session.send("Page.getFrameTree").then(({ frameTree }) => setup.frameTree(frameTree)),
    session.send("Page.enable"),
    session.send("Page.setLifecycleEventsEnabled", { enabled: true }),
    // Its answer comes after the contexts that existed (sent before it): a utility world
    // seen after it is a new document's, which nothing of ours ran in but its start script.
    session.send("Runtime.enable").then(() => setup.runtimeEnabled()),
    // Every document's utility world from its start, before the page's first script.
    setup.utilityScript === undefined
      ? undefined
      : session.send("Page.addScriptToEvaluateOnNewDocument", {
        source: setup.utilityScript,
        worldName: UTILITY_WORLD,
        runImmediately: true,
      }),
    session.send("Network.enable", { maxPostDataSize: 65536 }),
    session.send("Log.enable"),
    // Renderer crashes arrive as Inspector.targetCrashed.
    session.send("Inspector.enable").catch(() => {}),
    // Pages keep document focus (focus/blur, :focus) even when another tab is in front.
    setup.oopif ? undefined : session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
  ]);
}
