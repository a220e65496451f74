import { assertEquals, assertIncludes, assertThrows } from "../tests/_assert.ts";
import {
  ApprovalStore,
  checkGrantRequest,
  DEFAULT_GRANT_TTL_SECONDS,
  MAX_GRANT_TTL_SECONDS,
  siteScope,
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

Deno.test("siteScope: approve for this site where policy allows it", () => {
  const r = { hook: "submit", session: "s", origin: "https://docs.example.co.uk" } as const;
  assertEquals(siteScope(r), { allowed: true, site: "example.co.uk" });
  assertEquals(siteScope({ ...r, origin: "http://127.0.0.1:8000" }), {
    allowed: true,
    site: "127.0.0.1:8000",
  });
  // Each port of an address is its own site: approving one approves no other.
  assertEquals(siteScope({ ...r, origin: "http://localhost" }), {
    allowed: true,
    site: "localhost:80",
  });
  const refused: Array<[Parameters<typeof siteScope>[0], string]> = [
    [{ ...r, hook: "publish" }, "every time"],
    [{ ...r, hook: "site_visit" }, "already approves"],
    [{ ...r, hook: "page_permission" }, "each use"],
    [{ ...r, session: undefined }, "no session"],
    [{ ...r, origin: "data:" }, "without a host"],
    [{ ...r, origin: undefined }, "without a host"],
  ];
  for (const [request, why] of refused) {
    const d = siteScope(request);
    assertEquals(d.allowed, false);
    if (!d.allowed) assertIncludes(d.why, why);
  }
});

Deno.test("ApprovalStore: forgetSession drops the session's site approvals and its own grants", () => {
  const store = new ApprovalStore();
  store.approveSite("submit", "s", "example.com");
  store.grant(["file_upload"], 60, "s");
  store.grant(["file_upload"], 60);
  assertEquals(store.coversSite("submit", "s", "example.com"), true);
  assertEquals(store.coversSite("submit", "t", "example.com"), false);
  assertEquals(store.coversSite("file_upload", "s", "example.com"), false);
  store.forgetSession("s");
  assertEquals(store.coversSite("submit", "s", "example.com"), false);
  assertEquals(store.list().map((g) => g.sessionId), [undefined]);
});
