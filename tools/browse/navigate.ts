/**
 * `navigate`: load a URL in the active tab.
 *
 * @module
 */
import { z } from "zod";
import { NavigationError } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { checkNavigableUrl, requireEvalForData } from "../../browser/navigable_url.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { actingFields, downloadField } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { loadWaitHint } from "../../browser/actions/action_window.ts";
import { watchStay } from "../../browser/actions/beforeunload_stay.ts";
import { leaveLostDialog } from "../../browser/sessions/stuck_dialogs.ts";
import { gateNavigation } from "../../browser/nav_guard/navigation_gate.ts";

/** The `navigate` tool. */
export const navigateTool = defineTool({
  name: "navigate",
  title: "Navigate",
  description:
    "Load a URL in the active tab. Returns the final URL (after redirects), httpStatus, contentType, timedOut, navigation.offOrigin (landed on another host) and the page outline.",
  capability: "navigation",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: actionOutput({
    url: z.string(),
    httpStatus: z.number().nullable(),
    contentType: z.string().nullable(),
    timedOut: z.boolean(),
    errorText: z.string(),
  }),
  inputSchema: z.object({
    url: z.string().describe("Absolute URL (http, https, about:; data: needs eval)"),
    waitUntil: z.enum(["commit", "domcontentloaded", "load", "networkidle"]).optional().describe(
      "Default load",
    ),
    ...actingFields,
    ...downloadField,
  }),
  async handler(ctx, args) {
    const url = checkNavigableUrl(args.url);
    requireEvalForData(ctx.config.capabilities, url, "navigate");
    const session = await ctx.sessions.get(args.session ?? "default");
    await gateNavigation(ctx, session, {
      tool: "navigate",
      url: url.href,
      from: session.activePage?.url ?? "about:blank",
    });
    // Progress: request sent, response, DOMContentLoaded, load, then the result settled.
    const phases = ["request sent", "response", "DOMContentLoaded", "load", "settled"];
    const phase = (name: string) =>
      ctx.progress?.(phases.indexOf(name) + 1, phases.length, `navigate ${url.href}: ${name}`);
    const result = await runAction(ctx, args, {
      type: "navigate",
      requestedUrl: url.href,
      replacesDocument: true,
      actionInfo: { url: url.href },
      async perform({ session, page, deadline, signal }) {
        using stay = watchStay(session, page);
        try {
          // Navigating a tab whose dialog Chromium lost to its own URL (a reload) crashed the
          // browser: such a tab leaves for about:blank first, whatever the URL (stuck_dialogs.ts).
          await leaveLostDialog(session.dialogs, page, signal);
          const r = await page.navigate(url.href, {
            waitUntil: args.waitUntil ?? "load",
            timeoutMs: Math.max(1, deadline - Date.now()),
            signal,
            onPhase: phase,
          });
          return {
            url: page.url,
            httpStatus: r.response?.status ?? null,
            contentType: r.response?.mimeType ?? null,
            timedOut: r.timedOut,
          };
        } catch (e) {
          if (e instanceof NavigationError && stay.stayed) {
            throw new ToolError(
              "navigation-failed",
              `${e.message}: the page stayed (its beforeunload dialog was dismissed)`,
              "call handle_dialog({ accept: true }), then navigate again",
              { errorText: e.errorText },
            );
          }
          if (e instanceof NavigationError) {
            throw new ToolError(
              "navigation-failed",
              e.message,
              e.errorText.includes("NAME_NOT_RESOLVED")
                ? "check the host name"
                : e.errorText.includes("CONNECTION_REFUSED")
                ? "nothing listens at that address; check the port and that the server runs"
                : e.errorText.includes("ERR_CERT")
                ? "the site's certificate is not trusted (self-signed, expired or for another host); for a test server, the operator can start browxai with --ignore-https-errors"
                : e.errorText.includes("ERR_UNSAFE_PORT")
                ? "Chromium refuses to load that port (a port of another protocol, such as 1, 25 or 6000): use a server on another port"
                : e.errorText.includes("ERR_ABORTED")
                ? "the load was cancelled before it committed (the page or a download took it over, or another navigation replaced it): take a snapshot to see where the tab is"
                : e.errorText.includes("ERR_TIMED_OUT")
                ? "the server did not answer in time: call again with a larger timeoutMs, or check the server (the tab stopped loading and is free)"
                : "check the URL and that the site is reachable",
              { errorText: e.errorText },
            );
          }
          throw e;
        }
      },
    });
    phase("settled");
    // A load held by a slow image or pixel: say how not to wait for it.
    const waited = (args.waitUntil ?? "load") === "load" || args.waitUntil === "networkidle";
    const s = result.structured as { warnings?: string[] };
    if (waited && s.warnings) s.warnings = loadWaitHint(s.warnings);
    return result;
  },
});
