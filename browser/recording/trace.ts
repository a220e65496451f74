/**
 * A Chrome performance trace of a session (`trace_start` / `trace_stop`), the file DevTools'
 * Performance panel opens (`{"traceEvents":[…],"metadata":{…}}`). One trace per session at a
 * time, kept in the session's slots, so a closed session's trace goes with it; its tab's
 * `Tracing.end` is sent as the session closes.
 *
 * CDP: `Tracing.start` (`transferMode: "ReturnAsStream"`, JSON), `Tracing.end`, the event
 * `Tracing.tracingComplete` (the stream handle), `IO.read`, `IO.close`.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ProtocolError } from "../../cdp/errors.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { SessionSlot } from "../sessions/session_slots.ts";
import { currentMasker } from "../secret_scope.ts";
import { ToolError } from "../tool_error.ts";
import { readIoStream } from "./io_stream.ts";

/**
 * The categories DevTools' Performance panel records (as Puppeteer's `page.tracing` takes
 * them): `-*` drops the rest; `navigationStart` is in `blink.user_timing`, `RunTask` in
 * `toplevel`.
 */
export const DEFAULT_TRACE_CATEGORIES: readonly string[] = [
  "-*",
  "devtools.timeline",
  "v8.execute",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "toplevel",
  "blink.console",
  "blink.user_timing",
  "latencyInfo",
  "loading",
  "disabled-by-default-devtools.timeline.stack",
  "disabled-by-default-v8.cpu_profiler",
];

/** The category of the page screenshots a trace can carry. */
const SCREENSHOT_CATEGORY = "disabled-by-default-devtools.screenshot";

/** Largest trace read back, bytes. */
export const MAX_TRACE_BYTES = 512 * 1024 * 1024;

/** A trace that runs. */
interface TraceRun {
  /** The tab whose session traces. */
  page: Page;
  /** Epoch ms. */
  startedAt: number;
  categories: string[];
  /** Removes the session-close hook. */
  unhook: () => void;
}

const TRACE = new SessionSlot<TraceRun>("trace");

/** What {@link startTrace} started. */
export interface TraceStarted {
  categories: string[];
  /** The traced tab's URL when it started. */
  url: string;
}

/**
 * Starts tracing `session` on its active tab `page`.
 *
 * @param options.categories Replaces {@link DEFAULT_TRACE_CATEGORIES} (`-name` excludes).
 * @param options.screenshots Adds page screenshots (refused while secrets are masked: the
 *   frames cannot be covered).
 * @throws ToolError `refused` (a trace runs already, in this session or, Chromium tracing one
 *   at a time, another of its browser; screenshots under masking; the session's Chromium
 *   serves other clients too: a trace records the whole browser, their pages included).
 */
