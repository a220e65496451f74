/**
 * A selector that matches several elements alike (same role and name: four `button "Delete"`,
 * one per row) names no element: acting on the first deleted the wrong row (new user s15 #4).
 * An acting tool refuses it and lists the candidates with refs and where each sits, for the
 * agent to pick one. Where one match is clearly the actionable one (a button among a heading
 * and a paragraph reading the same), `text_choice.ts` picks it and the action goes on.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { AlikeFacts } from "../injected/page_types.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { ToolError } from "../tool_error.ts";
import type { TextCandidate } from "./text_choice.ts";

/** Candidates listed with refs at most (the rest counted). */
export const ALIKE_LISTED = 8;

/** How many of a CSS selector's matches are described to find those alike its first. */
export const CSS_DESCRIBED = 50;

/**
 * The indexes of the candidates alike the chosen one (`index`): same role and the same name,
 * a name there, seen alike (faint or not, actionable or not), the chosen one included; empty
 * when it is the only one.
 */
export function alikeIndexes(candidates: readonly TextCandidate[], index: number): number[] {
  const c = candidates[index];
  if (!c?.name) return [];
  const out = candidates.flatMap((o, i) =>
    o.role === c.role && o.name === c.name && o.actionable === c.actionable &&
      !o.faint === !c.faint
      ? [i]
      : []
  );
  return out.length > 1 ? out : [];
}

/**
 * The refusal of a selector whose matches in frame `frameId` are alike (`facts`: two or more,
 * what their refs record): each gets a ref (issued in `registry` and marked shown: the agent
 * may use it at once), listed with where it sits: its row (`in list item "Bread"`), or when
 * rows do not tell them apart, what names its section (`under heading "Pro"`, `in region
 * "Team plan"`) when that does. `mask` turns page text into what the agent
 * may read (secrets masked).
 */
export function alikeError(
  page: Page,
  registry: RefRegistry,
  found: { frameId: string; selector: string; facts: readonly AlikeFacts[] },
  mask: (text: string) => string,
): ToolError {
  const { frameId, selector, facts } = found;
  const loaderId = page.frame(frameId)?.loaderId ?? "";
  const shown = facts.slice(0, ALIKE_LISTED);
  const rows = shown.map((f) => f.context[1] && f.context[1] !== f.name ? f.context[1] : "");
  // Items that no row tells apart (sections: a heading and a Buy button, thrice) are told by
  // what names their section, when that tells them apart.
  const byRow = rows.every((r, i) => r && rows.indexOf(r) === i);
  const sections = shown.map((f) => f.heading?.[1] ?? "");
  const bySection = !byRow && sections.every((h, i) => h && sections.indexOf(h) === i);
  const listed = shown.map((f, i) => {
    const target = {
      targetId: page.target.targetId,
      frameId,
      loaderId,
      instance: f.instance,
      localId: f.localId,
    };
    const [kind, text] = f.context;
    const ref = registry.refFor(target, f.role, f.name, { context: { kind, text } });
    if (bySection) {
      const [role] = f.heading!;
      const name = JSON.stringify(cut(mask(sections[i]!)));
      return { ref, where: role ? `${role} ${name}` : name };
    }
    const where = rows[i] ? cut(mask(rows[i]!)) : "";
    return { ref, where: where ? `${kind ? `${kind} ` : ""}${JSON.stringify(where)}` : "" };
  });
  registry.markShown(listed.map((c) => c.ref));
  const first = facts[0]!;
  const what = `${first.role} ${JSON.stringify(cut(mask(first.name)))}`;
  const more = facts.length > ALIKE_LISTED ? ` and ${facts.length - ALIKE_LISTED} more` : "";
  return new ToolError(
    "invalid-argument",
    `Selector "${selector}" matches ${facts.length} elements alike (each a ${what}): it names none of them, and nothing was done`,
    `act on one by its ref: ${
      listed.map((c) =>
        c.where ? `${c.ref} ${c.where.startsWith("heading ") ? "under" : "in"} ${c.where}` : c.ref
      ).join(", ")
    }${more}`,
    { candidates: listed },
  );
}

function cut(text: string): string {
  return text.length > 60 ? text.slice(0, 59) + "…" : text;
}
