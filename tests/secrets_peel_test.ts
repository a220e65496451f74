/**
 * The red team's findings #3 and #8 (session 13), performed over MCP stdio with real
 * Chromium. #3: the agent fills {{secret:PW}} into a plain text field, presses End+Backspace
 * (or Home+Delete) and reads what is left in clear; six calls give the whole value. A field a
 * secret was filled into is now held: it shows only exactly what that fill put in, anything
 * else as a secret field (`••••`), in every read; a page's copy of what is left is masked as
 * a part (6 characters or more). #8: a page writes the value split by zero-width characters;
 * every text output masks it.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

/** The parts of 4 or more characters of the secret that `text` shows. */
function partsIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 4 <= SECRET.length; i++) {
    const part = SECRET.slice(i, i + 4);
    if (text.includes(part)) out.push(part);
  }
  return out;
}

/** Fails when any of the result's text or structured content shows a part of the secret. */
function noPart(r: ToolResult | Record<string, unknown>, what: string): void {
  // Without zero-width spaces; and without the word "secret" (masks, `secretsCovered`),
  // which holds 4-character parts of this value ("ecre", "cret") and no other.
  const all = JSON.stringify(r).replace(/\u200b|\\u200b|\u200d|\\u200d/g, "")
    .replace(/secret/gi, "");
  assertEquals(partsIn(all), [], `${what} shows part of the secret: ${all.slice(0, 600)}`);
}

Deno.test("secrets: a filled secret peeled by keys, or split by zero-width characters, stays masked", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/a": `<title>A</title><form id=f action=/login method=post>` +
      `<label>Search <input id=q name=q></label>` +
      `<label>Notes <textarea id=n name=n></textarea></label>` +
      `<button id=go>Sign in</button></form><p id=echo></p><script>
        q.addEventListener("input", () => echo.textContent = "typed: " + q.value);
      </script>`,
    "/login": `<title>in</title><p>welcome</p>`,
    "/zw": `<meta charset=utf-8><title>zw</title><p id=z>code: ${[...SECRET].join("\u200b")}</p>` +
      `<p>tail: ${SECRET.slice(0, 8)}\u200d${SECRET.slice(8)}</p>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });

    await t.step(
      "End+Backspace: no part of the value in the delta, snapshot or any read",
      async () => {
        const filled = await mcp.call("fill", { selector: "#q", value: "{{secret:PW}}" });
        assertIncludes(textOf(filled), "[secret:PW]");
        noPart(filled, "fill");
        await mcp.ok("press", { selector: "#q", key: "End", snapshot: "none" });
        const peeled = await mcp.call("press", { key: "Backspace" });
        assertEquals(peeled.isError, undefined, textOf(peeled));
        noPart(peeled, "press Backspace");
        const snap = await mcp.call("snapshot", {});
        noPart(snap, "snapshot");
        assertTrue(/textbox "Search" \[ref=e\d+\][^\n]*: ••••/.test(textOf(snap)), textOf(snap));
        // The page's copy of what is left (15 characters) is masked as a part.
        assertIncludes(textOf(snap), "typed: [secret:PW]");
        for (
          const [tool, args] of [
            ["read_form", {}],
            ["read_page", {}],
            ["find", { query: "search field" }],
            ["text_search", { query: "typed" }],
            ["dom_read", { depth: 8 }],
          ] as const
        ) {
          const r = await mcp.call(tool, args);
          assertEquals(r.isError, undefined, `${tool}: ${textOf(r)}`);
          noPart(r, tool);
        }
      },
    );

    await t.step("Home+Delete on a textarea: masked too", async () => {
      await mcp.ok("fill", { selector: "#n", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("press", { selector: "#n", key: "Home", snapshot: "none" });
      noPart(await mcp.call("press", { key: "Delete" }), "press Delete");
      noPart(await mcp.call("read_form", {}), "read_form");
      noPart(await mcp.call("snapshot", {}), "snapshot");
    });

    await t.step("a screenshot covers the edited field; copying from it is refused", async () => {
      const shot = await mcp.call("screenshot", {});
      assertTrue((shot.structuredContent!.secretsCovered as number) >= 2, textOf(shot));
      await mcp.ok("press", { selector: "#q", key: "Control+a", snapshot: "none" });
      const copy = await mcp.call("press", { key: "Control+c", snapshot: "none" });
      assertEquals(copy.isError, true, textOf(copy));
      const policy = copy.structuredContent!.policy as Record<string, unknown>;
      assertEquals(policy.rule, "secret-copy", textOf(copy));
    });

    await t.step(
      "a non-secret fill into the held field still shows no part after undo",
      async () => {
        await mcp.ok("fill", { selector: "#q", value: "plain words", snapshot: "none" });
        await mcp.ok("press", { selector: "#q", key: "Control+z", snapshot: "none" });
        noPart(await mcp.call("snapshot", {}), "snapshot after undo");
      },
    );

    await t.step("a normal fill and submit of the secret still works", async () => {
      await mcp.ok("fill", { selector: "#q", value: "{{secret:PW}}", snapshot: "none" });
      const read = await mcp.call("read_form", {});
      assertIncludes(textOf(read), "[secret:PW]");
      const sent = await mcp.call("click", { selector: "#go", submits: true });
      assertEquals(sent.isError, undefined, textOf(sent));
      noPart(sent, "click");
      await eventually(
        () => srv.hits.some((h) => h.path === "/login" && h.body.includes(`q=${SECRET}`)),
        10_000,
        "the form's POST with the value",
      );
    });

    await t.step("zero-width split: every text output masks it", async () => {
      const nav = await mcp.call("navigate", { url: `${srv.a}/zw` });
      noPart(nav, "navigate");
      for (
        const [tool, args] of [
          ["snapshot", {}],
          ["read_page", {}],
          ["text_search", { query: "code" }],
          ["dom_read", { depth: 8 }],
          ["wait_for", { text: "code:" }],
          ["find", { query: "code" }],
        ] as const
      ) {
        const r = await mcp.call(tool, args);
        assertEquals(r.isError, undefined, `${tool}: ${textOf(r)}`);
        noPart(r, tool);
      }
      assertIncludes(textOf(await mcp.call("snapshot", {})), "code: [secret:PW]");
    });
  } finally {
    await close();
    await srv.close();
  }
});
