/**
 * Approvals and asks in the web console, end to end (issue 15): browxai with `--console`, the
 * console open in a second headless Chromium. A declared submit (BROWX_CONFIRM_REQUIRED=submit)
 * waits; the console shows the pending action (tool, hook, site, its target outlined on the live
 * view); the person clicks Approve once and the agent's call completes; another is denied and
 * the tab has not moved; Approve for the site lets the next one through unasked; the audit says
 * `by: "console"` (and `"site"` for the one the site approval covered). ask_human shows its instruction until
 * the person clicks Done (the next result carries it); highlight is outlined on the live view
 * until the tab shows another page; once nobody watches, both answer `unattended` at once.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { openConsole, startConsoleStdio } from "./_console.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

Deno.test("console approve: approve once, deny, approve for the site, ask_human done, highlight, unattended", async () => {
  const fx = await startFixtureServer();
  const server = await startConsoleStdio({
    env: { BROWX_CONFIRM_REQUIRED: "submit", BROWX_TOOLSETS: "core,sessions,human" },
  });
  const { mcp } = server;
  let viewer: Awaited<ReturnType<typeof openConsole>> | undefined;
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref = refOf(String((await mcp.ok("snapshot")).tree), "Sign up");
    viewer = await openConsole(server.url);
    const v = viewer;
    // The first session is watched: the person sees it.
    await v.waitFor('[data-session="stdio/default"]');
    await eventually(async () => (await v.frame()).count > 0, 15_000, "a live frame");

    // Approve once: the agent's call waits for the person.
    const approved = mcp.call("click", { ref, submits: true });
    await v.waitFor("[data-approval]");
    assertEquals(await v.text("[data-approval-tool]"), "click");
    assertEquals(await v.text("[data-approval-hook]"), "submit");
    assertIncludes(String(await v.text("[data-approval-site]")), fx.origin);
    assertIncludes(String(await v.text("[data-approval-args]")), ref);
    // Its target is outlined on the live view.
    await v.waitFor('[data-outline="approval"]');
    await v.click('[data-action="approve-once"]');
    const done = await approved;
    assertEquals(done.isError, undefined, textOf(done));
    assertIncludes(String((await mcp.ok("get_url")).url), "/api/echo");
    await eventually(
      async () => await v.text("[data-approval]") === null,
      5000,
      "the entry gone",
    );

    // Deny: refused, the tab has not moved.
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref2 = refOf(String((await mcp.ok("snapshot")).tree), "Sign up");
    const denied = mcp.call("click", { ref: ref2, submits: true });
    await v.waitFor("[data-approval]");
    await v.click('[data-action="deny"]');
    const no = await denied;
    assertEquals((no.structuredContent?.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(no), "the human said no (through console)");
    assertEquals((await mcp.ok("get_url")).url, fx.url("form.html"));

    // Approve for the site: the next submit on 127.0.0.1 in this session is not asked.
    // (Buttons are clicked within their entry: the answered one may still be on screen.)
    await eventually(async () => await v.text("[data-approval]") === null, 5000, "no entry");
    const siteWide = mcp.call("click", { ref: ref2, submits: true });
    const id = await eventually(
      () => v.eval<string | null>("document.querySelector('[data-approval]')?.dataset.approval"),
      10_000,
      "the third entry",
    );
    const button = `[data-approval="${id}"] [data-action="approve-site"]`;
    assertIncludes(String(await v.waitFor(button)), "127.0.0.1");
    await v.click(button);
    assertEquals((await siteWide).isError, undefined);
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const refSite = refOf(String((await mcp.ok("snapshot")).tree), "Sign up");
    await mcp.ok("click", { ref: refSite, submits: true });
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });

    // The audit says who answered.
    const day = new Date().toISOString().slice(0, 10);
    const clicks = (await Deno.readTextFile(`${mcp.workspace}/audit/${day}.jsonl`)).trim()
      .split("\n").map((l) => JSON.parse(l) as R)
      .filter((l) => l.tool === "click" && l.phase !== "start");
    assertEquals(
      clicks.map((l) => (l.confirms as R[])[0]).map((c) => [c!.answer, c!.by]),
      [["approved", "console"], ["refused", "console"], ["approved", "console"], [
        "pre-approved",
        "site",
      ]],
    );

    // highlight: outlined on the live view with its note.
    const ref3 = refOf(String((await mcp.ok("snapshot")).tree), "Sign up");
    await mcp.ok("highlight", { ref: ref3, note: "this button" });
    await v.waitFor('[data-outline="highlight"]');
    await v.waitForText("this button");

    // ask_human: shown until the person marks it done; the next result carries it.
    const asked = await mcp.ok("ask_human", { instruction: "Type the 2FA code", ref: ref3 });
    assertEquals(asked.status, "awaiting_user");
    await v.waitFor("[data-ask]");
    assertEquals(await v.text("[data-ask-instruction]"), "Type the 2FA code");
    await v.click('[data-action="ask-done"]');
    await eventually(async () => await v.text("[data-ask]") === null, 5000, "the ask done");
    const next = await mcp.ok("get_url");
    assertEquals((next.sinceLastCall as R | undefined)?.asksDone, [{
      id: asked.ask,
      instruction: "Type the 2FA code",
    }]);

    // The tab shows another page: the outline of the old one is gone.
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await eventually(
      async () => await v.text('[data-outline="highlight"]') === null,
      5000,
      "the stale outline removed",
    );

    // Nobody watches any more: unattended at once.
    await v.close();
    viewer = undefined;
    await eventually(
      async () =>
        ((await mcp.call("ask_human", { instruction: "Log in" })).structuredContent
          ?.error as R | undefined)?.code === "unattended",
      10_000,
      "ask_human unattended once the console closed",
    );
  } finally {
    await viewer?.close();
    await server.close();
    await fx.close();
  }
});

Deno.test("console approve: a card that moves under the pointer does not take the click meant for the one above", async () => {
  const fx = await startFixtureServer();
  const server = await startConsoleStdio({
    env: { BROWX_CONFIRM_REQUIRED: "submit", BROWX_TOOLSETS: "core,sessions" },
  });
  const { mcp } = server;
  let viewer: Awaited<ReturnType<typeof openConsole>> | undefined;
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    await mcp.ok("open_session", { session: "b", url: fx.url("form.html") });
    viewer = await openConsole(server.url);
    const v = viewer;
    await v.waitFor('[data-session="stdio/default"]');
    // Two questions wait: the watched session's first, the other below it.
    const first = mcp.call("click", { selector: "button", submits: true });
    await v.waitFor("[data-approval]");
    const second = mcp.call("click", { session: "b", selector: "button", submits: true });
    await eventually(
      () => v.eval<boolean>("document.querySelectorAll('[data-approval]').length === 2"),
      10_000,
      "two questions shown",
    );
    const ids = await v.eval<string[]>(
      "[...document.querySelectorAll('[data-approval]')].map((e) => e.dataset.approval)",
    );
    const disabled = (id: string) =>
      v.eval<boolean>(
        `document.querySelector('[data-approval="${id}"] [data-action="approve-once"]')?.disabled === true`,
      );
    // The card that came in among others is off a moment too; then on.
    await eventually(async () => !(await disabled(ids[1]!)), 5000, "the new card's buttons on");
    // Whether the lower card's buttons are ever off once it moved (seen as the DOM changes).
    await v.eval(`(() => {
      window.__off = false;
      new MutationObserver(() => {
        const b = document.querySelector('[data-approval="${
      ids[1]
    }"] [data-action="approve-once"]');
        if (b?.disabled && document.querySelectorAll("[data-approval]").length === 1) window.__off = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
      return 1;
    })()`);
    // The person denies the top one; the other moves up under the pointer.
    await v.click(`[data-approval="${ids[0]}"] [data-action="deny"]`);
    await eventually(() => v.eval<boolean>("window.__off"), 5000, "the moved card's buttons off");
    await eventually(async () => !(await disabled(ids[1]!)), 5000, "the buttons back on");
    await v.click(`[data-approval="${ids[1]}"] [data-action="approve-once"]`);
    assertEquals((await first).isError, true);
    assertEquals((await second).isError, undefined);
  } finally {
    await viewer?.close();
    await server.close();
    await fx.close();
  }
});
