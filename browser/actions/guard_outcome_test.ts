/**
 * What a result says when the secret guard stopped a request: that the guard stopped it, and
 * what became of the tab as it is (a page's own fetch never was to move it).
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "../../tests/_assert.ts";
import { leakBlocked } from "../nav_guard/secret_leaks.ts";
import { blockedNavigation } from "./guard_outcome.ts";

const TAB = "https://bank.test/login";

Deno.test("blockedNavigation: a bound secret's stopped request, said for what it was", () => {
  const doc = blockedNavigation([leakBlocked("https://evil.test/steal", "main", "PW")], TAB);
  assertEquals(doc.code, "blocked-by-policy");
  assertEquals((doc.details.policy as { rule: string }).rule, "secret-origin");
  assertIncludes(doc.message, "the secret guard stopped a request to https://evil.test");
  assertIncludes(doc.message, `the tab has not moved (${TAB})`);

  const script = blockedNavigation(
    [{ ...leakBlocked("https://evil.test/x", "main", "PW"), request: true }],
    TAB,
  );
  assertIncludes(script.message, "the secret guard stopped a request to https://evil.test");
  assertIncludes(script.message, `not a navigation; the tab is at ${TAB}`);
  assertNotIncludes(script.message, "has not moved");

  const frame = blockedNavigation(
    [{ ...leakBlocked("https://evil.test/f", "child", "PW"), subframe: true }],
    TAB,
  );
  assertIncludes(frame.message, `the frame shows "blocked by policy"; the tab is at ${TAB}`);
  assertNotIncludes(frame.message, "has not moved");
});
