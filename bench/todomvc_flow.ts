/**
 * One TodoMVC flow, written once for browxai and the peer and driven over MCP as an agent
 * would: open the app, add two todos (fill the field found by role and name in the snapshot,
 * then Enter), toggle the first, click the "Active" filter. After each step two checks, both on
 * what the server returned:
 *
 * - the result: browxai's ActionResult delta must show the change (the todo added, the count,
 *   the toggle checked, the filtered todo gone); the peer's result carries a whole-page snapshot
 *   (inline or a linked file), which must show the state;
 * - the page: a fresh snapshot must show the state (polled a few seconds, so a slow app is told
 *   apart from a result that missed a change).
 *
 * @module
 */
import type { CallResult, ServerKind } from "./clients.ts";
import { fullSnapshot, linkedFile } from "./flows.ts";
import {
  countPattern,
  deltaLines,
  filterRef,
  isChecked,
  isToggleAll,
  lineWords,
  NEW_TODO_LINE,
  newTodoRef,
  refIn,
  stateMismatch,
  type TodoState,
  toggleLine,
  wordsOf,
} from "./todo_read.ts";

/** What the flow needs of an MCP client (a `BenchClient` fits). */
export interface FlowClient {
  /** Calls a tool; a tool error is `isError`, not a throw. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallResult>;
}

/** Options of {@link runTodoFlow}. */
export interface TodoFlowOptions {
  /** browxai: the session to open on the app (closed at the end); without, the default tab. */
  session?: string;
  /** The peer's working folder (it writes the snapshot files its results link there). */
  workDir?: string;
  /**
   * browxai with a session: open it with the app's URL (`open_session { url }`) instead of
   * opening it and then calling `navigate`.
   */
  openWithUrl?: boolean;
  /** How long to wait for the new-todo field after the navigation, ms (default 8000). */
  renderTimeoutMs?: number;
  /** How long a fresh snapshot may take to show a step's state, ms (default 4000). */
  settleTimeoutMs?: number;
}

/** One step's outcome. */
export interface StepReport {
  step: string;
  ok: boolean;
  /** Why it failed: `result: …` (the action's own result), `page: …` (fresh snapshots), … */
  why?: string;
  /** Wall time of the step's action call, ms. */
  ms: number;
  /** The page showed the state only in a later snapshot, this long after the action, ms. */
  lateMs?: number;
  /** Why the step was not taken though the flow passes (the app has no such control). */
  notApplicable?: string;
}

/** The flow's outcome on one app and server. */
export interface TodoFlowReport {
  ok: boolean;
  /** The new-todo field showed up in a snapshot. */
  rendered: boolean;
  steps: StepReport[];
  /** The first failed step. */
  failed?: StepReport;
  /** The navigation's result text (browxai lists the requests that failed). */
  navigateText: string;
}

/** The todos the flow adds. */
export const TODOS = ["Buy milk", "Walk the dog"] as const;
const [FIRST, SECOND] = TODOS;

/** The checked steps: the two adds, the toggle, the filter. */
export type FlowStep = "add1" | "add2" | "toggle" | "active";

/** What the page shows after each step. */
const STATES: Record<FlowStep, TodoState> = {
  add1: { shown: [FIRST], hidden: [], count: 1, done: [] },
  add2: { shown: [FIRST, SECOND], hidden: [], count: 2, done: [] },
  toggle: { shown: [FIRST, SECOND], hidden: [], count: 1, done: [FIRST] },
  active: { shown: [SECOND], hidden: [FIRST], count: 1, done: [] },
};

/** The YAML block of a peer result, or the file it links. */
async function peerSnapshot(r: CallResult, workDir: string | undefined): Promise<string> {
  const linked = await linkedFile(r.text, workDir);
  if (linked !== undefined) return linked;
  const m = /```yaml\n([\s\S]*?)```/.exec(r.text);
  return m ? m[1]! : "";
}

async function snapshotText(c: FlowClient, kind: ServerKind, session?: string): Promise<string> {
  if (kind === "peer") {
    const r = await c.call("browser_snapshot", {});
    return r.isError ? "" : await peerSnapshot(r, undefined);
  }
  const s = await fullSnapshot(c as Parameters<typeof fullSnapshot>[0], kind, session);
  return s.error ? "" : s.text;
}

/**
 * What browxai's ActionResult delta fails to show of `step`'s change, or undefined. A result
 * whose `snapshotDelta` is the whole page (mode `full`) is checked as a page.
 */
export function deltaMismatch(
  delta: { mode?: unknown; tree?: unknown } | undefined,
  step: FlowStep,
): string | undefined {
  const want = STATES[step];
  const tree = typeof delta?.tree === "string" ? delta.tree : "";
  if (delta?.mode === "full") return stateMismatch(tree, want);
  if (tree.trim() === "") return "the delta is empty (unchanged)";
  const lines = deltaLines(tree);
  const added = lines.filter((l) => l.mark === "+").map((l) => l.line);
  const showsIn = (ls: string[], t: string) =>
    ls.some((l) => !/textbox/.test(l) && lineWords(l).includes(t));
  if (step === "add1" || step === "add2") {
    const todo = step === "add1" ? FIRST : SECOND;
    if (!showsIn(added, todo)) return `no added line shows "${todo}"`;
  }
  if (step !== "active" && !countPattern(want.count).test(wordsOf(added))) {
    return `no added line shows "${want.count} item(s) left"`;
  }
  if (step === "toggle") {
    const checked = added.some((l) => /\bcheckbox\b/.test(l) && isChecked(l) && !isToggleAll(l));
    if (!checked) return "no checkbox shown checked";
  }
  if (step === "active") {
    const removed = lines.filter((l) => l.mark === "-").map((l) => l.line);
    const kept = lines.filter((l) => l.mark !== "-").map((l) => l.line);
    if (!showsIn(removed, FIRST) || showsIn(kept, FIRST)) return `"${FIRST}" not shown gone`;
    if (showsIn(removed, SECOND) && !showsIn(kept, SECOND)) return `"${SECOND}" shown gone`;
  }
  return undefined;
}

/** Runs the flow; never throws for a failing step (the report says which and why). */
export async function runTodoFlow(
  c: FlowClient,
  kind: ServerKind,
  url: string,
  options: TodoFlowOptions = {},
): Promise<TodoFlowReport> {
  const session = options.session;
  const steps: StepReport[] = [];
  // browxai reports the page's uncaught errors in its results: a failure is told with them.
  const pageErrors = new Set<string>();
  const noteErrors = (r: CallResult) => {
    const errs = r.structured?.pageErrors;
    if (Array.isArray(errs)) { for (const e of errs) pageErrors.add(String(e).slice(0, 120)); }
  };
  const report = (rendered: boolean, navigateText: string): TodoFlowReport => {
    const failed = steps.find((st) => !st.ok);
    if (failed && pageErrors.size) {
      failed.why = `${failed.why ?? ""} (page errors: ${[...pageErrors].join("; ")})`;
    }
    return { ok: !failed, rendered, steps, ...(failed ? { failed } : {}), navigateText };
  };

  if (kind === "browxai" && session) {
    const opened = await c.call(
      "open_session",
      options.openWithUrl ? { session, url } : { session },
    );
    if (opened.isError) {
      steps.push({ step: "open", ok: false, ms: opened.ms, why: opened.text.slice(0, 200) });
      return report(false, opened.text);
    }
    try {
      const nav = options.openWithUrl ? opened : undefined;
      return await flowSteps(c, kind, url, options, steps, report, noteErrors, nav);
    } finally {
      await c.call("close_session", { session });
    }
  }
  return await flowSteps(c, kind, url, options, steps, report, noteErrors);
}

/** The flow's steps from the navigation on (see {@link runTodoFlow}). */
async function flowSteps(
  c: FlowClient,
  kind: ServerKind,
  url: string,
  options: TodoFlowOptions,
  steps: StepReport[],
  report: (rendered: boolean, navigateText: string) => TodoFlowReport,
  noteErrors: (r: CallResult) => void,
  opened?: CallResult,
): Promise<TodoFlowReport> {
  const { session, workDir } = options;
  const s = (args: Record<string, unknown>) => session ? { ...args, session } : args;
  const nav = opened ??
    (kind === "peer"
      ? await c.call("browser_navigate", { url })
      : await c.call("navigate", s({ url, snapshot: "none" })));
  noteErrors(nav);
  steps.push({ step: "open", ok: !nav.isError, ms: nav.ms });
  if (nav.isError) {
    steps[0]!.why = nav.text.replace(/\s+/g, " ").slice(0, 200);
    return report(false, nav.text);
  }
  // The answer said the page had not settled (a busy machine; an app that fetches its modules
  // after the load): as an agent would, wait until the network is idle before acting.
  if (kind === "browxai" && /had not settled|still loading/.test(nav.text)) {
    const waited = await c.call("wait_for", s({ loadState: "networkidle" }));
    noteErrors(waited);
  }
  let page = "";
  const renderBy = Date.now() + (options.renderTimeoutMs ?? 8000);
  while (!NEW_TODO_LINE.test(page) && Date.now() < renderBy) {
    page = await snapshotText(c, kind, session);
    if (!NEW_TODO_LINE.test(page)) await new Promise((r) => setTimeout(r, 200));
  }
  if (!NEW_TODO_LINE.test(page)) {
    steps[0]!.ok = false;
    steps[0]!.why = `no textbox "What needs to be done?" in the snapshot`;
    return report(false, nav.text);
  }

  const lines = () => page.split("\n");
  const act = async (
    step: FlowStep,
    label: string,
    target: string | undefined,
    call: (ref: string) => Promise<CallResult>,
  ): Promise<boolean> => {
    if (!target && step === "active" && !/\bActive\b/.test(wordsOf(lines()))) {
      // Older TodoMVC apps have no filters: nothing to check, and nothing wrong.
      steps.push({ step: label, ok: true, ms: 0, notApplicable: "the app has no Active filter" });
      return true;
    }
    if (!target) {
      steps.push({ step: label, ok: false, ms: 0, why: "no ref for it in the snapshot" });
      return false;
    }
    const r = await call(target);
    noteErrors(r);
    const st: StepReport = { step: label, ok: !r.isError, ms: r.ms };
    steps.push(st);
    if (r.isError) {
      st.why = r.text.replace(/\s+/g, " ").slice(0, 240);
      return false;
    }
    const resultWrong = kind === "peer"
      ? stateMismatch(await peerSnapshot(r, workDir), STATES[step])
      : deltaMismatch(
        r.structured?.snapshotDelta as { mode?: unknown; tree?: unknown } | undefined,
        step,
      );
    const t0 = Date.now();
    let pageWrong: string | undefined;
    for (let first = true;; first = false) {
      page = await snapshotText(c, kind, session);
      pageWrong = stateMismatch(page, STATES[step]);
      if (!pageWrong) {
        if (!first) st.lateMs = Date.now() - t0;
        break;
      }
      if (Date.now() - t0 > (options.settleTimeoutMs ?? 4000)) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    if (resultWrong || pageWrong) {
      st.ok = false;
      st.why = [
        resultWrong ? `result: ${resultWrong}` : "",
        pageWrong
          ? `page: ${pageWrong}`
          : resultWrong
          ? `(a snapshot ${st.lateMs ?? 0} ms later showed it)`
          : "",
      ].filter(Boolean).join("; ");
    }
    return st.ok;
  };

  const fill = (todo: string) => (ref: string) =>
    kind === "peer"
      ? c.call("browser_type", { target: ref, text: todo, submit: true })
      : c.call("fill", s({ ref, value: todo, submit: true }));
  const click = (ref: string) =>
    kind === "peer" ? c.call("browser_click", { target: ref }) : c.call("click", s({ ref }));

  // Each step finds its target in the latest snapshot, as an agent would; the first failure ends.
  const plan: Array<
    [FlowStep, string, () => string | undefined, (r: string) => Promise<CallResult>]
  > = [
    ["add1", `add "${FIRST}"`, () => newTodoRef(lines()), fill(FIRST)],
    ["add2", `add "${SECOND}"`, () => newTodoRef(lines()), fill(SECOND)],
    ["toggle", `toggle "${FIRST}"`, () => refOrUndefined(toggleLine(lines(), FIRST)), click],
    ["active", "filter Active", () => filterRef(lines(), "Active"), click],
  ];
  for (const [step, label, target, call] of plan) {
    if (!await act(step, label, target(), call)) break;
  }
  return report(true, nav.text);
}

function refOrUndefined(line: string | undefined): string | undefined {
  return line === undefined ? undefined : refIn(line);
}
