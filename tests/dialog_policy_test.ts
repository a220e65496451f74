/**
 * Session dialog policies (`open_session({ dialogs })`): accept, dismiss,
 * accept-prompt-with and raise, seen from the page (what confirm/prompt
 * returned) and from the ActionResult; an armed handle_dialog still wins.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { act, actionOf } from "./_results.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

Deno.test("dialog policies per session", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const result = async (session: string) =>
    (await mcp.ok("eval_js", {
      session,
      expression: "document.getElementById('result').textContent",
    })).value;
  try {
    await t.step("handle_dialog as a session's first call names no tab -1", async () => {
      const r = await mcp.ok("handle_dialog", { accept: true });
      assertIncludes(String(r.note), "of the page the next call opens");
      // What it armed is used by that page.
      await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
      await mcp.ok("click", { selector: "#confirm" });
      assertEquals(
        (await mcp.ok("eval_js", { expression: "document.getElementById('result').textContent" }))
          .value,
        "confirm: true",
      );
    });

    await t.step("accept and dismiss", async () => {
      await mcp.ok("open_session", {
        session: "acc",
        url: fx.url("dialogs.html"),
        dialogs: "accept",
      });
      await mcp.ok("click", { session: "acc", selector: "#confirm" });
      assertEquals(await result("acc"), "confirm: true");
      await mcp.ok("open_session", {
        session: "dis",
        url: fx.url("dialogs.html"),
        dialogs: "dismiss",
      });
      await mcp.ok("click", { session: "dis", selector: "#alert" });
      await mcp.ok("click", { session: "dis", selector: "#prompt" });
      assertEquals(await result("dis"), "prompt: null");
    });

    await t.step("the default policy dismisses a confirm and says how to accept it", async () => {
      await mcp.ok("open_session", { session: "def", url: fx.url("dialogs.html") });
      const r = await act(mcp, "click", { session: "def", selector: "#confirm" });
      assertEquals(await result("def"), "confirm: false");
      const warned = r.warnings.find((w) => w.includes("dismissed by the session's default"));
      assertIncludes(String(warned), "handle_dialog({ accept: true })");
      // An armed answer is the agent's choice: nothing to say.
      await mcp.ok("handle_dialog", { session: "def", accept: true });
      const armed = await act(mcp, "click", { session: "def", selector: "#confirm" });
      assertEquals(await result("def"), "confirm: true");
      assertEquals(armed.warnings.some((w) => w.includes("session's default")), false);
    });

    await t.step("accept-prompt-with answers prompts with the session's text", async () => {
      await mcp.ok("open_session", {
        session: "apw",
        url: fx.url("dialogs.html"),
        dialogs: "accept-prompt-with",
        promptText: "Grace",
      });
      const r = await act(mcp, "click", { session: "apw", selector: "#prompt" });
      assertEquals(await result("apw"), "prompt: Grace");
      assertEquals([r.dialogs?.[0]?.handledAs, r.dialogs?.[0]?.text], ["accepted", "Grace"]);
    });

    await t.step("raise dismisses and fails the action as the app's", async () => {
      await mcp.ok("open_session", {
        session: "rai",
        url: fx.url("dialogs.html"),
        dialogs: "raise",
      });
      const r = await mcp.call("click", { session: "rai", selector: "#confirm" });
      assertEquals(r.isError, true);
      const s = actionOf(r);
      assertEquals(s.ok, false);
      assertEquals(s.failure?.source, "app");
      assertIncludes(textOf(r), "Delete?");
      assertEquals(await result("rai"), "confirm: false");
      // An armed answer is the agent's decision: it is used, and the action succeeds.
      await mcp.ok("handle_dialog", { session: "rai", accept: true });
      const ok = await mcp.ok("click", { session: "rai", selector: "#confirm" });
      assertEquals(ok.ok, true);
      assertEquals(await result("rai"), "confirm: true");
    });

    await t.step(
      "an armed answer holds for the action's late dialog, armed before or after",
      async () => {
        await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
        // Armed, then the click whose confirm comes 1.5 s later (after its result).
        await mcp.ok("handle_dialog", { accept: true });
        const clicked = await act(mcp, "click", { selector: "#late", snapshot: "none" });
        assertIncludes(clicked.warnings.join("\n"), "stays armed for 10 s");
        await mcp.ok("wait_for", { text: "late confirm:" });
        assertEquals(await result("default"), "late confirm: true");
        // The click first, armed while the confirm is still to come: a wait sees it answered.
        await mcp.ok("click", { selector: "#late", snapshot: "none" });
        await mcp.ok("handle_dialog", { accept: true });
        await mcp.ok("eval_js", {
          expression: "document.getElementById('result').textContent = ''",
        });
        await mcp.ok("wait_for", { text: "late confirm:" });
        assertEquals(await result("default"), "late confirm: true");
        // Used once: the next late confirm gets the session's policy (confirm dismissed).
        await mcp.ok("click", { selector: "#late", snapshot: "none" });
        await mcp.ok("eval_js", {
          expression: "document.getElementById('result').textContent = ''",
        });
        await mcp.ok("wait_for", { text: "late confirm:" });
        assertEquals(await result("default"), "late confirm: false");
      },
    );

    await t.step(
      "an armed answer is the page's own: never an alert's, never a frame's",
      async () => {
        const page = fx.url(
          `dialogs-frame.html?fisher=${encodeURIComponent(fx.crossUrl("prompt-fisher.html"))}`,
        );
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        await mcp.ok("handle_dialog", { accept: true, text: "4711" });
        const clicked = await act(mcp, "click", { selector: "#transfer", snapshot: "none" });
        const waited = await mcp.ok("wait_for", { text: "pin:" });
        assertEquals(await result("default"), "pin: 4711", JSON.stringify({ clicked, waited }));
        assertEquals(fx.requests.filter((r) => r.path.includes("stolen")).length, 0);
        const all = [
          ...(clicked.dialogs ?? []),
          ...((waited.sinceLastCall as R | undefined)?.dialogs as R[] ?? []),
          ...(((await mcp.ok("snapshot", { maxTokens: 200 })).sinceLastCall as R | undefined)
            ?.dialogs as R[] ?? []),
        ] as R[];
        const pin = all.find((d) => d.message === "Enter your PIN")!;
        assertEquals([pin.handledAs, pin.armed], ["accepted", true], JSON.stringify(all));
        const tip = all.find((d) => d.message === "Tip: check the amount")!;
        assertEquals([tip.handledAs, tip.armed], ["accepted", undefined]);
        const fishing = all.filter((d) => d.message === "Security check");
        assertTrue(fishing.length > 0, JSON.stringify(all));
        for (const d of fishing) {
          assertEquals([d.handledAs, d.armed], ["dismissed", undefined]);
          assertIncludes(String(d.frame), fx.crossOrigin);
        }
      },
    );

    await t.step(
      "dialogs that overlap: the answer Chromium cannot deliver is told, and never leaks",
      async () => {
        const page = fx.url(
          `dialogs-overlap.html?loop=${encodeURIComponent(fx.crossUrl("prompt-loop.html"))}`,
        );
        // The page's prompt lands while one of the frame's shows almost every time: a few
        // tries make sure the case is seen at least once.
        let seen: R | undefined;
        for (let attempt = 0; attempt < 5 && !seen; attempt++) {
          await mcp.ok("navigate", { url: page, snapshot: "none" });
          await mcp.ok("handle_dialog", { accept: true, text: "4711" });
          const clicked = await act(mcp, "click", { selector: "#transfer", snapshot: "none" });
          const waited = await mcp.ok("wait_for", { text: "pin:" });
          const shown = await result("default");
          const all = [
            ...(clicked.dialogs ?? []),
            ...((waited.sinceLastCall as R | undefined)?.dialogs as R[] ?? []),
          ] as R[];
          const pin = all.find((d) => d.message === "Enter your PIN")!;
          const told = JSON.stringify({ shown, all, warnings: clicked.warnings });
          assertEquals(fx.requests.filter((r) => r.path.includes("stolen")).length, 0, told);
          if (shown === "pin: 4711") {
            assertEquals([pin.armed, pin.undelivered], [true, undefined], told);
            continue;
          }
          assertEquals(shown, "pin: null", told);
          assertEquals([pin.handledAs, pin.undelivered], ["dismissed", true], told);
          if (clicked.dialogs?.some((d) => d.message === "Enter your PIN")) {
            assertTrue(
              clicked.warnings.some((w) =>
                w.includes('"Enter your PIN" opened while another frame\'s dialog showed') &&
                w.includes("the page saw it dismissed")
              ),
              told,
            );
          }
          // The frame's prompt that closed the page's one is stuck in its turn: the frame is
          // shown as blocked, not read (reading it would wait out the call's time).
          const stuck = all.find((d) => d.handledAs === "open");
          if (stuck) {
            assertEquals([stuck.undelivered, typeof stuck.frame], [true, "string"], told);
            const snap = await mcp.ok("snapshot", {});
            assertIncludes(
              String(snap.snapshot ?? snap.tree ?? JSON.stringify(snap)),
              'blocked by its prompt "Security check"',
            );
          }
          seen = pin;
        }
        assertTrue(seen !== undefined, "the page's prompt never overlapped a frame's in 5 tries");
      },
    );

    await t.step(
      "an armed text stays with its site: another origin's prompt never gets it",
      async () => {
        await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
        const armed = await mcp.ok("handle_dialog", { accept: true, text: "4321" });
        assertIncludes(String(armed.note), `while it shows ${new URL(fx.url("")).origin}`);
        const away = await act(mcp, "navigate", {
          url: fx.crossUrl("prompt-on-load.html"),
          snapshot: "none",
        });
        assertEquals(await result("default"), "loaded: null");
        assertEquals([away.dialogs?.[0]?.handledAs, away.dialogs?.[0]?.armed], [
          "dismissed",
          undefined,
        ]);
        // On its own site it still answers (armed again: the grace may have run out).
        await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
        await mcp.ok("handle_dialog", { accept: false });
        const again = await mcp.ok("handle_dialog", { accept: true, text: "4321" });
        assertIncludes(String(again.note), "replaces the answer armed before");
        await act(mcp, "navigate", { url: fx.url("prompt-on-load.html"), snapshot: "none" });
        assertEquals(await result("default"), "loaded: 4321");
      },
    );

    await t.step(
      "a flood of dialogs: the result lists 10, messages cut, the rest counted",
      async () => {
        await mcp.ok("navigate", { url: fx.url("dialog-flood.html"), snapshot: "none" });
        const r = await act(mcp, "click", { selector: "#flood", snapshot: "none" });
        assertEquals(await result("default"), "confirmed 0");
        assertEquals(r.dialogs?.length, 10);
        assertTrue(r.dialogs!.every((d) => d.message.length <= 301), JSON.stringify(r.dialogs));
        assertTrue(
          r.warnings.some((w) => w.includes("30 more dialogs than listed")),
          r.warnings.join(),
        );
      },
    );

    await t.step("bad input: unknown policy, promptText without accept-prompt-with", async () => {
      const a = await mcp.call("open_session", { session: "x", dialogs: "ignore" });
      assertIncludes(textOf(a), '"dialogs"');
      const b = await mcp.call("open_session", { session: "x", promptText: "hi" });
      assertIncludes(textOf(b), "accept-prompt-with");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
