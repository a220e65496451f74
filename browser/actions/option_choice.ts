/**
 * `choose_option`'s action (seed 000): pick an option of a custom combobox, listbox or menu by
 * its visible text, as a person does, inside one action (`run_action.ts`):
 *
 * 1. the trigger not `aria-expanded="true"` (and not itself a list; without `aria-expanded`,
 *    not naming a list that shows): click it open;
 * 2. find the shown option with the text: role `option`, then `menuitem*`, then by text
 *    (control_lib.ts says where), waiting for options rendered late and scrolling a list that
 *    scrolls for options further down (a virtual or lazily filled list renders them then);
 * 3. click the option (the one pointer sequence, `pointer.ts`);
 * 4. read the trigger again: `element.ownerControl` says what it showed before and after.
 *
 * A native `<select>` is set as `select` sets it (`selectOption`: input and change fired). A
 * target that labels a control by `aria-labelledby` (a label without `for`) stands for it.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";
import {
  callOnHandle,
  callOnHandleForHandle,
  releaseHandle,
  type RemoteHandle,
  withSignal,
} from "../injected/mod.ts";
import type { ControlState, OptionSearch } from "../injected/page_types.ts";
import { pause, poll } from "../poll.ts";
import { inputOf } from "./devices.ts";
import { pointerAction } from "./pointer.ts";
import { cutClearOfSecrets } from "./secret_query.ts";
import type { PerformFields } from "./action_result.ts";
import type { PerformContext } from "./action_spec.ts";

/** What to choose. */
export interface ChooseOptions {
  /** The option's visible text (or accessible name). */
  option: string;
  /** Whole text, case and all (default); false: a case-insensitive part of it. */
  exact: boolean;
}

/** The ActionResult's `element.ownerControl`: the control before and after the choice. */
export interface OwnerControl {
  /** The control's label (`""` when it has none apart from what it shows). */
  label: string;
  displayTextBefore: string;
  displayTextAfter: string;
  /** What it shows changed. */
  changed: boolean;
}

/** How long options may take to show after the control opens, ms (past the last scroll). */
const OPTION_WAIT_MS = 2000;
/** Most scrolls of a list looking for an option further down. */
const MAX_SCROLLS = 60;
/** How long the control may take to show the choice after the option's click, ms. */
const SHOW_WAIT_MS = 600;
/** Longest label or display text in the result, chars. */
const TEXT_MAX = 80;

/**
 * Does steps 1–4 (see the module doc) on the resolved trigger, as an action's `perform`.
 * CDP: `Runtime.callFunctionOn` (control_lib.ts), `Input.dispatchMouseEvent`,
 * `Input.dispatchKeyEvent` (Escape, to close a list opened for nothing).
 *
 * @returns `element.ownerControl` and warnings (several options matched, matched by text).
 * @throws ToolError invalid-argument (not a control) | not-found (no such option: the message
 *   names the options seen, `options` lists them) | not-enabled (the option is disabled) |
 *   what the pointer sequence throws (covered, ref-gone, …).
 */
export async function chooseOption(
  c: PerformContext,
  options: ChooseOptions,
): Promise<PerformFields> {
  const { target, signal } = c;
  if (target?.kind !== "element") {
    throw new ToolError("invalid-argument", "choose_option needs an element", "pass a ref");
  }
  let trigger = withSignal(target.handle, signal);
  let before = await callOnHandle(trigger, "controlState");
  // A label (aria-labelledby, no `for`) stands for the control it labels, as a <label> does.
  let labelled: RemoteHandle | undefined;
  if (!before.kind) {
    labelled = await callOnHandleForHandle(trigger, "controlLabelled");
    if (labelled) {
      trigger = withSignal(labelled, signal);
      before = await callOnHandle(trigger, "controlState").catch((e) => {
        releaseHandle(labelled!);
        throw e;
      });
    }
  }
  if (!before.kind) {
    throw new ToolError(
      "invalid-argument",
      `${before.what} is not a combobox, listbox, menu or button: there is nothing to choose from`,
      "target the control that opens the list (its combobox or button line in the snapshot); " +
        "to click an element, use click",
    );
  }
  try {
    const fields = await chooseIn(c, trigger, before, options, !labelled);
    if (labelled) {
      (fields.warnings ??= []).unshift("the target labels a control: acted on the control");
    }
    return fields;
  } finally {
    if (labelled) releaseHandle(labelled);
  }
}

