/**
 * The human-has-control gate (issue 15, seed 004): while a person has control of a session
 * (they took over in the web console, or the agent called `takeover`), every agent mutation
 * on that session is refused before it runs; reads still work. Decided once, in the call
 * pipeline, from what a tool declares — never per tool.
 *
 * @module
 */
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { ToolError } from "../../browser/tool_error.ts";
import type { ToolDefinition } from "../../tools/define_tool.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import { isAttended } from "../../browser/human/asks.ts";
import { VIEWER_GONE_MS } from "../console/approval_queue.ts";
import { toolEnabled } from "../tool_mentions.ts";

/**
 * Whether a call of `tool` may change a session's pages or state: every tool except those
 * that only read (`readOnlyHint`, or the `read` capability), the human tools (`human`
 * capability: takeover, release, asking the person), and tools that only run other calls
 * (`batch`, `execute`, `flake_check`: each inner call passes this gate itself).
 */
export function mutates(
  tool: Pick<ToolDefinition, "annotations" | "capability" | "runsInnerCalls">,
): boolean {
  return tool.annotations.readOnlyHint !== true && tool.capability !== "read" &&
    tool.capability !== "human" && !tool.runsInnerCalls;
}

/**
 * The refusal of a call of `tool` on session `id` while a person has control of it, or
 * undefined when the call may go on (a read, another session, the agent has control, or the
 * session is not open). Its hint names only what the agent can do: wait and call again (when
 * nobody watches the session any more, control comes back by itself: `control_lapse.ts`),
 * and `release()` only when that tool is enabled.
 */
export function humanControlRefusal(
  tool: Pick<ToolDefinition, "name" | "annotations" | "capability" | "runsInnerCalls">,
  id: string | undefined,
  sessions: Pick<SessionManager, "list">,
  config: Pick<ServerConfig, "headful" | "toolsets" | "capabilities" | "configReadonly">,
): ToolError | undefined {
  if (id === undefined || !mutates(tool)) return undefined;
  const session = sessions.list().find((s) => s.id === id);
  const human = session?.human;
  if (!session || !human?.humanHasControl) return undefined;
  const reason = human.control.reason;
  const watched = isAttended(session, config.headful);
  return new ToolError(
    "human-has-control",
    `Refused "${tool.name}": a person has control of session "${id}"${
      reason ? ` (${reason})` : ""
    }; nothing was done`,
    `reads still work (snapshot, find, get_url, screenshot); ${waitHint(watched)}` +
      (toolEnabled(config, "release") ? ", or call release() to ask them for it" : ""),
    {
      session: id,
      control: "human",
      // Nobody watches: control comes back within the lapse (control_lapse.ts).
      ...(watched ? {} : { retryAfterMs: VIEWER_GONE_MS }),
    },
  );
}

/** What to wait for while a person holds a session (`watched`: someone can see it). */
function waitHint(watched: boolean): string {
  return watched
    ? "the person holds the tab: wait and call again later (sinceLastCall.control says when " +
      "they hand back)"
    : `nobody watches the session now: control comes back to you within ${
      VIEWER_GONE_MS / 1000
    } s unless the person returns; call again then (sinceLastCall.control says so)`;
}

/**
 * While a mutation of `tool` on session `id` runs: calls `stop` with a `human-has-control`
 * error when a person takes control of that session meanwhile (what it does next would act
 * under their hands: the call ends at its next wait or CDP send). Returns the unsubscribe;
 * a no-op for reads and for a session that is not open yet.
 */
export function stopOnTakeover(
  tool: Pick<ToolDefinition, "name" | "annotations" | "capability" | "runsInnerCalls">,
  id: string | undefined,
  sessions: Pick<SessionManager, "list">,
  stop: (reason: ToolError) => void,
): () => void {
  if (id === undefined || !mutates(tool)) return () => {};
  const human = sessions.list().find((s) => s.id === id)?.human;
  if (!human) return () => {};
  const onChange = () => {
    if (!human.humanHasControl) return;
    stop(
      new ToolError(
        "human-has-control",
        `A person took control of session "${id}" while "${tool.name}" ran: it stopped there`,
        "snapshot to see where the page is; wait until the person hands back, and call again",
        { session: id, control: "human" },
      ),
    );
  };
  human.addEventListener("change", onChange);
  // The pipeline's gate looked before an await (the audit's start line): a person who took
  // control in between must stop the call too, not only one who takes it from now on.
  onChange();
  return () => human.removeEventListener("change", onChange);
}
