/**
 * A page's use of a permission an agent granted, refused (the human said no, or nobody could
 * be asked), as `permission_prompts.ts` records it, and the warning an action's result gives
 * for it.
 *
 * @module
 */

/** Refusals kept for the action results that report them. */
export const MAX_REFUSALS = 20;

/** A page's use of a granted permission, answered no (`PermissionPrompts.refusedSince`). */
export interface PermissionRefusal {
  seq: number;
  /** The entry point the page called (`getCurrentPosition`, `getUserMedia`, …). */
  api: string;
  /** The granted permissions refused. */
  kinds: string[];
  origin: string;
  /** Why: the confirm gate's refusal (no human channel, nobody answered, the human said no). */
  why: string;
}

/**
 * The warning an action's result gives for a refusal during its window: the page's request
 * failed for a reason only the audit log said, and an agent would grant again or retry.
 */
export function refusalWarning(r: PermissionRefusal): string {
  return `the page asked to use ${r.kinds.join(", ")} (${r.api}) and was refused, though ` +
    `granted (a grant lets a page ask a human; it does not answer for one): ${r.why.slice(0, 700)}`;
}
