import { assertEquals, assertIncludes, assertThrows } from "../tests/_assert.ts";
import {
  ApprovalStore,
  checkGrantRequest,
  DEFAULT_GRANT_TTL_SECONDS,
  MAX_GRANT_TTL_SECONDS,
} from "./approvals.ts";

Deno.test("checkGrantRequest: scopes and TTL", () => {
  assertEquals(checkGrantRequest(["byob_action"]), DEFAULT_GRANT_TTL_SECONDS);
  assertEquals(checkGrantRequest(["file_upload"], 60), 60);
  assertEquals(checkGrantRequest(["submit"], MAX_GRANT_TTL_SECONDS), MAX_GRANT_TTL_SECONDS);
  const bad: Array<[string[], number | undefined, string]> = [
    [[], undefined, "empty"],
    [["byob"], undefined, '"byob"'],
    [["publish"], undefined, "cannot be pre-approved"],
    [["submit"], 0, "out of range"],
    [["submit"], -5, "out of range"],
    [["submit"], MAX_GRANT_TTL_SECONDS + 1, "out of range"],
    [["submit"], Number.NaN, "out of range"],
  ];
  for (const [scopes, ttl, msg] of bad) {
    assertIncludes(assertThrows(() => checkGrantRequest(scopes, ttl), RangeError).message, msg);
  }
});

Deno.test("ApprovalStore: grant, consume, expiry, re-grant resets the TTL", () => {
  let now = 1_000_000;
  const store = new ApprovalStore(() => now);
  assertEquals(store.consume("byob_action"), undefined);
  const [g] = store.grant(["byob_action"], 60);
  assertEquals([g!.scope, g!.grantedAt, g!.expiresAt, g!.uses], [
    "byob_action",
    now,
    now + 60_000,
    0,
  ]);
  assertEquals(store.consume("byob_action", "s1")?.uses, 1);
  assertEquals(store.consume("file_upload", "s1"), undefined);
  now += 30_000;
  assertEquals(store.list().map((v) => [v.scope, v.remainingMs, v.uses]), [[
    "byob_action",
    30_000,
    1,
  ]]);
  store.grant(["byob_action"], 60);
  assertEquals(store.list()[0]!.remainingMs, 60_000);
  assertEquals(store.list()[0]!.uses, 1);
  now += 60_001;
  assertEquals(store.consume("byob_action"), undefined);
  assertEquals(store.list(), []);
});

Deno.test("ApprovalStore: a session's own grant, then one for all; publish never", () => {
  const now = 0;
  const store = new ApprovalStore(() => now);
  store.grant(["submit"], 10, "a");
  assertEquals(store.consume("submit", "b"), undefined);
  assertEquals(store.consume("submit", "a")?.sessionId, "a");
  store.grant(["submit"], 10);
  assertEquals(store.consume("submit", "b")?.sessionId, undefined);
  assertEquals(store.consume("publish", "a"), undefined);
});