export async function startTrace(
  session: BrowserSession,
  page: Page,
  options: { categories?: string[] | undefined; screenshots?: boolean | undefined },
  call: { signal?: AbortSignal | undefined },
): Promise<TraceStarted> {
  let running = session.slots.get(TRACE);
  // A trace whose tab closed went with it: nothing runs any more.
  if (running?.page.isClosed) {
    running.unhook();
    session.slots.delete(TRACE);
    running = undefined;
  }
  if (session.sharedWithClients) {
    // A trace is the whole browser's (every renderer, the network service, screenshots of
    // whatever draws): another client's URLs and titles would be in this client's file.
    throw new ToolError(
      "refused",
      `Cannot trace session "${session.id}": its Chromium serves other MCP clients too ` +
        "(BROWX_HTTP_BROWSERS=shared, --cdp-endpoint or --shared-browser-context), and a trace " +
        "records the whole browser, their pages included",
      "trace where the browser is this client's alone: a server with a Chromium per HTTP " +
        "client (BROWX_HTTP_BROWSERS=per-client, the default) or over stdio",
    );
  }
  if (running) {
    throw new ToolError(
      "refused",
      `A trace already runs in session "${session.id}" (started ${
        new Date(running.startedAt).toISOString()
      })`,
      "call trace_stop to save it first; one trace per session at a time",
    );
  }
  if (options.screenshots && currentMasker()) {
    throw new ToolError(
      "refused",
      "A trace with screenshots cannot cover registered secrets, and results are masked",
      "trace without screenshots, or take screenshot calls (secrets are boxed over)",
    );
  }
  const categories = [
    ...(options.categories ?? DEFAULT_TRACE_CATEGORIES),
    ...(options.screenshots ? [SCREENSHOT_CATEGORY] : []),
  ];
  // Claimed before the first await: a second start in the meantime is refused.
  const run: TraceRun = { page, startedAt: Date.now(), categories, unhook: () => {} };
  session.slots.set(TRACE, run);
  try {
    await page.session.send("Tracing.start", {
      transferMode: "ReturnAsStream",
      streamFormat: "json",
      traceConfig: {
        recordMode: "recordAsMuchAsPossible",
        includedCategories: categories.filter((c) => !c.startsWith("-")),
        excludedCategories: categories.filter((c) => c.startsWith("-")).map((c) => c.slice(1)),
      },
    }, { signal: call.signal });
  } catch (e) {
    session.slots.delete(TRACE);
    if (e instanceof ProtocolError && /already/i.test(e.originalMessage)) {
      throw new ToolError(
        "refused",
        `Chromium is tracing already (${e.originalMessage}): it records one trace at a time, and another session of this browser runs one`,
        "stop the other trace first, or trace in a session with its own browser",
      );
    }
    throw e;
  }
  // A session that closes ends its trace (its tab may outlive it: an attached browser).
  const end = () => {
    page.session.send("Tracing.end").catch(() => {});
  };
  session.closedSignal.addEventListener("abort", end, { once: true });
  run.unhook = () => session.closedSignal.removeEventListener("abort", end);
  return { categories, url: page.url };
}

/** A stopped trace: the JSON file's bytes. */
export interface TraceStopped {
  bytes: Uint8Array;
  /** Chromium's buffer filled and events were dropped. */
  dataLossOccurred: boolean;
  /** How long it ran, ms. */
  durationMs: number;
}

/**
 * Stops `session`'s trace and reads it back; under masking, registered values in it are
 * masked (URLs, console text, names), as in results.
 *
 * @throws ToolError `refused` when no trace runs; `page-closed` when the traced tab closed
 *   (its trace went with it); `timeout` when Chromium never handed the trace over.
 */
export async function stopTrace(
  session: BrowserSession,
  call: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<TraceStopped> {
  const run = session.slots.get(TRACE);
  if (!run) {
    throw new ToolError(
      "refused",
      `No trace runs in session "${session.id}"`,
      "call trace_start first, then act, then trace_stop",
    );
  }
  session.slots.delete(TRACE);
  run.unhook();
  const { page } = run;
  if (page.isClosed) {
    throw new ToolError(
      "page-closed",
      "The traced tab closed, and its trace went with it",
      "call trace_start again",
    );
  }
  let unsub = () => {};
  const complete = new Promise<{ stream?: string; dataLossOccurred: boolean }>((resolve) => {
    unsub = page.onEvent("Tracing.tracingComplete", (p) => resolve(p));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await page.session.send("Tracing.end", undefined, { signal: call.signal });
    const done = await Promise.race([
      complete,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ToolError("timeout", "Chromium did not hand the trace over in time", "try again"),
            ),
          call.timeoutMs,
        );
        call.signal?.addEventListener("abort", () => reject(call.signal?.reason), { once: true });
      }),
    ]);
    if (!done.stream) throw new ToolError("internal", "Chromium returned no trace stream", "retry");
    let bytes = await readIoStream(page.session, done.stream, {
      signal: call.signal,
      maxBytes: MAX_TRACE_BYTES,
      timeoutMs: call.timeoutMs,
    });
    const masker = currentMasker();
    if (masker) {
      bytes = new TextEncoder().encode(masker.maskText(new TextDecoder().decode(bytes)));
    }
    return {
      bytes,
      dataLossOccurred: done.dataLossOccurred,
      durationMs: Date.now() - run.startedAt,
    };
  } finally {
    clearTimeout(timer);
    unsub();
  }
}
