/**
 * Two things a new user was told wrong, through MCP:
 * - `go_back` / `go_forward` to a page Chromium restored from its back/forward cache said
 *   `navigation.kind: "full_load"` and repeated the page's old uncaught errors (Chromium replays
 *   them on restore): the page neither reloaded nor threw. It is `"bfcache_restore"`, with no
 *   page error, console error or dialog of its first load, and the page as it was left; the
 *   page going back by itself is told so in `sinceLastCall`.
 * - `press { key: "Tab" }` said `snapshotDelta.unchanged` although the focus moved (the delta
 *   compares lines without their focus marker): the delta says where the focus went.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { textOf } from "./_mcp.ts";
import { sharedServerCases } from "./_shared_cases.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { errorOf } from "./_results.ts";
import { eventually } from "./_util.ts";

/**
 * The cases share one server (default configuration); each closes its sessions after it, so the
 * next starts on a fresh session as on a fresh server.
 */
const cases = sharedServerCases("history and focus, one server");

type R = Record<string, unknown>;

/** Cacheable (no `no-store`): the back/forward cache may keep it. */
const cacheable = (html: string) => () =>
  new Response(html, { headers: { "content-type": "text/html" } });

const ONLOAD = `<!doctype html><title>Onload</title><h1>Onload</h1>
<label>Note <input id=note></label><p id=runs></p>
<script>
  // How many times the page's script ran in this tab: a restore does not run it again.
  const runs = Number(sessionStorage.runs ?? 0) + 1;
  sessionStorage.runs = runs;
  document.getElementById("runs").textContent = "runs: " + runs;
  alert("Welcome!");
  console.error("boom from console");
  setTimeout(() => { throw new Error("late uncaught"); }, 100);
  Promise.reject(new TypeError("Failed to fetch (old)"));
</script>`;

const FORM = `<!doctype html><title>Signup</title><h1>Sign up</h1>
<form><label>Name <input name=name></label><label>Email <input name=email></label>
<button type=button>Create account</button></form>`;

cases.test(
  "go_back to a page restored from the back/forward cache: bfcache_restore, no replayed errors",
  async (mcp, t) => {
    const srv = startTwoOrigins(() => ({
      "/onload": cacheable(ONLOAD),
      "/other": cacheable(`<!doctype html><title>Other</title><h1>Other page</h1>`),
      // Goes back by itself, later than an action waits for its timers (1 s): between calls.
      "/away": cacheable(`<!doctype html><title>Away</title><h1>Away</h1>
      <script>setTimeout(() => history.back(), 1500)</script>`),
    }));
    try {
      const first = await mcp.ok("navigate", { url: `${srv.a}/onload`, snapshot: "none" });
      // The first load did raise and throw: the result says so (the late throw may come after).
      assertEquals((first.dialogs as R[])[0]!.message, "Welcome!", JSON.stringify(first));
      await mcp.ok("fill", { selector: "#note", value: "left here", snapshot: "none" });
      await mcp.ok("navigate", { url: `${srv.a}/other`, snapshot: "none" });
      const seq = (await mcp.ok("console_read", {})).last_seq as number;
      const loads = srv.seen("A").filter((p) => p === "GET /onload").length;

      await t.step("go_back: bfcache_restore, nothing of the first load repeated", async () => {
        const back = await mcp.ok("go_back", {});
        const nav = back.navigation as R;
        assertEquals(nav.to, `${srv.a}/onload`, JSON.stringify(back));
        assertEquals(nav.kind, "bfcache_restore", JSON.stringify(back));
        assertEquals(nav.changed, true);
        // No request: the page was not loaded again, nor did its script run again.
        assertEquals(srv.seen("A").filter((p) => p === "GET /onload").length, loads);
        assertEquals(back.pageErrors, [], JSON.stringify(back));
        assertEquals((back.console as R).errors, [], JSON.stringify(back));
        assertEquals(back.dialogs ?? [], [], JSON.stringify(back));
        // The page as it was left: the value typed, the script's one run.
        const delta = back.snapshotDelta as R;
        assertEquals(delta.mode, "full");
        assertIncludes(String(delta.tree), "left here");
        assertIncludes(String(delta.tree), "runs: 1");
        const text = textOf(await mcp.call("console_read", { since_seq: seq }));
        assertTrue(!text.includes("late uncaught") && !text.includes("boom"), text);
      });

      await t.step("go_forward: restored as well; reload is a full load again", async () => {
        const fwd = await mcp.ok("go_forward", { snapshot: "none" });
        assertEquals((fwd.navigation as R).kind, "bfcache_restore", JSON.stringify(fwd));
        const back = await mcp.ok("go_back", { snapshot: "none" });
        assertEquals((back.navigation as R).kind, "bfcache_restore", JSON.stringify(back));
        assertEquals(back.pageErrors, [], JSON.stringify(back));
        // A reload runs the page again: its errors and dialog are news.
        const again = await mcp.ok("reload", {});
        assertEquals((again.navigation as R).kind, "full_load", JSON.stringify(again));
        assertEquals((again.dialogs as R[])[0]!.message, "Welcome!", JSON.stringify(again));
        assertIncludes(String((again.snapshotDelta as R).tree), "runs: 2");
      });

      await t.step(
        "the page going back by itself: sinceLastCall says bfcache_restore",
        async () => {
          await mcp.ok("navigate", { url: `${srv.a}/away`, snapshot: "none" });
          const news: R[] = [];
          await eventually(
            async () => {
              const r = await mcp.ok("get_url");
              if (r.sinceLastCall) news.push(r.sinceLastCall as R);
              return String(r.url).endsWith("/onload") && news.length > 0;
            },
            10_000,
            "the page to go back",
          );
          const navigations = news.flatMap((n) => (n.navigations ?? []) as R[]);
          assertEquals(navigations.at(-1)?.kind, "bfcache_restore", JSON.stringify(news));
          assertEquals(news.flatMap((n) => (n.pageErrors ?? []) as string[]), []);
        },
      );

      await t.step("bad input: go_back with a non-object session name is refused", async () => {
        const r = await mcp.call("go_back", { session: 42 });
        assertEquals(r.isError, true, textOf(r));
      });
    } finally {
      await srv.close();
    }
  },
);

