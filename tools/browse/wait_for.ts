/**
 * `wait_for`: wait for text, an element, a URL or a load state.
 *
 * @module
 */
import { z } from "zod";
import { isConnectionClosedError } from "../../cdp/errors.ts";
import { defineTool } from "../define_tool.ts";
import {
  DEFAULT_TIMEOUT_MS,
  refField,
  selectorField,
  sessionField,
  timeoutField,
} from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { poll } from "../../browser/poll.ts";
import { compileUrlGlob } from "../../browser/agent_pattern.ts";
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { callOnHandle, releaseHandle } from "../../browser/injected/mod.ts";
import { pageHasText } from "../../browser/actions/secret_query.ts";
import { type MatchFrame, queryFrames } from "../../browser/actions/frame_query.ts";
import { resolveRef } from "../../browser/snapshot/resolve.ts";
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";

/** One look: met or not, what was seen, and the child frame a selector matched in. */
type Look = { met: boolean; seen?: string; frame?: MatchFrame | undefined };
type Check = () => Promise<Look>;

/**
 * A ref's element, or a selector's first match in the tab: the main frame's, else the first
 * child frame's in snapshot order (as actions find it, `queryFrames`), then its visibility.
 */
async function elementCheck(
  session: BrowserSession,
  page: Page,
  ref: string | undefined,
  selector: string | undefined,
  state: "visible" | "hidden",
  signal: AbortSignal | undefined,
): Promise<Look> {
  let handle;
  let frame: MatchFrame | undefined;
  try {
    if (ref !== undefined) handle = await resolveRef(page, session.refs, ref);
    else {
      ({ handle, frame } = await queryFrames(page, session.refs, selector!, {
        signal,
        // Frames the policy refused show a note, not their document: not searched.
        skip: (url) => session.navGuard?.frameNote(url, page.url) !== undefined,
      }));
    }
  } catch (e) {
    if (e instanceof ToolError && e.code === "ref-gone") {
      return { met: state === "hidden", seen: "element gone" };
    }
    throw e;
  }
  if (!handle) return { met: state === "hidden", seen: "no match in any frame" };
  try {
    const probe = await callOnHandle(handle, "probe", [{}]);
    const visible = probe.state === "ok";
    const where = frame ? ` (in the iframe showing ${frame.url})` : "";
    return {
      met: visible === (state === "visible"),
      seen: (visible ? "visible" : probe.state) + where,
      frame,
    };
  } finally {
    releaseHandle(handle);
  }
}

/** The `wait_for` tool. */
export const waitForTool = defineTool({
  name: "wait_for",
  title: "Wait for",
  description:
    "Wait until one condition holds: text, ref, selector (any frame; frame says which), url or loadState. Returns ok (false on timeout: a result, not an error), status, waitedMs, lastSeen.",
  capability: "read",
  toolset: "core",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    text: z.string().min(1).optional().describe(
      "Page text (as snapshot shows it) contains it, any case",
    ),
    ref: refField,
    selector: selectorField,
    url: z.string().optional().describe("Glob over the whole URL, e.g. **/checkout*"),
    loadState: z.enum(["domcontentloaded", "load", "networkidle"]).optional().describe(
      "Load state to reach",
    ),
    state: z.enum(["visible", "hidden"]).optional().describe(
      "hidden: wait to disappear (default visible)",
    ),
    timeoutMs: timeoutField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const given = (["text", "ref", "selector", "url", "loadState"] as const).filter((k) =>
      args[k] !== undefined
    );
    if (given.length !== 1) {
      throw new ToolError(
        "invalid-argument",
        `"wait_for" needs exactly one condition of text, ref, selector, url, loadState; got ${
          given.length ? given.join(" and ") : "none"
        }`,
        'e.g. wait_for({ text: "Dashboard" })',
      );
    }
    if (args.state && !["text", "ref", "selector"].includes(given[0]!)) {
      throw new ToolError(
        "invalid-argument",
        `"state" applies to text, ref or selector only`,
        "drop state",
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.page();
    const state = args.state ?? "visible";
    // The call's time before this point (a browser start) is part of timeoutMs.
    const timeoutMs = Math.max(
      0,
      (args.timeoutMs ?? DEFAULT_TIMEOUT_MS) - (ctx.elapsedMs?.() ?? 0),
    );
    const started = Date.now();
    let check: Check;
    if (args.text !== undefined) {
      const text = args.text;
      check = async () => {
        // Under masking the match runs on the masked text (a secret's value never matches).
        const found = await pageHasText(page, text, 200, { signal: ctx.signal });
        const met = found.has === (state === "visible");
        if (met) return { met };
        return { met, seen: await found.seen() };
      };
    } else if (args.url !== undefined) {
      const glob = compileUrlGlob(args.url);
      check = () => {
        // The glob sees the URL as the agent reads it: masked (else **#Zq7** confirms a prefix).
        const shown = maskedForAgent(page.url);
        return Promise.resolve({ met: glob.test(shown) || shown === args.url, seen: shown });
      };
    } else if (args.loadState !== undefined) {
      const ok = await page.waitForLoadState(args.loadState, {
        timeoutMs,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      ctx.signal?.throwIfAborted();
      return {
        structured: {
          ok,
          status: ok ? "ok" : "timeout",
          waitedMs: Date.now() - started,
          ...(ok ? {} : { lastSeen: page.url }),
        },
      };
    } else {
      if (args.selector !== undefined && !args.selector.trim()) {
        throw new ToolError("invalid-argument", "Empty selector", "pass a CSS selector or text=…");
      }
      check = () => elementCheck(session, page, args.ref, args.selector, state, ctx.signal);
    }
    let last: Look = { met: false };
    const met = await poll(async () => {
      if (page.crashed || page.isClosed) {
        throw new ToolError(
          page.crashed ? "page-crashed" : "page-closed",
          `The tab ${page.crashed ? "crashed" : "closed"} while waiting`,
          page.crashed
            ? "navigate (or reload) to recover the tab, then wait again"
            : 'call tabs({ action: "list" }) and switch to an open tab, or navigate to open a new one',
        );
      }
      try {
        last = await check();
      } catch (e) {
        // The page navigated mid-check: keep waiting, the next document may match.
        if (e instanceof ToolError || isConnectionClosedError(e)) throw e;
        last = { met: false, seen: `(page changing: ${(e as Error).message.slice(0, 80)})` };
      }
      return last.met;
    }, { timeoutMs, signal: ctx.signal });
    const waitedMs = Date.now() - started;
    // Where the selector matched, when not in the main frame: the agent acts there next.
    const frame = last.frame ? { frame: last.frame } : {};
    if (met) return { structured: { ok: true, status: "ok", waitedMs, ...frame } };
    // ok: false, not an error: the page never got there (seed 000), a signal to act on.
    return { structured: { ok: false, status: "timeout", waitedMs, lastSeen: last.seen ?? "" } };
  },
});
