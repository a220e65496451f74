/**
 * The red team's findings #3 and #8 (session 13), performed over MCP stdio with real
 * Chromium. #3: the agent fills {{secret:PW}} into a plain text field, presses End+Backspace
 * (or Home+Delete) and reads what is left in clear; six calls give the whole value. A field a
 * secret was filled into is now held: keys that edit it are refused (what is left could show
 * in the page's own copy of it), and it shows only exactly what that fill put in, anything
 * else (a `maxlength` cut) as a secret field (`••••`), in every read and screenshot. #8: a
 * page writes the value split by zero-width characters; every text output masks it (s14 #11:
 * also by invisible characters that are not Cf, U+034F, U+FE0F, U+3164, U+2800, U+115F/1160). */
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
  // Without invisible characters (zero-width spaces, U+034F, U+3164, U+2800, …); and without the words "secret" (masks, `secretsCovered`) and
  // "Enter" (a key pressed), which hold 4-character parts of this value ("cret", "nter").
  const all = JSON.stringify(r).replace(/[\p{Cf}\p{DI}\u2800]|\\u200b|\\u200d/gu, "")
    .replace(/secret|Enter/gi, "");
  assertEquals(partsIn(all), [], `${what} shows part of the secret: ${all.slice(0, 600)}`);
}

