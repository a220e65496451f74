/**
 * What a human approving "send a form" was told, held to after the yes: the page (its main
 * document, by loader) and what each form of it and of its frames would send
 * (`formsSendFacts`: where, how, and a hash of every field's value). A page that rewrites its
 * form while the human reads the question (another action, another amount), in the main
 * document or in a frame (same-origin or not), or goes to another document has a different
 * page from the one approved: nothing is sent, and the call fails saying what changed.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { FormSendFact, SendCandidate } from "../injected/form_types.ts";
import { callOnHandle, callUtility, type RemoteHandle } from "../injected/mod.ts";
import { ToolError } from "../tool_error.ts";
import { entryChanges } from "../nav_guard/approved_data.ts";

/** How long a frame's facts may take to read, ms (a busy or hung frame is unreadable). */
const FRAME_READ_MS = 3_000;

/** The forms of one subframe (same-origin or out-of-process) a send question describes. */
export interface FrameSendFacts {
  /** The CDP frame id. */
  frameId: string;
  /** The frame's URL. */
  url: string;
  /** Its document's loader (CDP `loaderId`). */
  loader: string;
  /** What each of its forms would send; undefined when the frame could not be read. */
  forms: FormSendFact[] | undefined;
}

/** The page a send question describes. */
export interface SendFacts {
  /** The main frame's URL. */
  url: string;
  /** The main document's loader (CDP `loaderId`): another document has another. */
  loader: string;
  /** Where the page's publish-armed forms are (selectors; a frame's named by its URL). */
  armed: string[];
  /** Where the forms send, in words, for the question (a frame's said to be one). */
  sendsTo: string[];
  /** What each form of the main document would send; undefined when it could not be read. */
  forms: FormSendFact[] | undefined;
  /**
   * The subframes with forms, or that could not be read (either may hide a form the click
   * sends: a frame's button, or the frame's own script on the click's activation).
   */
  frames: FrameSendFacts[];
  /**
   * The ways the acted-on control sends a form of the main document, with the data
   * (`formSendData`): read only when a person may be asked (undefined otherwise, or when the
   * page could not be read).
   */
  data?: SendCandidate[] | undefined;
}

/**
 * Reads the facts of the active tab: its main document and every subframe, read side by side
 * (a frame gets {@link FRAME_READ_MS}). `seed` keys the field hashes (the same seed must be
 * used for the facts compared); `data`: also what the control acted on sends (`target`, else
 * the focused element: `formSendData`, which fires the form's `formdata` event as a send
 * does). CDP: `Runtime.evaluate` (`formsSendInfo`, once per frame), `Runtime.callFunctionOn`.
 */
