/**
 * `grant_permissions`.
 *
 * Camera, microphone, geolocation and clipboard grants are recorded and given to the browser
 * per origin only after the human said yes to a page using them
 * (browser/sessions/permission_prompts.ts), so those are allowed. The others (notifications,
 * MIDI, payment handler, background sync, sensors, …) have no such prompt: the browser gets
 * them at once and would skip the human, so they take the `human-gate-override` capability.
 *
 * CDP: `Browser.grantPermissions` (replaces the origin's set), `Browser.resetPermissions`
 * (context-wide: CDP has no per-origin revoke).
 *
 * @module
 */
import { z } from "zod";
import { checkCapability } from "../../policy/capabilities.ts";
import type { Protocol } from "../../cdp/types.ts";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { shown, ToolError } from "../../browser/tool_error.ts";
import { PROMPTED } from "../../browser/sessions/permission_prompts.ts";
import { sessionField } from "../fields.ts";
import { isLoopback } from "../../policy/hosts.ts";
import { emulate } from "./emulate.ts";
import { NO_CHANNEL_HINT } from "../../policy/human_gate.ts";

type PermissionType = Protocol.Browser.PermissionType;

/** Permission names (the Permissions API's, as Playwright takes them) → CDP permission types. */
export const PERMISSION_TYPES: Record<string, PermissionType> = {
  "geolocation": "geolocation",
  "camera": "videoCapture",
  "microphone": "audioCapture",
  "clipboard-read": "clipboardReadWrite",
  "clipboard-write": "clipboardSanitizedWrite",
  "notifications": "notifications",
  "midi": "midi",
  "midi-sysex": "midiSysex",
  "payment-handler": "paymentHandler",
  "background-sync": "backgroundSync",
  "background-fetch": "backgroundFetch",
  "periodic-background-sync": "periodicBackgroundSync",
  "accelerometer": "sensors",
  "gyroscope": "sensors",
  "magnetometer": "sensors",
  "ambient-light-sensor": "sensors",
  "storage-access": "storageAccess",
  "local-fonts": "localFonts",
  "idle-detection": "idleDetection",
  "screen-wake-lock": "wakeLockScreen",
  "window-management": "windowManagement",
  "nfc": "nfc",
};

const CLEAR_NOTE =
  "permissions: [] clears every origin's grants (CDP has no per-origin revoke), not only origin's";

/**
 * Checks and canonicalises an origin (`https://a.example/x` → `https://a.example`): https, or
 * http on a loopback host (permissions need a secure context; the browser refuses others).
 *
 * @throws ToolError `invalid-argument`.
 */
export function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new ToolError(
      "invalid-argument",
      `Invalid origin ${shown(origin)}`,
      'pass an origin such as "https://maps.example.com", or leave it out for the current page\'s',
    );
  }
  if (url.origin === "null" || url.hostname.includes("*")) {
    throw new ToolError(
      "invalid-argument",
      `${shown(origin)} has no origin permissions can be granted to`,
      "pass one https origin (no wildcards)",
    );
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new ToolError(
      "invalid-argument",
      `Permissions need a secure origin; ${url.origin} is not one`,
      "pass an https origin (or http://localhost / 127.0.0.1)",
    );
  }
  return url.origin;
}

/** The `grant_permissions` tool. */
export const grantPermissionsTool = defineTool({
  name: "grant_permissions",
  title: "Grant permissions",
  description:
    "Grant permissions (geolocation, camera, microphone, clipboard-read/-write, …) to an origin, " +
    "replacing its earlier set; pages still ask the human before using them. []: clear all.",
  capability: "action",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: EMULATION_OUTPUT,
  inputSchema: z.object({
    permissions: z.array(z.string()).optional().describe("[] or omitted: clear"),
    origin: z.string().optional().describe("Default: the page's"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const names = [...new Set(args.permissions ?? [])];
    const unknown = names.filter((n) => !Object.hasOwn(PERMISSION_TYPES, n));
    if (unknown.length) {
      throw new ToolError(
        "invalid-argument",
        `Unknown permission ${unknown.slice(0, 5).map(shown).join(", ")}`,
        `use names of the Permissions API: ${Object.keys(PERMISSION_TYPES).join(", ")}`,
      );
    }
    const unprompted = names.filter((n) => !PROMPTED.includes(n));
    if (unprompted.length) {
      const d = checkCapability(
        ctx.config.capabilities,
        "human-gate-override",
        "grant_permissions",
      );
      if (!d.allowed) {
        throw new ToolError(
          "capability-required",
          `Refused "grant_permissions" of ${unprompted.join(", ")}: the browser would answer ` +
            "the page from the grant and skip the human's prompt",
          `grant only ${PROMPTED.join(", ")} (pages still ask the human), or ${d.hint}`,
          { requiredCapability: "human-gate-override" },
        );
      }
    }
    // No knob changes: emulate gives the common result shape (and the attached warning).
    return emulate(ctx, args.session, {}, async (s) => {
      let origin = "";
      let note: string | undefined;
      if (args.origin !== undefined) origin = checkOrigin(args.origin);
      else if (names.length) {
        const url = s.activePage?.url;
        const o = url ? URL.parse(url)?.origin : undefined;
        if (o && o !== "null") origin = checkOrigin(o);
        else note = "the tab shows no web page: granted to every origin";
      }
      if (names.length === 0 && args.origin !== undefined) note = CLEAR_NOTE;
      const contextId = s.browserContextId ? { browserContextId: s.browserContextId } : {};
      const browser = s.browser.connection;
      await s.emulation.permissions.setGrants(
        origin,
        names,
        ctx.confirmOutsideCalls ?? ctx.confirm,
        s.id,
        {
          // Browser.grantPermissions replaces an origin's set (denying the rest).
          grant: async (o, set) => {
            await browser.send("Browser.grantPermissions", {
              permissions: [...new Set(set.map((n) => PERMISSION_TYPES[n]!))],
              ...(o ? { origin: o } : {}),
              ...contextId,
            });
          },
          reset: async () => {
            await browser.send("Browser.resetPermissions", contextId);
          },
        },
      );
      if (s.emulation.permissions.armed) {
        await s.emulation.installPrompts(s.tabs.filter((p) => !p.isClosed).map((p) => p.session));
      }
      // Each page's use of these is a person's yes: with nobody to ask, every use is refused.
      const asked = names.filter((n) => PROMPTED.includes(n));
      const nobody = asked.length > 0 && ctx.humanChannels?.().length === 0;
      return {
        applied: { permissions: names, ...(origin ? { origin } : {}) },
        ...(note ? { note } : {}),
        ...(nobody
          ? {
            warnings: [
              `no human channel is connected now: a page's use of ${asked.join(", ")} asks a ` +
              `person each time and is refused while nobody can be asked; ${NO_CHANNEL_HINT}`,
            ],
          }
          : {}),
      };
    });
  },
});
