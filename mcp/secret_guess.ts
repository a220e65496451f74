/**
 * Guessing signals (red team s17 F2). Masking answers a right guess differently from a wrong
 * one: text the agent writes into a page that equals a registered value comes back as
 * `[secret:NAME]`, and a URL carrying a bound value is refused by the secret-origin guard.
 * An agent never needs to write a value in clear (it writes `{{secret:NAME}}`), so a call
 * whose arguments hold a registered value in clear (as masking finds values: any case, width,
 * JSON, percent or HTML escaping; for bound values also the guard's forms: hex, UTF-16,
 * percent-decoded twice) is treated as guessing: it is refused without saying which secret or
 * where, and the server is locked — every later call of every client is refused, alike —
 * until the operator restarts it. Locking only secret use (refusing later calls with a value
 * in clear) would keep the refusal itself an oracle at any rate after the first hit; locking
 * all makes it one answer per server life. The event goes to stderr and to the call's audit
 * line (`blocked-by-policy`, the message saying so).
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
  const read = texts.filter((t) => t.includes("<")).map((t) => t.replace(/<[^>]*>?/g, ""));
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
  if (!store.size) return undefined;
  if (store.locked) return locked(`Refused "${tool}": browxai is locked`);
  if (!holdsValue(stringsOf(args), store)) return undefined;
  store.lock(`${tool} call ${where.callId}`);
  console.error(
    `browxai: SECURITY: the arguments of a "${tool}" call (session ${
      where.session ?? "-"
    }, audit callId ${where.callId}) held a registered secret's value in clear: treated as ` +
      "guessing; every call is refused until the server restarts",
  );
  return locked(
    `Refused "${tool}": its arguments hold text that matches a registered secret, which is ` +
      "treated as guessing",
  );
}

/** The refusal of a locked server (see the module doc). */
function locked(first: string): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `${first}. Text matching a registered secret was sent in clear, so this server refuses ` +
      "every call until the operator restarts it",
    "write secrets only as {{secret:NAME}}, never their values; ask the operator to check the " +
      "audit log (stderr says which call) and restart the server",
    { policy: { rule: "secret-guess", decision: "refused" } },
  );
}
