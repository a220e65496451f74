/**
 * `fill` with `submit: true` says whether the form was really sent
 * (`fill-submit.html`): the browser's validation stopping it, a form Enter
 * does not send (two text fields and no button, a disabled button, a
 * textarea) answer `ok: false` with why; a valid value, a `novalidate`
 * form and an SPA form that takes its submit event over are sent; a search
 * box in no form, and a field whose page handles Enter itself, are not
 * flagged as failures.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { refOf } from "./_util.ts";
import { act, actionOf, type ActionResult } from "./_results.ts";

function notSubmitted(r: ToolResult, code = "not-actionable"): ActionResult {
  assertEquals(r.isError, true, textOf(r));
  const s = actionOf(r);
  assertEquals(s.ok, false, textOf(r));
  assertEquals(s.submitted, false, textOf(r));
  assertEquals(s.error!.code, code, textOf(r));
  assertIncludes(s.error!.message, "Enter did not send the form");
  return s;
}

Deno.test("fill submit: reports whether Enter really sent the form", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const page = fx.url("fill-submit.html");
  const echoes = () => fx.requests.filter((q) => q.path.startsWith("/api/echo"));
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step(
      "invalid email in a required field: not submitted, field and message",
      async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        const ref = refOf(String((await mcp.ok("snapshot")).tree), /textbox "Email"/);
        const r = await mcp.call("fill", { ref, value: "Bob", submit: true });
        // Its own code: the fix is a value, not a retry of the action (not-actionable was).
        const s = notSubmitted(r, "form-invalid");
        const invalid = s.invalid as string[];
        assertEquals(invalid.length, 1, textOf(r));
        assertTrue(invalid[0]!.startsWith("email: "), invalid[0]);
        // Chromium's own message for a missing "@".
        assertIncludes(invalid[0]!, "@");
        assertIncludes(s.error!.message, invalid[0]!);
        assertIncludes(s.error!.hint, "value");
        assertEquals(s.element!.value, "Bob");
        assertEquals(s.navigation.changed, false);
        assertEquals(echoes().length, 0);
        assertEquals(await evalJs("location.pathname"), "/fill-submit.html");
      },
    );

    await t.step(
      "a declared click the browser's validation stops: said, with the field",
      async () => {
        const r = await mcp.call("click", { selector: "#required button", submits: true });
        assertEquals(r.isError, true, textOf(r));
        const s = actionOf(r);
        assertEquals([s.ok, s.submitted, s.error!.code], [false, false, "form-invalid"]);
        assertIncludes(s.error!.message, "The click did not send the form");
        assertTrue((s.invalid as string[])[0]!.startsWith("email: "), textOf(r));
        // Listed once besides the message: `invalid`, not the element's copy too.
        assertEquals((s.element as Record<string, unknown>).formInvalid, undefined);
        assertEquals(echoes().length, 0);
      },
    );

    await t.step(
      "a plain click the browser's validation stops: a warning names the field",
      async () => {
        // Was: ok, "unchanged", nothing said (only submits: true watched the form).
        const r = await act(mcp, "click", { selector: "#required button" });
        assertEquals(r.ok, true);
        // The field alone: its fieldset is :invalid with it and was listed as "s3: ".
        const invalid = r.element!.formInvalid as string[];
        assertEquals(invalid.length, 1, JSON.stringify(r.element));
        assertTrue(invalid[0]!.startsWith("email: "), JSON.stringify(r.element));
        const warned = r.warnings.find((w) => w.startsWith("the form was not sent"));
        // The messages once: the warning points at the element's list.
        assertIncludes(String(warned), "(element.formInvalid says why)");
        assertEquals(echoes().length, 0);
      },
    );

    await t.step(
      "press Enter in a field the browser's validation stops: the same warning",
      async () => {
        // Was: ok, "unchanged", nothing said (a click on the Send button warned).
        for (const args of [{ selector: "#email" }, {}]) {
          const r = await act(mcp, "press", { key: "Enter", ...args });
          assertEquals(r.ok, true);
          const warned = r.warnings.find((w) => w.startsWith("the form was not sent"));
          assertIncludes(String(warned), "email: ", JSON.stringify(args));
          assertIncludes(String(warned), "press Enter again");
        }
        // Another key, and Enter in a form that is sent: nothing of the kind.
        const tab = await act(mcp, "press", { key: "Tab", selector: "#email" });
        assertEquals(tab.warnings.filter((w) => w.includes("not sent")), []);
        assertEquals(echoes().length, 0);
        const bad = await mcp.call("press", { key: "Enterr", selector: "#email" });
        assertEquals(bad.isError, true, textOf(bad));
        assertIncludes(textOf(bad), "Enterr");
        await act(mcp, "fill", { selector: "#loose", value: "Bob" });
        const sent = await act(mcp, "press", { key: "Enter", submits: true });
        assertEquals(sent.warnings.filter((w) => w.includes("not sent")), []);
        assertIncludes(sent.navigation.to, "/api/echo?loose=Bob");
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        fx.requests.length = 0;
      },
    );

    await t.step("a valid value: submitted as before", async () => {
      const r = await act(mcp, "fill", {
        selector: "#email",
        value: "bob@example.com",
        submit: true,
      });
      assertEquals(r.ok, true);
      assertEquals(r.submitted, true);
      assertIncludes(r.navigation.to, "/api/echo?email=bob%40example.com");
      assertEquals(echoes().length, 1);
    });

    await t.step("a novalidate form: submitted whatever the value", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const r = await act(mcp, "fill", { selector: "#loose", value: "Bob", submit: true });
      assertEquals(r.submitted, true);
      assertIncludes(r.navigation.to, "/api/echo?loose=Bob");
    });

    await t.step("a lone search box with a script Enter handler: not flagged", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const r = await act(mcp, "fill", { selector: "#lone", value: "cats", submit: true });
      assertEquals(r.ok, true);
      assertEquals(r.submitted, undefined);
      assertEquals(r.warnings, []);
      assertEquals(await evalJs(`document.getElementById("out").textContent`), "Searched: cats");
    });

    await t.step(
      "a field in no form that nothing answers: said",
      async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        const tree = textOf(await mcp.call("snapshot"));
        const ref = refOf(tree, /textbox "Query"/);
        const r = await act(mcp, "fill", { ref, value: "cats", submit: true });
        assertEquals(r.ok, true);
        assertEquals(r.submitted, undefined);
        const w = r.warnings.join("\n");
        assertIncludes(w, "Enter changed nothing but the field");
        // No control is named: the page writes the snapshot's text (a red team planted a
        // paragraph reading like a button line to point the agent at "Delete account").
        assertTrue(!/\[ref=/.test(w), w);
        // The lone search box's own handler answered Enter: no such warning (above, by ref too).
        const lone = refOf(tree, /searchbox "Search"/);
        const answered = await act(mcp, "fill", { ref: lone, value: "dogs", submit: true });
        assertEquals(answered.warnings, []);
      },
    );

    await t.step(
      "snapshot none: the field nothing answers said, the answered one not",
      async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        const none = { submit: true, snapshot: "none" };
        const r = await act(mcp, "fill", { selector: "#dead", value: "cats", ...none });
        assertIncludes(r.warnings.join("\n"), "Enter changed nothing but the field");
        const answered = await act(mcp, "fill", { selector: "#lone", value: "dogs", ...none });
        assertEquals(answered.warnings, []);
        assertEquals(await evalJs(`document.getElementById("out").textContent`), "Searched: dogs");
      },
    );

    await t.step("two text fields and no submit button: not submitted, says why", async () => {
      fx.requests.length = 0;
      const r = await mcp.call("fill", { selector: "#user", value: "bob", submit: true });
      const s = notSubmitted(r);
      const message = s.error!.message;
      assertIncludes(message, "no submit button");
      assertIncludes(message, "user, pass");
      assertIncludes(s.error!.hint, "submits: true");
      assertEquals(echoes().length, 0);
    });

    await t.step("a disabled submit button and a textarea: not submitted", async () => {
      let s = notSubmitted(
        await mcp.call("fill", { selector: "#code", value: "X1", submit: true }),
      );
      assertIncludes(s.error!.message, "disabled");
      assertIncludes(s.error!.message, "Redeem");
      s = notSubmitted(await mcp.call("fill", { selector: "#note", value: "hi", submit: true }));
      assertIncludes(s.error!.message, "multi-line");
      assertEquals(echoes().length, 0);
    });

    await t.step("an SPA form that prevents the default on submit: handled, not sent", async () => {
      const r = await act(mcp, "fill", { selector: "#todo", value: "Buy milk", submit: true });
      assertEquals(r.ok, true);
      // submitted means sent: the page kept the item itself (s17).
      assertEquals(r.submitted, false);
      assertEquals(r.navigation.changed, false);
      assertEquals(await evalJs(`document.getElementById("added").textContent`), "Buy milk");
      assertEquals(echoes().length, 0);
      // The page took the submit over and sent nothing (it keeps the item itself): the delta
      // shows the new item, which says it (a warning on every add was noise, session 13 #18).
      assertIncludes(JSON.stringify(r.snapshotDelta), "Buy milk");
      assertEquals(r.warnings.join("\n").includes("handled the form itself"), false);
      // Without a delta, the warning says to look.
      const blind = await act(mcp, "fill", {
        selector: "#todo",
        value: "Buy eggs",
        submit: true,
        snapshot: "none",
      });
      assertIncludes(blind.warnings.join("\n"), "the page handled the form itself");
    });

    await t.step("a page's own validation that only restyles the form: said", async () => {
      const r = await act(mcp, "fill", { selector: "#zip", value: "abc", submit: true });
      assertEquals(r.submitted, false);
      assertEquals(echoes().length, 0);
      assertIncludes(r.warnings.join("\n"), "cancelled the browser's submission");
    });

    await t.step("a form whose page takes the submit over and does nothing: said", async () => {
      const r = await act(mcp, "fill", { selector: "#coupon", value: "NOPE", submit: true });
      assertEquals(r.ok, true);
      assertEquals(r.submitted, false);
      assertEquals(echoes().length, 0);
      // Nothing was sent and nothing changed: said, so an agent checks the delta.
      assertIncludes(r.warnings.join("\n"), "cancelled the browser's submission");
    });

    await t.step("a field whose page takes Enter over: a warning, not a failure", async () => {
      const r = await act(mcp, "fill", { selector: "#city", value: "Oslo", submit: true });
      assertEquals(r.ok, true);
      assertEquals(r.submitted, false);
      assertIncludes(r.warnings.join("\n"), "took Enter over");
      assertEquals(await evalJs(`document.getElementById("picked").textContent`), "Picked Oslo");
      assertEquals(echoes().length, 0);
    });

    await t.step(
      "a form that validates while the value goes in, then Enter taken over: the warning",
      async () => {
        const r = await act(mcp, "fill", { selector: "#street", value: "Main St", submit: true });
        // The page's own check (an empty required field) is not Enter's verdict.
        assertEquals([r.ok, r.submitted], [true, false]);
        assertIncludes(r.warnings.join("\n"), "took Enter over");
        assertEquals(
          await evalJs(`document.getElementById("picked").textContent`),
          "Shipping to Main St",
        );
        assertEquals(echoes().length, 0);
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("fill submit: a form the policy stops is not reported submitted", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("fill-submit.html"), snapshot: "none" });
    const off = JSON.stringify(fx.crossUrl("api/echo"));
    await mcp.ok("eval_js", { expression: `document.getElementById("required").action = ${off}` });
    const r = await mcp.call("fill", {
      selector: "#email",
      value: "bob@example.com",
      submit: true,
    });
    assertEquals(r.isError, true, textOf(r));
    const s = actionOf(r);
    assertEquals(s.error!.code, "blocked-by-policy", textOf(r));
    assertEquals(s.submitted, undefined, textOf(r));
    assertEquals(fx.requests.filter((q) => q.server === "cross").length, 0);
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("type: Enter that sends a form is stopped unless declared; the hint's submits: true is taken", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({});
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    await mcp.ok("fill", { selector: "#email", value: "bob@example.com" });
    await mcp.ok("click", { selector: "#name" });
    const stopped = await mcp.call("type", { text: "Bob\n" });
    assertEquals(actionOf(stopped).error!.code, "blocked-by-policy", textOf(stopped));
    assertIncludes(textOf(stopped), "submits: true");
    // What the hint says works on the same tool (it used to be an unknown field).
    await mcp.ok("click", { selector: "#name" });
    const sent = await mcp.ok("type", { text: "\n", submits: true });
    assertIncludes(String((sent.navigation as Record<string, unknown>).to), "/api/echo");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
