/**
 * Token counts for the bench: OpenAI's o200k tokenizer (`js-tiktoken`, whose ranks ship inside
 * the npm package, so counting works offline once the package is in Deno's cache) and the
 * `chars / 4` rule of thumb browxai uses for paging.
 *
 * @module
 */
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { estimateTokens } from "../browser/snapshot/paging.ts";

/** Token figures of one text. */
export interface TokenFigures {
  /** Tokens by the o200k_base tokenizer (GPT-4o family). */
  o200k: number;
  /** UTF-16 code units (`text.length`). */
  chars: number;
  /** `ceil(chars / 4)`. */
  charsOver4: number;
}

let encoder: Tiktoken | undefined;
const memo = new Map<string, number>();

/**
 * Tokens of `text` by the o200k_base tokenizer. The first call loads the ranks (~1 s); results
 * are memoized by text (the bench sees the same snapshot in every round; a 5 MB text takes
 * ~10 s to encode).
 */
export function countTokens(text: string): number {
  if (text === "") return 0;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  encoder ??= new Tiktoken(o200kBase);
  // Special-token strings ("<|endoftext|>") in page text are ordinary text here.
  const n = encoder.encode(text, [], []).length;
  if (text.length > 10_000) memo.set(text, n);
  return n;
}

/** `ceil(text.length / 4)`: the estimate browxai pages snapshots by (the same function). */
export const charsOver4: (text: string) => number = estimateTokens;

/** All token figures of `text`. */
export function tokenFigures(text: string): TokenFigures {
  return { o200k: countTokens(text), chars: text.length, charsOver4: charsOver4(text) };
}

/**
 * What a model is given of each tool of a `tools/list` answer: its name, description and input
 * schema (hosts map MCP tools onto function definitions with exactly those; a tool's title,
 * annotations and output schema stay with the client).
 */
export function modelVisibleTools(tools: readonly unknown[]): unknown[] {
  return tools.map((t) => {
    const { name, description, inputSchema } = t as Record<string, unknown>;
    return { name, description, inputSchema };
  });
}

/** Token figures of a `tools/list` answer: what a model sees, and the whole `tools` JSON. */
export interface ToolsListFigures extends TokenFigures {
  /** o200k tokens of the whole `tools` array as sent (titles, annotations, output schemas too). */
  wireO200k: number;
}

/**
 * Tokens of a `tools/list` answer: the JSON (compact) of {@link modelVisibleTools} — what a
 * model pays on every turn — and, as `wireO200k`, of the whole `tools` array.
 */
export function toolsListTokens(tools: unknown[]): ToolsListFigures {
  return {
    ...tokenFigures(JSON.stringify(modelVisibleTools(tools))),
    wireO200k: countTokens(JSON.stringify(tools)),
  };
}
