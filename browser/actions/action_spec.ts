/**
 * What an acting tool hands to `runAction` (`run_action.ts`): the {@link ActionSpec} (the
 * action's type, target, checks and `perform`), the {@link PerformContext} `perform` gets, and
 * {@link requireOne}, the argument check tools with alternative value fields share; and the
 * sets of action types `runAction` treats apart ({@link POINTER_AND_KEYS}, {@link KEYS_TO_FOCUS}).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { PerformFields } from "./action_result.ts";
import { ToolError } from "../tool_error.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { ActionabilityOptions, ActionPoint, Point } from "./actionability.ts";
import type { ResolvedTarget, TargetSpec } from "./target.ts";

/** What a tool hands to `runAction`. */
export interface ActionSpec {
  /** Action type for `action.type`. */
  type: string;
  /** The target, when the action takes one. */
  target?: TargetSpec;
  /**
   * The action works on a form control (fill, select): a `<label>` target (a `text=` selector
   * matching the label the agent reads in the snapshot) stands for the control it labels.
   */
  toControl?: boolean;
  /** Actionability checks for an element target; omitted: none. */
  actionability?: Omit<ActionabilityOptions, "deadline">;
  /** A URL the action requests (navigate), for `navigation.offOrigin`. */
  requestedUrl?: string;
  /**
   * The tool itself sends a form and has asked its own permission for it
   * (`publish` asks `publish`): the guard lets the submission through without
   * asking the `submit` hook too.
   */
  sendsForm?: boolean;
  /** The action replaces the document (navigate, reload): no "before" snapshot is needed. */
  replacesDocument?: boolean;
  /** The action replays a history entry (go_back, go_forward, reload): a POST is not resent. */
  replaysHistory?: boolean;
  /**
   * The action answers the file chooser it opens itself (upload_file): the window does not
   * intercept choosers for the result's `fileChooser`.
   */
  handlesFileChooser?: boolean;
  /**
   * When `perform` sends input through the tab's keyboard or mouse (`devices.ts`), nothing it
   * does after its last input changes the page (it only reads: a press verdict, a form's
   * state): when it succeeds, the quiet period counts from the answer to that input, so those
   * reads overlap it. Omitted (or no input sent): from perform's return.
   */
  quietFromInput?: boolean;
  /** Extra fields for `action`. */
  actionInfo?: Record<string, unknown>;
  /**
   * What the action's target field held (`before`, set by `perform` once read) and holds now
   * (`after`) (fill): a ref whose row read `before` and now reads `after` in its place took the
   * agent's own edit, not a re-use (`RefRegistry.settle`).
   */
  edited?: { before?: string; after: string };
  /**
   * What the action sends that may by itself keep the page busy past timeoutMs (a fill's huge
   * value: "the value is 20,000,000 characters"): a timeout then names it as the cause, not
   * a page script.
   */
  heavyInput?: string;
  /** Does the action; may return fields merged into the result. */
  perform(c: PerformContext): Promise<PerformFields | void>;
}

/** What `perform` gets. */
export interface PerformContext {
  session: BrowserSession;
  page: Page;
  target: ResolvedTarget | undefined;
  /** The action point in the top-level viewport (element center or coords). */
  point: Point | undefined;
  /** For element targets: the point with its frame-local coordinates. */
  elementPoint: ActionPoint | undefined;
  deadline: number;
  /** The call's signal (the client's cancel and the call's budget): waits and sends take it. */
  signal: AbortSignal | undefined;
  /** What the result will show of the page (`snapshot`): with `"none"`, no delta is taken. */
  snapshotMode: "delta" | "full" | "none";
}

/** Fails unless exactly one of the value fields is set. @throws ToolError */
export function requireOne(args: Record<string, unknown>, keys: string[], tool: string): string {
  const given = keys.filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new ToolError(
      "invalid-argument",
      `"${tool}" needs exactly one of ${keys.join(", ")}; got ${
        given.length ? given.join(" and ") : "none"
      }`,
      `pass one of: ${keys.join(", ")}`,
    );
  }
  return given[0]!;
}

/** Actions made of mouse or key events, which Chromium holds while a tab is hidden. */
export const POINTER_AND_KEYS = new Set([
  "click",
  "hover",
  "drag",
  "mouse",
  "press",
  "type",
  "scroll",
  "choose_option",
]);

/**
 * Actions whose keys go to the focused element when they have no target: its own change is
 * theirs (a scroll's is not: a virtual list may re-use the focused row for another item).
 */
export const KEYS_TO_FOCUS = new Set(["type", "press"]);
