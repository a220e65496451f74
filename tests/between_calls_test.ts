/**
 * What happens while no call runs comes with the next result, once (`sinceLastCall`): a
 * dialog the policy answered, an uncaught page error, a navigation, a late popup that became
 * the active tab. A click that opens a file chooser says `fileChooser: true` and how to go on,
 * and the chooser is not left blocking: upload_file through the same button works.
 *
 * Each page acts on a timer 2–3 s after load or click, when the call that loaded it has long
 * answered; it then sends a beacon request the test waits for (no call runs meanwhile). The
 * next call talks to the tab, so the browser's events of what happened reached the server
 * before its result.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import type { SinceLastCall } from "../browser/since_last_call.ts";

type R = Record<string, unknown>;
const news = (r: R) => r.sinceLastCall as SinceLastCall | undefined;
const LATE_MS = 15_000;

Deno.test("between calls: what happened while no call ran comes with the next result, once", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,files" } });
  const beacon = (query: string) =>
    fx.waitForRequest((r) => r.path.startsWith("/api/echo?") && r.path.includes(query), {
      timeoutMs: LATE_MS,
    });
  try {
    await t.step("dialogs, as each session's policy answered them", async () => {
      const seen = Promise.all([beacon("beacon=dialog&s=default"), beacon("beacon=dialog&s=acc")]);
      await mcp.ok("navigate", { url: fx.url("between-dialog.html?s=default"), snapshot: "none" });
      await mcp.ok("open_session", {
        session: "acc",
        url: fx.url("between-dialog.html?s=acc"),
        dialogs: "accept",
      });
      await seen;
      const r = await mcp.call("snapshot", {});
      const s = r.structuredContent!;
      assertEquals(news(s), {
        dialogs: [
          { kind: "alert", message: "Late alert", handledAs: "accepted" },
          { kind: "confirm", message: "Late confirm?", handledAs: "dismissed" },
        ],
      });
      // The agent reads the text: it carries the news too.
      assertIncludes(textOf(r), '"sinceLastCall"');
      assertIncludes(textOf(r), "confirm: false");
      // Once: the call after it has none.
      assertEquals(news(await mcp.ok("snapshot", {})), undefined);

      const acc = await act(mcp, "click", { session: "acc", selector: "#result" });
      assertEquals(acc.sinceLastCall?.dialogs?.map((d) => d.handledAs), ["accepted", "accepted"]);
      assertEquals(acc.dialogs, undefined);
      assertEquals(news(await mcp.ok("snapshot", { session: "acc" })), undefined);
      await mcp.ok("close_session", { session: "acc" });
    });

    await t.step("what an action's own window sees is its own, never news after", async () => {
      await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
      const r = await act(mcp, "click", { selector: "#alert", snapshot: "none" });
      assertEquals(r.dialogs, [{ kind: "alert", message: "Hello", handledAs: "accepted" }]);
      assertEquals(r.sinceLastCall, undefined);
      assertEquals(news(await mcp.ok("snapshot", {})), undefined);
    });

    await t.step("an uncaught error thrown by a timer, in the next ActionResult", async () => {
      const seen = beacon("beacon=error");
      await mcp.ok("navigate", { url: fx.url("between-error.html"), snapshot: "none" });
      await seen;
      const r = await act(mcp, "click", { selector: "#noop" });
      assertEquals(r.ok, true);
      // Not the click's: it happened before.
      assertEquals(r.pageErrors, []);
      assertEquals(r.sinceLastCall, { pageErrors: ["Error: late boom"] });
      assertEquals(news(await mcp.ok("snapshot", {})), undefined);
    });

    await t.step(
      "a form the page sent by itself, stopped by the guard, in the next result",
      async () => {
        const seen = beacon("beacon=form");
        await mcp.ok("navigate", { url: fx.url("between-form.html"), snapshot: "none" });
        await seen;
        const r = await act(mcp, "click", { selector: "#noop" });
        assertEquals(r.ok, true);
        // By its URL's keys: the field's value stays out.
        assertEquals(r.sinceLastCall, {
          stopped: [{
            what: "a form the page sent by itself (no call declared it)",
            url: fx.url("api/echo?card"),
          }],
        });
        assertEquals(await mcp.ok("get_url", {}).then((u) => u.url), fx.url("between-form.html"));
      },
    );

    await t.step("a navigation made by a timer", async () => {
      const seen = beacon("beacon=landed&from=nav");
      await mcp.ok("navigate", { url: fx.url("between-nav.html"), snapshot: "none" });
      await seen;
      const s = await mcp.ok("snapshot", {});
      assertEquals(news(s), {
        navigations: [{ tab: 0, url: fx.url("between-landed.html?from=nav"), kind: "full_load" }],
      });
      assertEquals(news(await mcp.ok("snapshot", {})), undefined);
    });

    await t.step(
      "a popup opened after the click's result: a new tab, now the active one",
      async () => {
        await mcp.ok("navigate", { url: fx.url("between-popup.html"), snapshot: "none" });
        const seen = beacon("beacon=landed&from=popup");
        const click = await act(mcp, "click", { selector: "#later", snapshot: "none" });
        assertEquals(click.structure.newTabs, []);
        assertEquals(click.fileChooser, undefined);
        await seen;
        const s = await mcp.ok("snapshot", {});
        const popup = fx.url("between-landed.html?from=popup");
        // Nothing else: the popup's first document is part of its opening.
        assertEquals(news(s), {
          tabsOpened: [{ index: 1, url: popup }],
          activeTab: { index: 1, url: popup },
        });
        // The snapshot is of the tab the news names.
        assertIncludes(String(s.tree ?? JSON.stringify(s)), "Landed");
        assertEquals(news(await mcp.ok("tabs", { action: "list" })), undefined);
        await mcp.ok("tabs", { action: "close", index: 1 });
        // Closed by a call: no news.
        assertEquals(news(await mcp.ok("tabs", { action: "list" })), undefined);
      },
    );

    await t.step(
      "a download a page began between calls (cancelled: no call asked for it)",
      async () => {
        const seen = fx.waitForRequest((r) => r.path === "/download.txt", { timeoutMs: LATE_MS });
        await mcp.ok("navigate", { url: fx.url("between-download.html"), snapshot: "none" });
        await seen;
        // The browser tells of a download apart from the tab: look until a result carries it.
        const got = await eventually(async () => news(await mcp.ok("snapshot", {}))?.downloads);
        assertEquals(got, [{
          filename: "download.txt",
          url: fx.url("download.txt"),
          saved: false,
        }]);
        assertEquals(news(await mcp.ok("snapshot", {})), undefined);
      },
    );

    await t.step("a click that opens a file chooser says so; upload_file then works", async () => {
      const up = join(mcp.workspace, "up");
      await Deno.mkdir(up, { recursive: true });
      await Deno.writeTextFile(join(up, "hello.txt"), "hello");
      await mcp.ok("navigate", { url: fx.url("between-chooser.html"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot", {})).tree);
      const pick = refOf(tree, "Pick a file");
      const r = await act(mcp, "click", { ref: pick });
      assertEquals(r.ok, true);
      assertEquals(r.fileChooser, true);
      assertEquals(
        r.warnings.some((w) => w.includes(`upload_file({ ref: "${pick}", paths: [...] })`)),
        true,
      );
      // The visible input itself opens one too.
      const direct = await act(mcp, "click", { selector: "#direct", snapshot: "none" });
      assertEquals(direct.fileChooser, true);
      // The chooser was not left open: the same button opens the next one for upload_file.
      const u = await mcp.ok("upload_file", { ref: pick, paths: ["up/hello.txt"] });
      const upload = u.upload as { input: string; files: R[] };
      assertIncludes(upload.input, "hidden");
      assertEquals(upload.files.map((f) => f.name), ["hello.txt"]);
      assertEquals(u.fileChooser, undefined);
      await mcp.ok("wait_for", { text: "Chosen: hello.txt" });
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
