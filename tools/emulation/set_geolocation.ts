/**
 * `set_geolocation`: overrides the Geolocation API's position (CDP:
 * `Emulation.setGeolocationOverride`, through the session's emulation state); pages get it
 * only with a geolocation grant (`grant_permissions`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** The `set_geolocation` tool. */
export const setGeolocationTool = defineTool({
  name: "set_geolocation",
  title: "Set geolocation",
  description: "Override the Geolocation API's position; pair with a geolocation grant.",
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
    latitude: z.number().min(-90).max(90).nullable().optional().describe("null/omitted: reset"),
    longitude: z.number().min(-180).max(180).optional(),
    accuracy: z.number().min(0).optional().describe("m; default 0"),
    session: sessionField,
  }),
  handler(ctx, { latitude, longitude, accuracy, session }) {
    if (latitude == null && longitude !== undefined) {
      throw new ToolError(
        "invalid-argument",
        "set_geolocation needs latitude with longitude",
        "pass both, or neither to reset",
      );
    }
    if (latitude != null && longitude === undefined) {
      throw new ToolError(
        "invalid-argument",
        "set_geolocation needs longitude with latitude",
        "pass both, or latitude: null to reset",
      );
    }
    const geolocation = latitude == null
      ? null
      : { latitude, longitude: longitude!, accuracy: accuracy ?? 0 };
    return emulate(ctx, session, { geolocation }, (s) => {
      const granted = Object.values(s.emulation.permissions.grants).some((p) =>
        p.includes("geolocation")
      );
      return Promise.resolve(
        geolocation && !granted
          ? {
            warnings: [
              "no geolocation grant: pages are refused the position; call " +
              'grant_permissions({ permissions: ["geolocation"] })',
            ],
          }
          : {},
      );
    });
  },
});
