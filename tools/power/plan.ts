/**
 * `plan`: capture an intent against the live page without acting (seed 000): the query is
 * ranked as `find` ranks it, the top candidate is bound with the verb and its arguments into
 * an ActionDescriptor that `execute` dispatches later, verbatim. The session remembers what it
 * issued (browser/intent/descriptors.ts).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, objectList, resultOutput } from "../output_schemas.ts";
import { cappedString, MAX_QUERY_CHARS, sessionField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { findInSession } from "../../browser/find/session_find.ts";
import type { FindCandidate } from "../../browser/find/find_elements.ts";
import {
  type ActionDescriptor,
  clampTtl,
  descriptorsOf,
  TTL_BOUNDS,
  verbArgsProblem,
  VERBS,
} from "../../browser/intent/descriptors.ts";

/** Alternatives a descriptor's evidence lists at most. */
const MAX_ALTERNATIVES = 4;
/**
 * `confidenceFloor` when none is given: a weaker best match is a guess (a heading with the
 * item's name for "remove it", a control matching one loose word), not a binding.
 */
export const DEFAULT_FLOOR = 0.35;

/** The `plan` tool. */
export const planTool = defineTool({
  name: "plan",
  title: "Plan an action",
  description:
    "Bind a verb to the element find ranks first for query; nothing runs. Returns an ActionDescriptor (ref, args, evidence, expiresAt) for execute.",
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    id: z.string(),
    ref: z.string(),
    verb: z.string(),
    args: anyObject,
    evidence: anyObject,
    expiresAt: z.number(),
    candidates: objectList,
  }),
  inputSchema: z.object({
    query: cappedString("a query", MAX_QUERY_CHARS).describe("The element, in words (as find)"),
    verb: z.enum(VERBS).describe("The action"),
    verbArgs: z.record(z.string(), z.unknown()).optional().describe(
      "fill: value; press: key; select: value|label|index; click: button…",
    ),
    contextRef: z.string().optional().describe("Search inside this ref"),
    confidenceFloor: z.number().min(0).max(1).optional().describe("Refuse below this score"),
    ttlMs: z.number().optional().describe(
      `Valid for (default 60000, ${TTL_BOUNDS.min}..${TTL_BOUNDS.max})`,
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const verbArgs = args.verbArgs ?? {};
    const problem = verbArgsProblem(args.verb, verbArgs);
    if (problem) {
      throw new ToolError(
        "invalid-argument",
        `Invalid verbArgs: ${problem}`,
        'e.g. plan({ query: "email field", verb: "fill", verbArgs: { value: "a@b.example" } })',
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const answer = await findInSession(session, page, {
      query: args.query,
      contextRef: args.contextRef,
      limit: MAX_ALTERNATIVES + 1,
    }, ctx.signal);
    const [top, ...rest] = answer.candidates;
    if (!top) {
      throw new ToolError(
        "not-found",
        `Nothing on the page matches "${args.query}"`,
        "describe it otherwise, or take a snapshot and use a ref",
      );
    }
    if (top.unmentioned) {
      // Another item's control ("remove Milk Frother" with only Red Mug's Remove): never bound.
      throw new ToolError(
        "not-found",
        `Nothing on the page mentions "${top.unmentioned}": the best match (${top.role} "${top.name}", score ${top.score}) is about something else`,
        "check the page has it (snapshot); if you mean that element, act on its ref from find",
        { candidates: answer.candidates.map(brief) },
      );
    }
    const floor = args.confidenceFloor ?? DEFAULT_FLOOR;
    if (top.score < floor) {
      throw new ToolError(
        "not-found",
        `The best match (${top.role} "${top.name}", score ${top.score}) is below confidenceFloor ${floor}${
          args.confidenceFloor === undefined ? " (the default)" : ""
        }`,
        "describe it more precisely, lower confidenceFloor, or pick a ref with find",
        { candidates: answer.candidates.map(brief) },
      );
    }
    const testId = top.selectorTier === "testid" ? testIdOf(top.selectorHint) : undefined;
    const descriptor: ActionDescriptor = {
      id: crypto.randomUUID(),
      ref: top.ref,
      verb: args.verb,
      args: verbArgs,
      evidence: {
        query: args.query,
        selectorHint: top.selectorHint ?? null,
        selectorTier: top.selectorTier,
        stability: top.stability,
        role: top.role,
        name: top.name,
        ...(testId !== undefined ? { testId } : {}),
        score: top.score,
        actionable: top.actionable,
        warnings: answer.warnings ?? [],
        alternatives: rest.map(brief),
      },
      expiresAt: Date.now() + clampTtl(args.ttlMs),
    };
    descriptorsOf(session.slots).issue(descriptor);
    return { structured: { ...descriptor } };
  },
});

/** A candidate as an error or the evidence lists it. */
function brief(c: FindCandidate) {
  return {
    ref: c.ref,
    role: c.role,
    name: c.name,
    score: c.score,
    ...(c.unmentioned ? { unmentioned: c.unmentioned } : {}),
  };
}

/** The test id a `[data-testid="…"]`-style hint names. */
function testIdOf(hint: string | undefined): string | undefined {
  const m = hint && /\[data-(?:testid|test-id|test|qa|cy)="((?:[^"\\]|\\.)*)"\]/.exec(hint);
  return m ? m[1]!.replace(/\\(.)/g, "$1") : undefined;
}
