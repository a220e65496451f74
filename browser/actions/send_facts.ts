/**
 * What a human approving "send a form" was told, held to after the yes: the page (its main
 * document, by loader) and what each of its forms would send (`formsSendFacts`: where, how,
 * and a hash of every field's value). A page that rewrites its form while the human reads the
 * question (another action, another amount) or goes to another document has a different page
 * from the one approved: nothing is sent, and the call fails saying what changed.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { FormSendFact } from "../injected/form_types.ts";
import { callUtility } from "../injected/mod.ts";
import { ToolError } from "../tool_error.ts";

/** The page a send question describes. */
export interface SendFacts {
  /** The main frame's URL. */
  url: string;
  /** The main document's loader (CDP `loaderId`): another document has another. */
  loader: string;
  /** Where the page's publish-armed forms are (selectors), for the publish question. */
  armed: string[];
  /** Where the forms send, in words, for the question. */
  sendsTo: string[];
  /** What each form would send; undefined when the page could not be read. */
  forms: FormSendFact[] | undefined;
}

/**
 * Reads the facts of the active tab's main document. `seed` keys the field hashes (the same
 * seed must be used for the facts compared). CDP: `Runtime.evaluate` (`formsSendInfo`).
 */
export async function sendFacts(page: Page, seed: number): Promise<SendFacts> {
  const info = await callUtility(page, page.mainFrameId, "formsSendInfo", [seed]).catch(() =>
    undefined
  );
  // After the page call: a document that replaced the one asked about is known by then.
  return {
    url: page.url,
    loader: page.frame(page.mainFrameId)?.loaderId ?? "",
    armed: info?.armed ?? [],
    sendsTo: info?.sendsTo ?? [],
    forms: info?.forms,
  };
}

/** A new key for the field hashes of one question. */
export function factsSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! | 0;
}

/**
 * What changed between the facts a human was asked about (`was`) and the page now (`now`),
 * as phrases ("form 1 sent to POST …/donate, now POST …/transfer"), empty when nothing did.
 * Field values are never quoted (a value may be a secret): only the field's name is.
 */
export function factsChanges(was: SendFacts, now: SendFacts): string[] {
  if (was.loader !== now.loader || was.url !== now.url) {
    return [`the tab shows another document (was ${was.url}, now ${now.url})`];
  }
  if (was.forms === undefined) return [];
  if (now.forms === undefined) return ["its forms could not be read again"];
  if (was.forms.length !== now.forms.length) {
    return [`it had ${was.forms.length} form(s), now ${now.forms.length}`];
  }
  const out: string[] = [];
  was.forms.forEach((w, i) => {
    const n = now.forms![i]!;
    const which = was.forms!.length > 1 ? `form ${i + 1}` : "its form";
    if (w.to !== n.to) out.push(`${which} sent to ${w.to}, now ${n.to}`);
    if (w.how !== n.how) out.push(`${which} sent with ${w.how}, now ${n.how}`);
    const buttons = (list: FormSendFact["submitters"]) =>
      list.map((b) => `${b.by}: ${b.to} (${b.how})`).join("; ") || "the form's action";
    if (buttons(w.submitters) !== buttons(n.submitters)) {
      out.push(`${which}'s buttons sent to ${buttons(w.submitters)}, now ${buttons(n.submitters)}`);
    }
    const fields = fieldChanges(w.fields, n.fields);
    if (fields.length) out.push(`${which}'s fields changed: ${fields.join(", ")}`);
  });
  return out;
}

/** The names of fields added, gone or with another value (`name=<hash>` entries). */
function fieldChanges(was: string[], now: string[]): string[] {
  const byName = (list: string[]) => {
    const m = new Map<string, string[]>();
    for (const e of list) {
      const at = e.lastIndexOf("=");
      const name = e.slice(0, at);
      m.set(name, [...m.get(name) ?? [], e.slice(at + 1)]);
    }
    return m;
  };
  const w = byName(was), n = byName(now);
  const out: string[] = [];
  for (const [name, values] of w) {
    const other = n.get(name);
    if (!other) out.push(`"${name}" gone`);
    else if (values.join() !== other.join()) out.push(`"${name}" has another value`);
  }
  for (const name of n.keys()) if (!w.has(name)) out.push(`"${name}" added`);
  // Same names and values in another order: the data sent is in another order.
  if (!out.length && was.join("\n") !== now.join("\n")) out.push("the fields are in another order");
  return out;
}

/**
 * Where the forms of `facts` send (`"METHOD url"`: each form's, each button's own), for the
 * navigation guard to hold a declared submission to.
 */
export function sendsOf(facts: SendFacts): string[] | undefined {
  return facts.forms?.flatMap((f) => [f.to, ...f.submitters.map((b) => b.to)]);
}

/**
 * The failure of a call whose page changed while a human was asked about it: nothing was
 * done; calling again asks about the page as it is now.
 */
export function changedWhileAsked(hook: string, changes: string[]): ToolError {
  return new ToolError(
    "page-changed",
    `Nothing was sent: the page changed while the human was asked to approve it (${hook}): ${
      changes.join("; ")
    }`,
    "take a snapshot to see the page as it is now; calling again asks the human about that",
    { policy: { hook, decision: "refused", changed: changes } },
  );
}
