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

Deno.test("blockedNavigation: a new tab's stop, listed or closed before it was listed", () => {
  const stop = {
    url: "https://off.test/x",
    reason: "site" as const,
    frameId: "T2",
    why: "not on the allowlist",
  };
  const taken = blockedNavigation([stop], TAB);
  assertIncludes(taken.message, "the page tried to take the tab to https://off.test/x");
  const listed = blockedNavigation([stop], TAB, { openedTab: 1, openedClosed: true });
  assertIncludes(listed.message, "a new tab was to go to https://off.test/x");
  assertIncludes(listed.message, "tab 1, left blank and closed again");
  const unlisted = blockedNavigation([stop], TAB, { unlistedTab: true });
  assertIncludes(unlisted.message, "a new tab was to go to https://off.test/x");
  assertIncludes(
    unlisted.message,
    `new tab (closed again, blank); this tab has not moved (${TAB})`,
  );
  assertEquals(unlisted.details.openedTab, undefined);
});
