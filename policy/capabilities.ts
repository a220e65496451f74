/**
 * Capabilities: what the operator lets the agent do. Pure functions over
 * data; the tool wrapper applies them to every call.
 *
 * @module
 */

/** Every capability a tool can require. */
export const CAPABILITIES = [
  "read",
  "navigation",
  "action",
  "human",
  "byob-attach",
  "self-approval",
  "secrets",
  "network-body",
  "eval",
  "file-io",
  "human-gate-override",
] as const;

/** One capability name. */
export type Capability = typeof CAPABILITIES[number];

/** What `BROWX_CAPABILITIES` defaults to. */
export const DEFAULT_CAPABILITIES: readonly Capability[] = ["read", "navigation", "action"];

/** True when `name` is a known capability. */
export function isCapability(name: string): name is Capability {
  return (CAPABILITIES as readonly string[]).includes(name);
}

/**
 * Parses a comma list (`"read,navigation,eval"`). Empty or undefined gives
 * the defaults; `"all"` gives every capability.
 *
 * @throws RangeError naming the unknown entries and the valid names.
 */
export function parseCapabilities(list: string | undefined): Set<Capability> {
  if (list === undefined || list.trim() === "") return new Set(DEFAULT_CAPABILITIES);
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === "all") return new Set(CAPABILITIES);
  const unknown = names.filter((n) => !isCapability(n));
  if (unknown.length) {
    throw new RangeError(
      `Unknown capability ${unknown.map((u) => `"${u}"`).join(", ")}: valid names are ${
        CAPABILITIES.join(", ")
      }`,
    );
  }
  return new Set(names as Capability[]);
}

/** The outcome of a capability check. */
export type CapabilityDecision =
  | { allowed: true }
  | { allowed: false; requiredCapability: Capability; hint: string };

/** Decides whether a tool that needs `required` may run with `enabled`. */
export function checkCapability(
  enabled: ReadonlySet<Capability>,
  required: Capability,
  toolName: string,
): CapabilityDecision {
  if (enabled.has(required)) return { allowed: true };
  return {
    allowed: false,
    requiredCapability: required,
    hint: `"${toolName}" needs the "${required}" capability, which this server does not enable; ` +
      `the operator can add it to BROWX_CAPABILITIES (now: ${[...enabled].join(",") || "none"})`,
  };
}