Deno.test("secrets: a filled secret peeled by keys, or split by zero-width characters, stays masked", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/a": `<title>A</title><form id=f action=/login method=post>` +
      `<label>Search <input id=q name=q></label>` +
      `<label>Notes <textarea id=n name=n></textarea></label>` +
      `<label>Short <input id=m name=m maxlength=10></label>` +
      `<button id=go>Sign in</button></form><p id=echo></p><script>
        q.addEventListener("input", () => echo.textContent = "typed: " + q.value);
      </script>`,
    "/login": `<title>in</title><p>welcome</p>`,
    "/outer": `<title>outer</title><iframe src="/inner" title=inner></iframe>`,
    "/inner": `<label>Inner <input id=i maxlength=10></label>`,
    "/zw": `<meta charset=utf-8><title>zw</title><p id=z>code: ${[...SECRET].join("\u200b")}</p>` +
      `<p>tail: ${SECRET.slice(0, 8)}\u200d${SECRET.slice(8)}</p>` +
      // Invisible characters that are not Cf (red team s14 #11).
      ["\u034f", "\ufe0f", "\u3164", "\u2800", "\u115f", "\u1160"].map((c, i) =>
        `<p>sep${i}: ${[...SECRET].join(c)}</p>`
      ).join(""),
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });

    const refusedEdit = (r: ToolResult, what: string) => {
      assertEquals(r.isError, true, `${what}: ${textOf(r)}`);
      const policy = r.structuredContent!.policy as Record<string, unknown>;
      assertEquals(policy.rule, "secret-edit", `${what}: ${textOf(r)}`);
      noPart(r, what);
    };
    const reads = async () => {
      for (
        const [tool, args] of [
          ["snapshot", {}],
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
    };

    await t.step("End+Backspace, Home+Delete, typing, undo: refused in the field", async () => {
      const filled = await mcp.call("fill", { selector: "#q", value: "{{secret:PW}}" });
      assertIncludes(textOf(filled), "[secret:PW]");
      noPart(filled, "fill");
      // Keys that move the caret or select go; keys that edit do not.
      await mcp.ok("press", { selector: "#q", key: "End", snapshot: "none" });
      refusedEdit(await mcp.call("press", { key: "Backspace" }), "Backspace");
      await mcp.ok("press", { selector: "#q", key: "Home", snapshot: "none" });
      refusedEdit(await mcp.call("press", { key: "Delete" }), "Delete");
      await mcp.ok("press", { key: "Shift+ArrowRight", snapshot: "none" });
      refusedEdit(await mcp.call("type", { text: "x" }), "type over a selection");
      refusedEdit(await mcp.call("press", { key: "Control+z" }), "undo");
      // A plain fill goes, and undo after it is refused (it would bring the value back).
      await mcp.ok("fill", { selector: "#q", value: "plain words", snapshot: "none" });
      refusedEdit(await mcp.call("press", { selector: "#q", key: "Control+z" }), "undo");
      await mcp.ok("fill", { selector: "#q", value: "{{secret:PW}}", snapshot: "none" });
      const snap = textOf(await mcp.call("snapshot", {}));
      assertIncludes(snap, "typed: [secret:PW]");
      assertTrue(/textbox "Search" \[ref=e\d+\][^\n]*: \[secret:PW\]/.test(snap), snap);
      await reads();
    });

    await t.step("a textarea: Enter (it edits there) and Delete refused", async () => {
      await mcp.ok("fill", { selector: "#n", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("press", { selector: "#n", key: "Shift+Home", snapshot: "none" });
      refusedEdit(await mcp.call("press", { key: "Enter" }), "Enter in a textarea");
      refusedEdit(await mcp.call("press", { key: "Delete" }), "Delete");
      noPart(await mcp.call("read_form", {}), "read_form");
    });

    await t.step("a field that kept part of the value shows ••••, and is covered", async () => {
      // maxlength keeps 10 of the 16 characters: the field holds a part (the page's cut).
      const cut = await mcp.call("fill", { selector: "#m", value: "{{secret:PW}}" });
      noPart(cut, "fill into maxlength");
      const snap = await mcp.call("snapshot", {});
      assertTrue(/textbox "Short" \[ref=e\d+\][^\n]*: ••••/.test(textOf(snap)), textOf(snap));
      await reads();
      const shot = await mcp.call("screenshot", {});
      assertTrue((shot.structuredContent!.secretsCovered as number) >= 3, textOf(shot));
    });

    await t.step("copy is refused; select all goes", async () => {
      await mcp.ok("press", { selector: "#q", key: "Control+a", snapshot: "none" });
      const copy = await mcp.call("press", { key: "Control+c", snapshot: "none" });
      assertEquals(copy.isError, true, textOf(copy));
      const policy = copy.structuredContent!.policy as Record<string, unknown>;
      assertEquals(policy.rule, "secret-copy", textOf(copy));
    });

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

    await t.step("in a same-origin iframe: held alike", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/outer`, snapshot: "none" });
      const tree = textOf(await mcp.call("snapshot", {}));
      const ref = tree.match(/textbox "Inner" \[ref=(e\d+)\]/)?.[1];
      assertTrue(ref, tree);
      noPart(await mcp.call("fill", { ref, value: "{{secret:PW}}" }), "fill in the iframe");
      const snap = await mcp.call("snapshot", {});
      assertTrue(/textbox "Inner" \[ref=e\d+\][^\n]*: ••••/.test(textOf(snap)), textOf(snap));
      refusedEdit(await mcp.call("press", { ref, key: "Backspace" }), "Backspace in the iframe");
    });

    await t.step("undo and redo pressed in another field: refused (s14 #3)", async () => {
      // The red team's secret_peel2: typed (one undo step a character), then Control+Z with
      // focus in another field took the held field's typing back: the echo showed
      // "Hunter2SecretXy", and the next undos one character less each.
      await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });
      await mcp.ok("click", { selector: "#q", snapshot: "none" });
      noPart(await mcp.call("type", { text: "{{secret:PW}}" }), "type");
      for (const key of ["Control+z", "Control+Shift+z", "Control+y", "Meta+z", "Alt+Backspace"]) {
        await mcp.ok("click", { selector: "#n", snapshot: "none" });
        refusedEdit(await mcp.call("press", { key }), `${key} in another field`);
        refusedEdit(await mcp.call("press", { selector: "#m", key }), `${key} on another field`);
      }
      const snap = textOf(await mcp.call("snapshot", {}));
      assertIncludes(snap, "typed: [secret:PW]");
      noPart({ snap }, "snapshot");
      // A page with no held field: undo goes as a key like any other.
      await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#n", value: "plain", snapshot: "none" });
      await mcp.ok("press", { selector: "#n", key: "Control+z", snapshot: "none" });
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
      const snap = textOf(await mcp.call("snapshot", {}));
      assertIncludes(snap, "code: [secret:PW]");
      for (let i = 0; i < 6; i++) assertIncludes(snap, `sep${i}: [secret:PW]`);
    });
  } finally {
    await close();
    await srv.close();
  }
});