cases.test("press Tab: the delta says where the focus went", async (mcp, t) => {
  const srv = startTwoOrigins(() => ({ "/form": FORM }));
  try {
    await mcp.ok("navigate", { url: `${srv.a}/form`, snapshot: "none" });

    await t.step("each Tab names the field the focus moved to", async () => {
      const one = await mcp.ok("press", { key: "Tab" });
      const d1 = one.snapshotDelta as R;
      assertEquals(d1.unchanged, undefined, JSON.stringify(one));
      assertIncludes(String(d1.focus), 'textbox "Name"', JSON.stringify(one));
      assertIncludes(textOf(await mcp.call("press", { key: "Tab" })), 'textbox \\"Email\\"');
      const three = await mcp.ok("press", { key: "Tab" });
      assertIncludes(String((three.snapshotDelta as R).focus), 'button "Create account"');
      // The snapshot agrees.
      assertIncludes(String((await mcp.ok("snapshot")).tree), 'button "Create account"');
    });

    await t.step("a key that moves no focus stays unchanged", async () => {
      const r = await mcp.ok("press", { key: "Shift" });
      const d = r.snapshotDelta as R;
      assertEquals(d.unchanged, true, JSON.stringify(r));
      assertEquals(d.focus, undefined);
    });

    await t.step("a click on a label names the field it focused", async () => {
      const r = await mcp.ok("click", { selector: "text=Email" });
      assertIncludes(String((r.snapshotDelta as R).focus), 'textbox "Email"', JSON.stringify(r));
    });

    await t.step("a fill does not repeat the focus of the field it filled", async () => {
      const r = await mcp.ok("fill", { selector: "input[name=name]", value: "Ann" });
      const d = r.snapshotDelta as R;
      assertEquals(d.focus, undefined, JSON.stringify(r));
      assertIncludes(String(d.tree), "Ann");
    });

    await t.step("bad input: press without a key is refused", async () => {
      const r = await mcp.call("press", {});
      assertEquals(r.isError, true, textOf(r));
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
    });
  } finally {
    await srv.close();
  }
});
