/**
 * plan / execute (seed 000): an intent bound to the element find ranks first, dispatched later
 * verbatim; refused before anything runs when expired, ref-gone or invalid; and never a way
 * around a gate (capability, the submit guard and its hook, the allowlist).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("plan/execute: an intent planned, executed verbatim, refused when stale", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    await t.step(
      "plan binds the top candidate; execute runs it and returns its ActionResult",
      async () => {
        await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
        const d = await mcp.ok("plan", {
          query: "Name field",
          verb: "fill",
          verbArgs: { value: "Ada" },
        });
        const evidence = d.evidence as R;
        assertEquals([d.verb, evidence.role, evidence.name], ["fill", "textbox", "Name"]);
        assertTrue(/^e\d+$/.test(String(d.ref)), String(d.ref));
        assertTrue(Number(d.expiresAt) > Date.now() + 50_000, "default TTL about 60 s");
        const r = await mcp.ok("execute", { descriptor: d });
        assertEquals(r.ok, true);
        assertEquals(((r.result as R).element as R).value, "Ada");
        assertTrue(Number(r.tokensEstimate) > 0);
        // A client that reads the text (where an empty object is left out) can pass it back.
        const hover = await mcp.ok("plan", { query: "Sign up button", verb: "hover" });
        const { args: _args, ...fromText } = hover;
        const hovered = await mcp.ok("execute", { descriptor: fromText, snapshot: "none" });
        assertEquals(hovered.ok, true);
        // The same ref as the snapshot's: the agent can read it there.
        const tree = String((await mcp.ok("snapshot")).tree);
        assertIncludes(tree.split("\n").find((l) => l.includes(`[ref=${d.ref}]`)) ?? "", "Ada");
      },
    );

    await t.step("refusals: tampered, malformed, expired, ref-gone — nothing runs", async () => {
      const d = await mcp.ok("plan", {
        query: "Name field",
        verb: "fill",
        verbArgs: { value: "B" },
      });
      const tampered = await mcp.call("execute", {
        descriptor: { ...d, args: { value: "Mallory" } },
      });
      assertEquals(errorOf(tampered).code, "invalid-argument");
      assertIncludes(textOf(tampered), "differs from the one plan returned");
      const malformed = await mcp.call("execute", { descriptor: { ...d, verb: "drag" } });
      assertEquals(errorOf(malformed).code, "invalid-argument");
      const short = await mcp.ok("plan", {
        query: "Name field",
        verb: "fill",
        verbArgs: { value: "C" },
        ttlMs: 1000,
      });
      await eventually(() => Date.now() > Number(short.expiresAt) + 10, 5000, "the plan expires");
      const expired = await mcp.call("execute", { descriptor: short });
      assertEquals(errorOf(expired).code, "expired");
      // A navigation replaces the document: its refs are gone.
      await mcp.ok("navigate", { url: fx.url("form.html?again=1"), snapshot: "none" });
      const gone = await mcp.call("execute", { descriptor: d });
      assertEquals(errorOf(gone).code, "ref-gone");
      const tree = String((await mcp.ok("snapshot")).tree);
      assertTrue(!/textbox "Name"[^\n]*value: "B"/.test(tree) && !tree.includes("Mallory"));
    });

    await t.step(
      "bad input: unknown verb args, a floor nobody reaches, nothing found",
      async () => {
        const badArgs = await mcp.call("plan", { query: "Name field", verb: "fill" });
        assertEquals(errorOf(badArgs).code, "invalid-argument");
        assertIncludes(textOf(badArgs), "fill needs value");
        // A partial description scores below 1: a floor above its score refuses to bind.
        const loose = await mcp.ok("plan", { query: "sign", verb: "click" });
        const score = Number((loose.evidence as R).score);
        assertTrue(score < 1, `a partial match scores below 1 (${score})`);
        const floor = await mcp.call("plan", {
          query: "sign",
          verb: "click",
          confidenceFloor: (score + 1) / 2,
        });
        assertEquals(errorOf(floor).code, "not-found");
        assertIncludes(textOf(floor), "confidenceFloor");
        const none = await mcp.call("execute", { descriptor: {} });
        assertEquals(errorOf(none).code, "invalid-argument");
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("plan/execute: execute is never a way around a gate", async (t) => {
  const fx = await startFixtureServer();
  const guard = fx.url(`guard.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
  await t.step("without the action capability execute is refused; plan still reads", async () => {
    const mcp = await startStdio({
      env: { BROWX_TOOLSETS: "core,power", BROWX_CAPABILITIES: "read,navigation" },
    });
    try {
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      const d = await mcp.ok("plan", { query: "Sign up button", verb: "click" });
      const r = await mcp.call("execute", { descriptor: d });
      assertEquals(r.isError, true);
      assertEquals(r.structuredContent?.requiredCapability, "action");
      assertEquals(fx.requests.filter((q) => q.path.startsWith("/api/echo")).length, 0);
    } finally {
      await mcp.close();
    }
  });

  await t.step(
    "the submit guard, its hook and the allowlist hold for a planned click",
    async () => {
      const mcp = await startStdio({
        env: {
          BROWX_TOOLSETS: "core,power",
          BROWX_ALLOWED_ORIGINS: "127.0.0.1",
          BROWX_CONFIRM_REQUIRED: "submit",
        },
      });
      try {
        await mcp.ok("navigate", { url: guard, snapshot: "none" });
        const send = await mcp.ok("plan", { query: "Send button", verb: "click" });
        const undeclared = await mcp.call("execute", { descriptor: send });
        assertEquals(errorOf(undeclared).code, "blocked-by-policy");
        const declared = await mcp.ok("plan", {
          query: "Send button",
          verb: "click",
          verbArgs: { submits: true },
        });
        const hooked = await mcp.call("execute", { descriptor: declared });
        assertEquals(hooked.isError, true, "no channel can answer the submit hook");
        assertTrue(errorOf(hooked).code !== "internal", textOf(hooked));
        const away = await mcp.ok("plan", { query: "Away link", verb: "click" });
        const off = await mcp.call("execute", { descriptor: away });
        assertEquals(errorOf(off).code, "blocked-by-policy");
        assertEquals(fx.requests.filter((q) => q.path.startsWith("/api/echo")).length, 0);
        assertEquals(fx.requests.filter((q) => q.server === "cross").length, 0);
      } finally {
        await mcp.close();
      }
    },
  );
  await fx.close();
});
