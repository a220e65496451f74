/**
 * The one builder of the ActionResult: collects the facts of one action
 * window as they come (warnings, the error that decides the outcome) and
 * puts them together in seed 000's shape and key order.
 *
 * @module
 */
import type { ToolError } from "../tool_error.ts";
import type {
  ActionEcho,
  ActionResult,
  BlockedDownload,
  DownloadEntry,
  PerformFields,
} from "./action_result.ts";
import type { DeltaOut } from "./action_delta.ts";
import type { Mutation, Recording } from "./recording.ts";
import { onlyOwnLineChanged } from "./idle_outcome.ts";
import { validationStoppedWarning } from "./form_invalid.ts";

/**
 * The warning of an action that opened a file chooser: what to do instead, naming the
 * target acted on when it was an element (upload_file clicks it and answers the chooser).
 */
export function fileChooserHint(target: TargetEcho | undefined): string {
  const el = target?.kind === "element" ? target : undefined;
  const on = el?.ref
    ? `ref: "${el.ref}"`
    : el?.selector !== undefined
    ? `selector: ${JSON.stringify(el.selector)}`
    : "ref";
  return "a file chooser opened (not shown; nothing attached): to attach files call " +
    `upload_file({ ${on}, paths: [...] }) with paths in the workspace`;
}

/** How to read saved files back: `download_get` by their ids. */
export function readDownloadsHint(downloads: ReadonlyArray<{ id: string }>): string {
  const ids = downloads.map((d) => `download_get({ id: "${d.id}" })`);
  return `read the saved file${ids.length > 1 ? "s" : ""} with ${ids.join(", ")}`;
}

/** What the result says of the target: the ref or selector acted on, or the point. */
export type TargetEcho =
  | { kind: "element"; ref?: string; selector?: string; frame?: { url: string; ref?: string } }
  | { kind: "coords"; x: number; y: number };

/** The facts of a finished action window, as {@link ActionResultBuilder.build} takes them. */
export interface WindowFacts {
  /** What the recorder saw (`recorder.ts`). */
  recording:
    & Pick<
      Recording,
      "navigation" | "newTabs" | "newTabCount" | "console" | "pageErrors" | "network" | "dialogs"
    >
    & Partial<Pick<Recording, "fileChooser" | "loadWarning" | "closedTabs" | "activeTab">>;
  /** The element probe after the action (`element_probe.ts`); for element targets. */
  element?: Record<string, unknown> | undefined;
  /** The snapshot part (`action_delta.ts`); absent with `snapshot: "none"`. */
  delta?: DeltaOut | undefined;
  /** Files saved and cancelled during the window (`downloads_window.ts`). */
  downloads: { downloads: DownloadEntry[]; blocked: BlockedDownload[] };
  /** What the tool's `perform` handed back. */
  extra?: PerformFields | void;
  /**
   * The ref the registry holds for a selector target's element (a ref target's is its own):
   * the delta's line of it is the action's own change, as by ref.
   */
  actedRef?: string | undefined;
  /**
   * Without a delta (`snapshot: "none"`): the page changed nothing since the action's input
   * (`PerformFields.unchangedCheck`), for `warningsUnlessChanged`.
   */
  pageUnchanged?: boolean | undefined;
}

/**
 * Builds one ActionResult. Warnings keep the order they were added in (the
 * tool's own last); the error is the first one met, unless a later one
 * {@link fail}s with `overrides` (a navigation the policy stopped is what
 * happened, whatever the action itself reported).
 */
export class ActionResultBuilder {
  #type: string;
  #target: TargetEcho | undefined;
  #actionInfo: Record<string, unknown> | undefined;
  #warnings: string[] = [];
  #error: ToolError | undefined;
  #cut: string[] = [];

  /**
   * @param type `action.type` (the tool).
   * @param options.actionInfo The tool's own fields of `action`.
   */
  constructor(type: string, options: { actionInfo?: Record<string, unknown> | undefined } = {}) {
    this.#type = type;
    this.#actionInfo = options.actionInfo;
  }

  /** The resolved target, echoed in `action` and `element.ref`. */
  set target(target: TargetEcho | undefined) {
    this.#target = target;
  }

