/**
 * Actionability before acting: attached, visible, stable, enabled, editable
 * (for fill), and receiving the pointer at the action point. Page-side checks
 * return tagged results; this loop retries them on a growing schedule and
 * fails fast (~2 s) on hidden, disabled and covered elements.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../errors.ts";
import { callOnHandle, type RemoteHandle } from "../injected/mod.ts";

/** What an action needs of its element. */
export interface ActionabilityOptions {
  /** Must be enabled (click, fill, select). */
  enabled?: boolean;
  /** Must be a text field or contenteditable (fill). */
  editable?: boolean;
  /** Must receive the pointer at its center (click, hover). */
  hitTest?: boolean;
  /** Absolute deadline (epoch ms) from the call's timeoutMs. */
  deadline: number;
  /** Fail-fast budget for hidden/disabled/covered states, ms. @default 2000 */
  failFastMs?: number;
}

/** A point in the top-level viewport, CSS px. */
export interface Point {
  x: number;
  y: number;
}

/** An action point: top-level viewport coordinates plus the same point in the element's frame. */
export interface ActionPoint extends Point {
  frameX: number;
  frameY: number;
}

const SCHEDULE = [0, 20, 50, 100, 100, 250, 500];

/**
 * Offset of a frame's viewport inside the top-level viewport (sum of owner
 * iframe content origins). CDP: `DOM.getFrameOwner`, `DOM.resolveNode`.
 */
export async function frameOffset(page: Page, frameId: string): Promise<Point> {
  let x = 0, y = 0;
  let frame = page.frame(frameId);
  while (frame && frame.parentId) {
    const parent = page.frame(frame.parentId);
    if (!parent) break;
    const { backendNodeId } = await parent.session.send("DOM.getFrameOwner", {
      frameId: frame.frameId,
    });
    const { contextId } = await page.utilityContext(parent.frameId);
    const { object } = await parent.session.send("DOM.resolveNode", {
      backendNodeId,
      executionContextId: contextId,
    });
    const origin = await callOnHandle(
      { session: parent.session, frameId: parent.frameId, objectId: object.objectId! },
      "contentOrigin",
    );
    x += origin.x;
    y += origin.y;
    frame = parent;
  }
  return { x, y };
}

/**
 * Waits until the element is actionable and returns the action point (its
 * center) in top-level viewport coordinates.
 *
 * @throws ToolError ref-gone (detached) | not-visible | not-enabled |
 *   not-editable | covered (names the covering element) | timeout
 */
export async function waitActionable(
  page: Page,
  handle: RemoteHandle,
  options: ActionabilityOptions,
): Promise<ActionPoint> {
  const started = Date.now();
  const failFastAt = Math.min(options.deadline, started + (options.failFastMs ?? 2000));
  let attempt = 0;
  let last: string = "";
  let lastDetail: string | undefined;
  while (true) {
    const wait = SCHEDULE[Math.min(attempt, SCHEDULE.length - 1)]!;
    if (wait) await new Promise((r) => setTimeout(r, wait));
    attempt++;
    const probe = await callOnHandle(handle, "probe", [{
      enabled: options.enabled ?? false,
      editable: options.editable ?? false,
    }]);
    if (probe.state === "notconnected") {
      throw new ToolError(
        "ref-gone",
        "The element is no longer attached to the page",
        "take a new snapshot and use the new ref",
      );
    }
    if (probe.state === "ok") {
      await callOnHandle(handle, "scrollIntoViewIfNeeded");
      const { stable, box: b } = await callOnHandle(handle, "stableBox");
      if (stable) {
        const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
        if (options.hitTest) {
          const hit = await callOnHandle(handle, "hitTest", [cx, cy]);
          if (hit !== "ok") {
            last = "covered";
            lastDetail = hit.coveredBy;
            if (Date.now() >= failFastAt) break;
            continue;
          }
        }
        const off = handle.frameId === page.mainFrameId
          ? { x: 0, y: 0 }
          : await frameOffset(page, handle.frameId);
        return { x: cx + off.x, y: cy + off.y, frameX: cx, frameY: cy };
      }
      last = "unstable";
      if (Date.now() >= options.deadline) break;
      continue;
    }
    last = probe.state;
    lastDetail = probe.detail;
    // A button or checkbox never turns into a text field: no point waiting.
    if (probe.state === "noteditable" && !/read-only/.test(probe.detail ?? "")) break;
    if (Date.now() >= failFastAt) break;
  }
  switch (last) {
    case "notvisible":
      throw new ToolError(
        "not-visible",
        "The element is not visible (hidden, zero-size or display:none)",
        "take a new snapshot; reveal it first (open its menu or section) or pick a visible element",
      );
    case "disabled":
      throw new ToolError(
        "not-enabled",
        "The element is disabled",
        "complete what enables it (required fields, a choice) and try again",
      );
    case "noteditable":
      throw new ToolError(
        "not-editable",
        `The element cannot be filled: ${lastDetail ?? "it is not editable"}`,
        "target a text input, textarea or contenteditable element (use select for <select>)",
      );
    case "covered":
      throw new ToolError(
        "covered",
        `The element is covered by ${lastDetail}, which would receive the click`,
        "close or dismiss the covering element first (e.g. a dialog or overlay), then retry",
        { coveredBy: lastDetail },
      );
    default:
      throw new ToolError(
        "timeout",
        "The element kept moving (animation) until the timeout",
        "wait for the animation to end (wait_for) or raise timeoutMs",
      );
  }
}
