/**
 * Output schemas (MCP `outputSchema`): the shape of a tool's `structuredContent`. A schema
 * holds on success and on an `isError` result alike (an error is
 * `{ ok: false, error: { code, message, hint }, …details, sinceLastCall? }`, mcp/render.ts), so
 * a tool's own keys are optional (an error carries none of them) and only `ok` of an
 * ActionResult is required; every key is typed (the MCP Inspector's strict lint flags a schema
 * that accepts anything), and keys not named are allowed (`.loose()`).
 *
 * They are for the client (which validates every result against them), not for the model:
 * hosts give the model a tool's name, description and input schema only.
 *
 * @module
 */
import { z } from "zod";

/** Any JSON object (typed as an object, its keys free). */
export const anyObject = z.object({}).loose();

/** Any JSON value, one typed branch per JSON type (a schema with no type is flagged by lints). */
export const anyValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  anyObject,
]);

/** An array of JSON objects. */
export const objectList = z.array(anyObject);

/** `error` of a result: null when the call went well (ActionResult), else what went wrong. */
export const ERROR_OUTPUT = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string(),
}).loose();

/**
 * The keys any result may carry: `ok`, `error` and the details every refusal adds
 * (`requiredCapability` of a capability refusal, `policy` of a confirm hook or navigation
 * rule), and the session's news (`sinceLastCall`, browser/since_last_call.ts).
 */
const COMMON = {
  ok: z.boolean(),
  error: ERROR_OUTPUT.nullable(),
  requiredCapability: z.string(),
  policy: anyObject,
  sinceLastCall: anyObject,
};

/**
 * The output schema of a tool whose result has the keys of `shape` (each optional: an error
 * result has none of them) besides the {@link COMMON} ones. Extra keys are allowed.
 */
export function resultOutput(shape: z.ZodRawShape = {}): z.ZodObject {
  return z.object({ ...COMMON, ...shape }).partial().loose();
}

/**
 * The ActionResult (browser/actions/action_result.ts) as structuredContent: seed 000's
 * fields, typed at the top level, their insides free (each is documented on the type).
 * A tool whose action adds keys of its own (`moved`, `selected`) extends it with
 * {@link actionOutput}.
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
  dialogs: objectList.optional(),
  failure: anyObject.optional(),
  downloads: objectList.optional(),
  downloadsBlocked: objectList.optional(),
  fileChooser: z.boolean().optional(),
  tokensEstimate: z.number().nullable().optional(),
  warnings: z.array(z.string()).optional(),
  error: ERROR_OUTPUT.nullable().optional(),
  requiredCapability: z.string().optional(),
  policy: anyObject.optional(),
  sinceLastCall: anyObject.optional(),
}).loose();

/** {@link ACTION_RESULT_OUTPUT} with a tool's own keys (each optional). */
export function actionOutput(shape: z.ZodRawShape): z.ZodObject {
  return ACTION_RESULT_OUTPUT.extend(z.object(shape).partial().shape);
}

/**
 * The result of the emulation tools (`set_viewport`, `set_locale`, …; tools/emulation/emulate.ts):
 * what was applied, the session's whole emulation state, and a tool's own extras.
 */
export const EMULATION_OUTPUT: z.ZodObject = resultOutput({
  session: z.string(),
  applied: anyObject,
  reset: z.array(z.string()),
  state: anyObject,
  warnings: z.array(z.string()),
  geometry: anyObject.nullable(),
  note: z.string(),
});

/** `read_form` and `review_form`: a form's fields, controls, drafts and editors. */
export const FORM_OUTPUT: z.ZodObject = resultOutput({
  url: z.string(),
  form: anyObject.nullable(),
  formCount: z.number(),
  fields: objectList,
  hiddenInputs: z.number(),
  submitText: objectList,
  submitNote: z.string(),
  drafts: objectList,
  draftState: z.string(),
  editors: objectList,
  attachments: objectList,
  hidden: objectList,
});

/** `takeover` and `release` (browser/human/session_control.ts `ControlResult`). */
export const CONTROL_OUTPUT: z.ZodObject = resultOutput({
  control: z.string(),
  reason: z.string(),
  consent_channel: z.string(),
  hint: z.string(),
});
