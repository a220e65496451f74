/**
 * The ActionResult (seed 000, "ActionResult shape"): what every acting tool
 * returns, built by one builder (`result_builder.ts`) from one action window
 * (`action_window.ts`) and rendered by one renderer (`result_render.ts`).
 *
 * The interface is the JSON an agent gets as `structuredContent`, key for
 * key and in this order (the text form leaves some keys out, see
 * `result_render.ts`). Tools add fields of their own (`url` of navigate,
 * `submitted` of fill, `fields` of fill_form, …) and an error's details
 * (`blockedUrl`, `invalid`, …) after the seed's fields, before
 * `tokensEstimate`.
 *
 * @module
 */
import type { NodeChange } from "../snapshot/delta.ts";
import type { BlockedDownload } from "../sessions/download_types.ts";
import type { SinceLastCall } from "../sessions/between_calls.ts";
import type { DialogEntry } from "../sessions/dialogs.ts";
import type { DownloadEntry } from "../sessions/download_types.ts";
import type { Mutation, NavigationInfo, RoutedEntry } from "./recording.ts";
import type { ToolError } from "../tool_error.ts";

export type {
  BlockedDownload,
  DialogEntry,
  DownloadEntry,
  Mutation,
  NavigationInfo,
  NodeChange,
  SinceLastCall,
};

/** `action`: the call's own echo (what was asked, on what). */
export interface ActionEcho {
  /** The tool: `click`, `fill`, `navigate`, …. */
  type: string;
  /** The ref acted on, when the target was a ref. */
  ref?: string;
  /** The selector acted on, when the target was a selector. */
  selector?: string;
  /** The point acted on, viewport CSS px, when the target was coordinates. */
  coords?: { x: number; y: number };
  /**
   * The frame the selector matched in, when not the main frame (none matched
   * there): its URL and the ref of its iframe element, when one was issued.
   */
  frame?: { url: string; ref?: string };
  /** The tool's own echo (`url` of navigate, `key` of press, `submit` of fill, …). */
  [info: string]: unknown;
}

/** `structure`: what changed the page's shape, and the tabs the action opened. */
export interface StructureChange {
  /** Structural nodes (dialog, alert, heading, region, …) that appeared, in a delta. */
  appeared: NodeChange[];
  /** Structural nodes that went away, in a delta. */
  removed: NodeChange[];
  /** The first 10 tabs the action opened. */
  newTabs: NewTab[];
  /** How many tabs it opened, when more than `newTabs` lists. */
  newTabCount?: number;
  /**
   * The index of the tab later calls act on, when the action left another tab active than the
   * one it acted on (a link that opened a tab, a popup that closed itself).
   */
  activeTab?: number;
  /** Tabs that closed during the action (a popup's `window.close()`): their last URLs. */
  closedTabs?: Array<{ url: string }>;
}

/** A tab the action opened. */
export interface NewTab {
  /** Its index in `tabs({ action: "list" })`. */
  index: number;
  url: string;
  title: string;
}

/** `console`: what the page logged during the action. */
export interface ConsoleSummary {
  /** The first 10 `console.error` texts, 300 chars each. */
  errors: string[];
  /** How many `console.warn` calls. */
  warnings: number;
}

/** `network`: the traffic of the action window (writes by keys, never values). */
export interface NetworkSummary {
  summary: { total: number; byType: Record<string, number>; failed: number };
  /** The first 10 notable requests (documents, XHR/fetch, failures). */
  requests: RequestEntry[];
  /** The first 10 writes (POST, PUT, PATCH, DELETE), keys only. */
  mutations: Mutation[];
  /**
   * What the session's routes (`route`) did in the window, the first 10: `{ url, pattern,
   * action: "fulfilled"|"aborted"|"refused", status?, why? }`; absent when nothing.
   */
  routed?: RoutedEntry[];
}

/** One notable request of the window. */
export interface RequestEntry {
  method: string;
  /** The URL (a write's query with keys only), at most 200 chars. */
  url: string;
  /** CDP resource type (`Document`, `Fetch`, `XHR`, …). */
  type: string;
  status?: number;
  /** Duration, ms. */
  ms?: number;
  failed?: boolean;
  /** The navigation guard stopped it or answered it itself: it never reached the server. */
  blockedByPolicy?: boolean;
  /** No answer yet when the result was taken (no status, not failed). */
  pending?: true;
}

/** `element`: the acted-on element after the action (the page's `elementInfo`). */
export interface ElementProbe {
  /** The target's ref, when it was addressed by ref. */
  ref?: string;
  /**
   * Still in the document (false after a full load, or when the page removed
   * it); absent when the action had no element target (a window scroll), or when the call's
   * time ran out before the element could be read (`warnings` say "cut short the element
   * probe": unknown, not gone).
   */
  stillAttached?: boolean;
  /** Holds the focus. */
  focused?: boolean;
  /** A field's value (secrets show `••••`), or an editable's text. */
  value?: string;
  /** Checkbox, radio or `aria-checked` state. */
  checked?: boolean;
  /** Its visible text, at most 80 chars. */
  displayText?: string;
  /** A tool's own facts on the element (`scroll` of scroll, …). */
  [fact: string]: unknown;
}