/** Steps 1–4 on a control (`before`: its state); `atTarget`: it is the resolved target itself. */
async function chooseIn(
  c: PerformContext,
  trigger: RemoteHandle,
  before: ControlState,
  options: ChooseOptions,
  atTarget: boolean,
): Promise<PerformFields> {
  const { page, deadline, signal } = c;
  if (before.kind === "select") return await chooseNative(trigger, before, options);
  const opened = !before.expanded;
  if (opened) {
    // What shows before it opens is not its list (another control's, always shown).
    await callOnHandle(trigger, "controlMark", [options.option, options.exact]);
    // The target passed actionability just now: its point is where the first attempt goes.
    await pointerAction(page, trigger, {
      press: {},
      enabled: true,
      deadline,
      signal,
      ...(atTarget && c.elementPoint ? { start: c.elementPoint } : {}),
    });
  }
  const found = await findOption(trigger, options, deadline, signal);
  if (found.state === "none") {
    // Leave the page as it was: a list opened only to look closes again.
    const open = opened && await closeList(c, trigger, options);
    throw noSuchOption(before, options, found.options, found.total, open);
  }
  if (found.disabled) {
    const open = opened && await closeList(c, trigger, options);
    throw new ToolError(
      "not-enabled",
      `Option ${JSON.stringify(found.name)} of ${before.what} is disabled${open ? STILL_OPEN : ""}`,
      "choose another option",
      open ? { listOpen: true } : undefined,
    );
  }
  const option = await callOnHandleForHandle(trigger, "controlOption");
  if (!option) {
    throw new ToolError(
      "not-found",
      `Option ${JSON.stringify(found.name)} went away before it could be clicked`,
      "call choose_option again",
    );
  }
  try {
    await pointerAction(page, option, {
      press: {},
      enabled: true,
      deadline,
      signal,
      what: `option ${JSON.stringify(found.name.slice(0, 40))}`,
    });
  } finally {
    releaseHandle(option);
  }
  const warnings: string[] = [];
  if (found.matches > 1) {
    warnings.push(
      `${found.matches} options match ${JSON.stringify(options.option)}; chose the first`,
    );
  }
  if (found.via === "text") {
    warnings.push("no element of role option or menuitem showed: chose the element by its text");
  }
  const after = await shownAfter(trigger, before, deadline, signal);
  if (!after) warnings.push("the control was re-rendered as a new element: take a snapshot");
  return { element: { ownerControl: owner(before, after) }, warnings };
}

/** What an error adds when the list it opened would not close. */
const STILL_OPEN =
  "; the list it opened is still open (the page ignored Escape and a second click on the control)";
/** How long a list may take to close after Escape or the second click, ms. */
const CLOSE_WAIT_MS = 400;

/**
 * Closes a list opened only to look: Escape, and when the page ignores it, a second click on
 * the control that opened it (as a person does; nothing else is clicked). CDP:
 * `Input.dispatchKeyEvent`, `Input.dispatchMouseEvent`.
 *
 * @returns whether the list still shows (the control says it is expanded, or its options show).
 */
async function closeList(
  c: PerformContext,
  trigger: RemoteHandle,
  options: ChooseOptions,
): Promise<boolean> {
  const { page, signal } = c;
  const closed = () =>
    poll(async () => {
      const state = await callOnHandle(trigger, "controlState").catch(() => undefined);
      if (!state || state.expanded) return !state;
      const shows = await callOnHandle(trigger, "controlFind", [options.option, options.exact]);
      return shows.state === "none" && shows.total === 0;
    }, { timeoutMs: CLOSE_WAIT_MS, signal, intervalMs: 30, maxIntervalMs: 100 }).catch(() => false);
  await inputOf(page).keyboard.press("Escape", { signal }).catch(() => {});
  if (await closed()) return false;
  const deadline = Math.min(c.deadline, Date.now() + 1500);
  await pointerAction(page, trigger, { press: {}, enabled: true, deadline, signal }).catch(
    () => {},
  );
  return !await closed();
}