  /** Adds warnings (in order). */
  warn(...warnings: string[]): this {
    this.#warnings.push(...warnings);
    return this;
  }

  /**
   * Records a failure of the action. The first one stands; `overrides`
   * replaces an earlier one. `undefined` is ignored.
   */
  fail(error: ToolError | undefined, options: { overrides?: boolean } = {}): this {
    if (error && (!this.#error || options.overrides)) this.#error = error;
    return this;
  }

  /**
   * Records what the call's time (`timeoutMs`) cut short: skipped or left partial (e.g.
   * "the snapshot"). The result then says `timedOut: true` and names them in a warning.
   */
  cutShort(...what: string[]): this {
    this.#cut.push(...what);
    return this;
  }

  /** The failure recorded so far, if any. */
  get error(): ToolError | undefined {
    return this.#error;
  }

  /**
   * The ActionResult of the window. `ok` is false on an error, or when the
   * page raised a dialog under the `raise` policy (then `failure` says so).
   * A tool's `url` is replaced by where the tab stands (`navigation.to`):
   * client-side routing may have moved it since.
   */
  build(facts: WindowFacts): ActionResult {
    const rec = facts.recording;
    const target = this.#target;
    const {
      element: extraElement,
      warnings: extraWarnings,
      warningsUnlessSent,
      warningsUnlessChanged,
      warningsUnlessShown,
      checkElement,
      ...extraRest
    } = facts.extra ?? {};
    // What the element holds once the page settled, as the tool judges it (a value undone).
    const checked = checkElement && !this.#error ? checkElement(facts.element) : undefined;
    if (checked && "error" in checked) {
      this.fail(checked.error);
      Object.assign(extraRest, checked.fields);
    }
    const warnings = [...this.#warnings];
    // A failed load the tool reports as its error (navigate's navigation-failed) is said there.
    if (rec.loadWarning && this.#error?.code !== "navigation-failed") {
      warnings.unshift(rec.loadWarning);
    }
    if (rec.fileChooser) warnings.push(fileChooserHint(target));
    if (Array.isArray(extraWarnings)) warnings.push(...extraWarnings);
    if (checked && "warning" in checked) warnings.push(checked.warning);
    const sent = rec.navigation.changed || rec.newTabs.length > 0 ||
      rec.network.mutations.length > 0 || (rec.network.summary.byType["xhr"] ?? 0) > 0 ||
      (rec.network.summary.byType["fetch"] ?? 0) > 0;
    if (Array.isArray(warningsUnlessSent) && !sent) warnings.push(...warningsUnlessSent);
    const reused = facts.element?.reusedFor;
    if (KEYED.has(this.#type) && typeof reused === "string" && !this.#error) {
      warnings.push(
        `${
          target?.kind === "element" && target.ref ? target.ref : "the element"
        } was re-used for another item while the ${this.#type} was handled (its row now reads "${reused}"): the page's handlers may have acted on that item; check the page`,
      );
    }
    const invalid = facts.element?.formInvalid;
    // The fields' messages are said once (a new user read the same four three times): the
    // warning points at the element's list; an error's own `invalid` replaces it.
    const invalidSaid = "invalid" in extraRest || this.#error?.details.invalid !== undefined;
    if (
      this.#type === "click" && Array.isArray(invalid) && invalid.length && !sent && !this.#error
    ) {
      warnings.push(validationStoppedWarning(["element.formInvalid says why"], "click again"));
    }
    const ownRef = target?.kind === "element" ? target.ref ?? facts.actedRef : undefined;
    const d = facts.delta?.delta;
    // A delta that shows nothing at all needs no ref to judge (a drag from an element without one).
    const onlyOwnChange = d
      ? d.mode === "delta" && d.scope === "changed" &&
        (d.unchanged === true || (ownRef !== undefined && onlyOwnLineChanged(d.tree, ownRef)))
      : facts.pageUnchanged === true;
    if (
      Array.isArray(warningsUnlessChanged) && !sent && rec.dialogs.length === 0 && onlyOwnChange
    ) {
      warnings.push(...warningsUnlessChanged);
    }
    const shown = ownRef !== undefined && d?.mode === "delta" && d.scope === "changed" &&
      !onlyOwnLineChanged(d.tree, ownRef);
    if (Array.isArray(warningsUnlessShown) && !sent && !shown) {
      warnings.push(...warningsUnlessShown);
    }
    if (this.#cut.length) {
      warnings.push(`timeoutMs ran out: cut short ${this.#cut.join(", ")}`);
    }
    const pending = rec.network.mutations.filter((m) => m.pending);
    if (pending.length) warnings.push(pendingWritesWarning(pending));
    if ("url" in extraRest) extraRest.url = rec.navigation.to;
    let element = facts.element;
    if (extraElement) element = { ...element, ...extraElement };
    if (invalidSaid && element?.formInvalid) {
      const { formInvalid: _said, ...rest } = element;
      element = rest;
    }
    const ref = target?.kind === "element" && target.ref ? target.ref : undefined;
    const action: ActionEcho = {
      type: this.#type,
      ...(ref ? { ref } : {}),
      ...(target?.kind === "element" && target.selector ? { selector: target.selector } : {}),
      ...(target?.kind === "element" && target.frame ? { frame: target.frame } : {}),
      ...(target?.kind === "coords" ? { coords: { x: target.x, y: target.y } } : {}),
      ...this.#actionInfo,
    };
    const delta = facts.delta;
    // Under the `raise` dialog policy a dialog the page raised is the app's failure.
    const raised = rec.dialogs.find((d) => d.raised);
    const error = this.#error;
    const dl = facts.downloads;
    return {
      ok: !error && !raised,
      action,
      navigation: rec.navigation,
      structure: {
        appeared: delta?.appeared ?? [],
        removed: delta?.removed ?? [],
        newTabs: rec.newTabs,
        ...(rec.newTabCount > rec.newTabs.length ? { newTabCount: rec.newTabCount } : {}),
        ...(rec.activeTab !== undefined ? { activeTab: rec.activeTab } : {}),
        ...(rec.closedTabs?.length ? { closedTabs: rec.closedTabs } : {}),
      },
      console: rec.console,
      pageErrors: rec.pageErrors,
      ...(element ? { element: { ...(ref ? { ref } : {}), ...element } } : {}),
      ...(delta ? { snapshotDelta: delta.delta } : {}),
      network: rec.network,
      ...(rec.dialogs.length ? { dialogs: rec.dialogs } : {}),
      ...(raised
        ? {
          failure: {
            source: "app" as const,
            hint:
              `the page raised a ${raised.kind} ("${raised.message.slice(0, 200)}"), dismissed ` +
              "under this session's raise policy; arm an answer with handle_dialog and repeat",
          },
        }
        : {}),
      ...(dl.downloads.length ? { downloads: dl.downloads } : {}),
      ...(dl.blocked.length ? { downloadsBlocked: dl.blocked } : {}),
      ...(rec.fileChooser ? { fileChooser: true as const } : {}),
      // How the agent reads a saved file back (a tool's own hint, if any, comes after).
      ...(dl.downloads.length ? { hint: readDownloadsHint(dl.downloads) } : {}),
      ...extraRest,
      // The call's time ran out somewhere (the tool's own wait, or what followed it).
      ...(this.#cut.length ? { timedOut: true } : {}),
      // The error's details, as a thrown ToolError shows them: where a stopped navigation
      // left the tab (blocked-by-policy), the fields a form's validation stopped on, ….
      ...error?.details,
      tokensEstimate: null,
      warnings,
      error: error ? { code: error.code, message: error.message, hint: error.hint } : null,
    };
  }
}

/** Actions whose keys or value go to a ref's element (a click has the press guard). */
const KEYED = new Set(["press", "fill", "select", "type"]);

/**
 * The warning for writes without an answer when the result was taken (`mutations[].pending`):
 * they may still reach the server, so the agent checks before sending again.
 */
function pendingWritesWarning(pending: Mutation[]): string {
  const which = pending.slice(0, 3).map((m) => `${m.method} ${m.urlPattern}`).join(", ");
  return `${pending.length === 1 ? "a write has" : `${pending.length} writes have`} no answer ` +
    `yet (${which}; network.mutations pending: true): it may still reach the server; do not ` +
    "send it again before checking the page or network_read";
}