/** `snapshotDelta`: what changed on the page, or the page itself. */
export interface SnapshotDelta {
  /**
   * `delta`: the lines that changed since the agent's last view; `full`: the
   * page (asked for, or the document or tab changed); the caller's mode when
   * the snapshot failed.
   */
  mode: "delta" | "full" | "none";
  /** `changed` for a delta, `full` for the page; absent when the snapshot failed. */
  scope?: "changed" | "full";
  /** A delta found nothing changed (order included, focus too). */
  unchanged?: boolean;
  /**
   * A delta's focus moved to another element than the one acted on, and no changed line
   * shows it: where it is now (its line: `textbox "Name" [ref=e1]`), or `"none"` (no element
   * has it). Absent otherwise.
   */
  focus?: string;
  /**
   * How many lines of a delta stand in another order (rows swapped, a list
   * sorted); the tree shows them with `~ ` in their new order. Absent when none.
   */
  moved?: number;
  /** The snapshot text (rendered raw after the JSON in the text form). */
  tree: string;
  truncated?: boolean;
  /** How to read the rest of a cut page. */
  hint?: string;
  /** Why there is no snapshot (`snapshot failed: …`). */
  error?: string;
}

/** `failure`: the app, not the agent's call, made the action fail (a raised dialog). */
export interface AppFailure {
  source: "app";
  hint: string;
}

/** `error`: why the action failed, and what to do next. */
export interface ActionError {
  code: string;
  message: string;
  hint: string;
}

/** Seed 000's ActionResult, as browxai returns it. */
export interface ActionResult {
  /** Nothing failed: no error, no dialog raised under the `raise` policy. */
  ok: boolean;
  action: ActionEcho;
  navigation: NavigationInfo;
  structure: StructureChange;
  console: ConsoleSummary;
  /** Uncaught exceptions' messages (first 10, 300 chars each). */
  pageErrors: string[];
  /** Present when the action had an element target, or the tool told of one. */
  element?: ElementProbe;
  /** Absent with `snapshot: "none"`. */
  snapshotDelta?: SnapshotDelta;
  network: NetworkSummary;
  /** Present when a dialog opened. */
  dialogs?: DialogEntry[];
  /** Present when the page raised a dialog under the `raise` policy. */
  failure?: AppFailure;
  /** Files saved during the action (see `downloads_window.ts`); present when some were. */
  downloads?: DownloadEntry[];
  /** Downloads cancelled because the call did not pay for them; present when some were. */
  downloadsBlocked?: BlockedDownload[];
  /**
   * The action opened a file chooser (intercepted: nothing shown, nothing attached);
   * `warnings` says to call `upload_file`. Present only when one opened.
   */
  fileChooser?: true;
  /**
   * Estimated tokens of the result's text (chars / 4): `null` until rendered
   * (`result_render.ts` fills it in), a number in what the agent gets.
   */
  tokensEstimate: number | null;
  warnings: string[];
  error: ActionError | null;
  /**
   * What happened in the session outside any action since its previous result (a dialog, a
   * page error, a navigation, a crash, a tab opened or closed, a download), once; added last
   * by the call pipeline (`mcp/pipeline.ts`) to every result of the session, absent when
   * nothing happened.
   */
  sinceLastCall?: SinceLastCall;
  /**
   * A tool's own fields (`url`, `httpStatus`, `submitted`, `fields`, …) and
   * the error's details (`blockedUrl`, `invalid`, …), between `downloadsBlocked`
   * and `tokensEstimate`.
   */
  [field: string]: unknown;
}

/**
 * What {@link PerformFields.checkElement} found: a warning to add, or the action's failure
 * (`fields`: the tool's own fields as they really are, e.g. the option a select holds).
 */
export type ElementCheck =
  | { warning: string }
  | { error: ToolError; fields?: Record<string, unknown> };

/** What a tool's `perform` may hand back to the result: its own fields. */
export interface PerformFields {
  /** Facts merged into `element` (over the probe's). */
  element?: Record<string, unknown>;
  /** Warnings appended to `warnings`. */
  warnings?: string[];
  /**
   * Warnings appended only when the window saw nothing leave the tab: no navigation, no new
   * tab, no request of a script (fetch, XHR) and no write (a form the page took over).
   */
  warningsUnlessSent?: string[];
  /**
   * Warnings appended only when nothing happened but the acted-on element's own change: nothing
   * left the tab (as for `warningsUnlessSent`), no dialog, and the delta shows no other line
   * (not judged without a delta: `snapshot: "none"`). No control is named: the snapshot's text
   * is the page's to write (a paragraph can read like a button line).
   */
  warningsUnlessChanged?: string[];
  /**
   * Warnings appended unless the window saw something leave the tab (as for
   * `warningsUnlessSent`) or the delta shows a line besides the acted-on element's own: a
   * delta showing what the page did says it better (always appended without a delta).
   */
  warningsUnlessShown?: string[];
  /**
   * Without a delta (`snapshot: "none"`): asked once the window settled, whether the page
   * changed nothing since the action's input (its frame's change counter, one round trip);
   * `warningsUnlessChanged` is then judged on it instead of the delta.
   */
  unchangedCheck?: () => Promise<boolean>;
  /**
   * Judges the element as the probe read it once the page settled (what a fill or select left
   * in the field after the page's handlers ran): a warning, or the failure of the action (with
   * fields replacing the tool's own). Not called when the action failed already.
   */
  checkElement?: (element: ElementProbe | undefined) => ElementCheck | undefined;
  /**
   * Read once the window settled, beside the element probe and the delta: fields merged into
   * `element` over the tool's own (scroll: the geometry after what the scroll made the page
   * load, not before). Skipped, the tool's own kept, when the call's time ran out or the
   * read failed. `signal` ends the read.
   */
  settledElement?: (signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** Where the action went; replaced by `navigation.to` (the tab may have moved on since). */
  url?: unknown;
  /** Any other field, added to the result as is. */
  [field: string]: unknown;
}