/** Step 2: polls `controlFind`, scrolling a list that has more, until found or time is up. */
async function findOption(
  trigger: RemoteHandle,
  options: ChooseOptions,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<OptionSearch> {
  let last: OptionSearch | undefined;
  let scrolls = 0;
  let until = Math.min(deadline, Date.now() + OPTION_WAIT_MS);
  let interval = 30;
  while (true) {
    last = await callOnHandle(trigger, "controlFind", [options.option, options.exact]);
    if (last.state === "found") return last;
    if (last.more && scrolls < MAX_SCROLLS && Date.now() < deadline) {
      if (await callOnHandle(trigger, "controlScroll")) {
        scrolls++;
        // A list that loads as it scrolls gets its own time to answer each scroll.
        until = Math.min(deadline, Date.now() + OPTION_WAIT_MS);
        await pause(30, signal);
        continue;
      }
    }
    if (Date.now() >= until) return last;
    await pause(Math.min(interval, Math.max(0, until - Date.now())), signal);
    interval = Math.min(interval * 2, 250);
  }
}

/** Step 4: the control's state once it shows the choice (or closed), undefined when it is gone. */
async function shownAfter(
  trigger: RemoteHandle,
  before: ControlState,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<ControlState | undefined> {
  let now: ControlState | undefined;
  await poll(async () => {
    now = await callOnHandle(trigger, "controlState").catch(() => undefined);
    return !now || now.displayText !== before.displayText ||
      (before.kind !== "list" && !now.expanded);
  }, {
    timeoutMs: Math.max(0, Math.min(SHOW_WAIT_MS, deadline - Date.now())),
    signal,
    intervalMs: 20,
    maxIntervalMs: 100,
  });
  return now;
}

/** The native `<select>` path: the option by its label, set as `select` sets it. */
async function chooseNative(
  trigger: RemoteHandle,
  before: ControlState,
  options: ChooseOptions,
): Promise<PerformFields> {
  const labels = before.options ?? [];
  const want = options.option.replace(/\s+/g, " ").trim();
  const index = labels.findIndex((l) =>
    options.exact ? l === want : l.toLowerCase().includes(want.toLowerCase())
  );
  if (index < 0) throw noSuchOption(before, options, labels.slice(0, 30), labels.length);
  const r = await callOnHandle(trigger, "selectOption", [{ index }]);
  if (r.error) {
    throw new ToolError("not-enabled", `Cannot choose: ${r.error}`, "choose another option");
  }
  const after = await callOnHandle(trigger, "controlState").catch(() => undefined);
  return { element: { ownerControl: owner(before, after) } };
}

function owner(before: ControlState, after: ControlState | undefined): OwnerControl {
  const cut = (s: string) => cutClearOfSecrets(s, TEXT_MAX);
  const shown = after?.displayText ?? "";
  return {
    label: cut(before.label),
    displayTextBefore: cut(before.displayText),
    displayTextAfter: cut(shown),
    changed: after !== undefined && shown !== before.displayText,
  };
}

function noSuchOption(
  control: ControlState,
  options: ChooseOptions,
  seen: string[],
  total: number,
  open = false,
): ToolError {
  const list = seen.map((s) => JSON.stringify(s)).join(", ");
  const what = `${options.exact ? "" : "containing "}${JSON.stringify(options.option)}`;
  return new ToolError(
    "not-found",
    (total
      ? `No option ${what} in ${control.what}; its options are: ${list}${
        total > seen.length ? `, … (${total} in all)` : ""
      }`
      : control.kind === "button"
      ? `No option ${what}: ${control.what} was clicked to open a list and none showed; it ` +
        "is a plain button (no aria-haspopup, aria-expanded or list it controls), so the click " +
        "may have done the button's own action"
      : `No option ${what} in ${control.what}, and no options showed after it was opened`) +
      (open ? STILL_OPEN : ""),
    (total
      ? "pass one of those options' text" + (options.exact ? " (exact: false matches a part)" : "")
      : control.kind === "button"
      ? "take a snapshot to see what the click did; choose_option is for controls that open a list"
      : "check that this is the control that opens the list (snapshot), or click it and look") +
      (open ? "; close the list (press Escape, or click outside it) before other steps" : ""),
    { options: seen, ...(open ? { listOpen: true } : {}) },
  );
}
