/**
 * The ActionResult's `element`: what the acted-on element looks like after
 * the action (attached, focused, value, display text).
 *
 * @module
 */
import { callOnHandle } from "../injected/mod.ts";
import { cutClearOfSecrets } from "./secret_query.ts";
import type { ResolvedTarget } from "./target.ts";

export async function elementProbe(target: ResolvedTarget & { kind: "element" }) {
  const info = await callOnHandle<Record<string, unknown>>(target.handle, "elementInfo");
  // Texts the page sent long are cut here, never inside a secret's value.
  const cuts = info.cuts as Record<string, number> | undefined;
  delete info.cuts;
  for (const [key, max] of Object.entries(cuts ?? {})) {
    const v = info[key];
    if (typeof v === "string") info[key] = cutClearOfSecrets(v, max);
  }
  return info;
}
