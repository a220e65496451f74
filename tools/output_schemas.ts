/**
 * Output schemas (MCP `outputSchema`) shared by several tools: the shape of their
 * `structuredContent`. A schema holds on success and on an `isError` result alike (an error
 * is `{ ok: false, error: { code, message, hint }, …details }`), so only keys present in both
 * are required; every key is typed, and keys not named are allowed (a tool's own fields).
 *
 * @module
 */
import { z } from "zod";

/** Any JSON object (typed as an object, its keys free). */
const anyObject = z.object({}).loose();

/** `error` of a result: null when the call went well (ActionResult), else what went wrong. */
export const ERROR_OUTPUT = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string(),
}).loose();

/**
 * The ActionResult (browser/actions/action_result.ts) as structuredContent: seed 000's
 * fields, typed at the top level, their insides free (each is documented on the type).
 */
export const ACTION_RESULT_OUTPUT = z.object({
  ok: z.boolean(),
  action: anyObject.optional(),
  navigation: anyObject.optional(),
  structure: anyObject.optional(),
  console: anyObject.optional(),
  pageErrors: z.array(z.string()).optional(),
  element: anyObject.optional(),
  snapshotDelta: anyObject.optional(),
  network: anyObject.optional(),
  dialogs: z.array(anyObject).optional(),
  failure: anyObject.optional(),
  downloads: z.array(anyObject).optional(),
  downloadsBlocked: z.array(anyObject).optional(),
  fileChooser: z.boolean().optional(),
  tokensEstimate: z.number().nullable().optional(),
  warnings: z.array(z.string()).optional(),
  error: ERROR_OUTPUT.nullable().optional(),
  sinceLastCall: anyObject.optional(),
}).loose();