export async function sendFacts(
  page: Page,
  seed: number,
  options: { data?: boolean; target?: RemoteHandle | undefined } = {},
): Promise<SendFacts> {
  const { target } = options;
  const read = (frameId: string, timeoutMs?: number) =>
    callUtility(page, frameId, "formsSendInfo", [seed], timeoutMs ? { timeoutMs } : {}).catch(
      () => undefined,
    );
  const subframes = page.frames().filter((f) => f.frameId !== page.mainFrameId);
  const [data, info, ...inFrames] = await Promise.all([
    !options.data
      ? undefined
      : (target
        ? callOnHandle(target, "formSendData")
        : callUtility(page, page.mainFrameId, "formSendData", [null])).catch(() => undefined),
    read(page.mainFrameId),
    ...subframes.map((f) => read(f.frameId, FRAME_READ_MS)),
  ]);
  const armed = [...info?.armed ?? []];
  const sendsTo = [...info?.sendsTo ?? []];
  const frames: FrameSendFacts[] = [];
  subframes.forEach((f, i) => {
    const got = inFrames[i];
    if (got && !got.forms.length) return;
    // After the page call: a document that replaced the one read is known by then.
    const now = page.frame(f.frameId);
    const url = now?.url ?? f.url;
    frames.push({ frameId: f.frameId, url, loader: now?.loaderId ?? "", forms: got?.forms });
    for (const a of got?.armed ?? []) armed.push(`${a} in the frame ${url}`);
    for (const to of got?.sendsTo ?? []) sendsTo.push(`${to} (a frame's form)`);
  });
  return {
    url: page.url,
    loader: page.frame(page.mainFrameId)?.loaderId ?? "",
    armed,
    sendsTo: [...new Set(sendsTo)].slice(0, 8),
    forms: info?.forms,
    frames,
    ...(data ? { data } : {}),
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
  const out = formsChanges(was.forms, now.forms, "");
  const nowFrames = new Map(now.frames.map((f) => [f.frameId, f]));
  for (const w of was.frames) {
    const n = nowFrames.get(w.frameId);
    nowFrames.delete(w.frameId);
    if (!n) {
      // Gone, or read with no forms now: its forms are not the ones the question told.
      if (w.forms?.length) out.push(`the frame ${w.url} no longer shows its form(s)`);
    } else if (n.loader !== w.loader || n.url !== w.url) {
      out.push(`a frame shows another document (was ${w.url}, now ${n.url})`);
    } else if (w.forms === undefined) {
      // Unreadable when asked: the question said nothing of its forms.
      if (n.forms?.length) out.push(`the frame ${n.url} now shows form(s)`);
    } else out.push(...formsChanges(w.forms, n.forms, ` in the frame ${w.url}`));
  }
  // A frame with forms the question did not tell of (added, or unreadable then).
  for (const n of nowFrames.values()) {
    out.push(
      n.forms ? `a frame with form(s) appeared (${n.url})` : `a frame could not be read (${n.url})`,
    );
  }
  return [...out, ...dataChanged(was.data, now.data)];
}

/** What changed between the forms of one document (`where` names it in the phrases). */
function formsChanges(
  was: FormSendFact[] | undefined,
  now: FormSendFact[] | undefined,
  where: string,
): string[] {
  if (was === undefined) return [];
  if (now === undefined) return [`its forms${where} could not be read again`];
  if (was.length !== now.length) return [`it had ${was.length} form(s)${where}, now ${now.length}`];
  const out: string[] = [];
  was.forEach((w, i) => {
    const n = now[i]!;
    const which = (was.length > 1 ? `form ${i + 1}` : "its form") + where;
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

/**
 * What changed in the ways the acted-on control sends (`SendFacts.data`): the form it sends
 * (a button moved to another form by its `form` attribute), where, and its data (the
 * button's own value; a `formdata` listener's additions). Field names only.
 */
function dataChanged(was: SendCandidate[] | undefined, now: SendCandidate[] | undefined): string[] {
  if (!was) return [];
  if (!now) return ["what the form sends could not be read again"];
  const forms = (list: SendCandidate[]) => [...new Set(list.map((c) => c.form + 1))].join(", ");
  if (forms(was) !== forms(now) || was.length !== now.length) {
    return [`the control acted on sends form ${forms(now) || "none"}, was form ${forms(was)}`];
  }
  // The first way that changed (the control's own, before a script's requestSubmit()).
  for (const [i, w] of was.entries()) {
    const n = now[i]!;
    const which = `form ${w.form + 1}${w.by ? ` sent by ${w.by}` : ""}`;
    const out = w.to === n.to ? [] : [`${which} went to ${w.to}, now ${n.to}`];
    const changes = entryChanges(w.entries, n.entries);
    if (changes.length) out.push(`${which} sends other data: ${changes.join(", ")}`);
    if (out.length) return out;
  }
  return [];
}

/** The names of fields added, gone or with another value (`name=<hash>` entries). */
function fieldChanges(was: string[], now: string[]): string[] {
  const pairs = (list: string[]) =>
    list.map((e) => [e.slice(0, e.lastIndexOf("=")), e.slice(e.lastIndexOf("=") + 1)] as const);
  return entryChanges(pairs(was), pairs(now));
}

/**
 * Where the forms of `facts` send (`"METHOD url"`: each form's, each button's own, the main
 * document's and its frames'), for the navigation guard to hold a declared submission to;
 * undefined when the main document's forms could not be read.
 */
export function sendsOf(facts: SendFacts): string[] | undefined {
  const of = (forms: FormSendFact[]) =>
    forms.flatMap((f) => [f.to, ...f.submitters.map((b) => b.to)]);
  return facts.forms && [...of(facts.forms), ...facts.frames.flatMap((f) => of(f.forms ?? []))];
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
