/**
 * Reading the geolocation in a page of the permission tests.
 *
 * @module
 */
import type { McpHarness } from "./_mcp.ts";

type R = Record<string, unknown>;

/** Reads the position once; `{ timeout }` when neither callback came within 3 s. */
export const POSITION = `new Promise((resolve) => {
  const t = setTimeout(() => resolve({ timeout: true }), 3000);
  navigator.geolocation.getCurrentPosition(
    (p) => { clearTimeout(t); resolve({ lat: p.coords.latitude, lon: p.coords.longitude, acc: p.coords.accuracy }); },
    (e) => { clearTimeout(t); resolve({ code: e.code }); },
  );
})`;

/** The position `POSITION` reads in the active tab. */
export async function position(mcp: McpHarness): Promise<R> {
  return (await mcp.ok("eval_js", { expression: POSITION })).value as R;
}
