/**
 * Guessing signals (red team s17 F2). Masking answers a right guess differently from a wrong
 * one: text the agent writes into a page that equals a registered value comes back as
 * `[secret:NAME]`, and a URL carrying a bound value is refused by the secret-origin guard.
 * An agent never needs to write a value in clear (it writes `{{secret:NAME}}`), so a call
 * whose arguments hold a registered value in clear (as masking finds values: any case, width,
 * JSON, percent or HTML escaping; for bound values also the guard's forms: hex, UTF-16,
 * percent-decoded twice) is refused without saying which secret or where, nothing of it done,
 * and the event goes to stderr and to the call's audit line (`blocked-by-policy`). The server
 * is not locked: a page the agent controls can put any guesses on a page and read the masked
 * text back (red team s17 round 2), so a lock would not close that oracle, while it stopped
 * every client of the server, reads included, for an honest agent that wrote a registered user
 * name in a note (new user s17 round 2). The refusal is one bit per call; the page route is the
 * faster one, which is why low-entropy values are weak secrets (README, Secrets).
 *
 * Markup in an argument is also read as its text (tags dropped), so a value split by tags
 * (`<b>73</b><b>51</b>` in set_editor's html) counts. What this does not close: text the agent
 * gets onto a page over several calls (typed a few keys at a time) is still masked when it
 * reads back, so whole-value guesses remain confirmable at a much slower rate; low-entropy
 * values (PINs) stay weak (README, Secrets).
 *
 * @module
 */
import type { SecretStore } from "../policy/secrets.ts";
import { ToolError } from "../browser/tool_error.ts";
import { secretLeakFinder } from "../browser/nav_guard/secret_leaks.ts";
import { markupText } from "./secret_html.ts";

/** Every string (object keys included) and number of a JSON-like value, as text. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) { for (const v of value) stringsOf(v, out); }
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
  }
  return out;
}

/** True when one of `texts` holds a registered value in clear (see the module doc). */
function holdsValue(texts: readonly string[], store: SecretStore): boolean {
  // Markup read as its text too: `<b>73</b><b>51</b>` is "7351" on the page (set_editor html).
  // Read two ways (a hit in either counts): tags stripped, and as the HTML parser reads it
  // (comments to `-->`, no script/style bodies, `&#101` without its `;`).
  const marked = texts.filter((t) => t.includes("<") || t.includes("&"));
  const read = [...marked.map((t) => t.replace(/<[^>]*>?/g, "")), ...marked.map(markupText)];
  if ([...texts, ...read].some((t) => store.contains(t))) return true;
  // The guard's forms of bound values (hex, UTF-16, twice percent-encoded), as if sent to an
  // origin no secret is bound to.
  const finder = secretLeakFinder(store);
  return finder !== undefined &&
    finder("http://arguments.invalid/", texts.join("\n")) !== undefined;
}

/**
 * The refusal of a call whose arguments are a guessing signal, locking `store` (see the
 * module doc); a refusal of every call once it is locked; else undefined.
 *
 * @param tool The tool called (for the operator's stderr line).
 * @param args The arguments as sent (before validation and substitution).
 */
export function guessRefusal(
  tool: string,
  args: unknown,
  store: SecretStore,
  where: { callId: string; session?: string | undefined },
): ToolError | undefined {
  if (!store.size || !holdsValue(stringsOf(args), store)) return undefined;
  console.error(
    `browxai: SECURITY: the arguments of a "${tool}" call (session ${
      where.session ?? "-"
    }, audit callId ${where.callId}) held a registered secret's value in clear: refused as ` +
      "guessing",
  );
  return new ToolError(
    "blocked-by-policy",
    `Refused "${tool}": its arguments hold text that matches a registered secret, which is treated as guessing (audit callId ${where.callId}); nothing was done`,
    "write secrets only as {{secret:NAME}}, never their values, and call again without that text",
    { policy: { rule: "secret-guess", decision: "refused" } },
  );
}
