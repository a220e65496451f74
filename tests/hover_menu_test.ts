/**
 * A CSS-only hover menu (`.menu:hover ul { display: block }`, NU finding 10): a click on
 * `text=Settings`, whose only holder is the hidden menu item, hovers the menu first (as a person
 * does) and clicks the item; so does a click on the item's ref from `find`. Text hidden for
 * another reason (a menu opened by a click) is still not found, saying where it is hidden, with
 * the pointer left alone. Two targets at once is refused. The attack: under masking, a `text=`
 * guess of a secret the page echoes into a hover menu and a hidden box answers as a wrong guess.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";
import { join } from "node:path";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Menu</title>
<style>
  .menu { position: relative; display: inline-block }
  .menu ul { display: none; position: absolute; margin: 0; padding: 4px; list-style: none; background: #fff }
  .menu:hover ul { display: block }
  #more { display: none }
</style>
<h1>Account page</h1>
<div class="menu"><button>Account</button><ul>
  <li><a href="#profile" onclick="document.title = 'profile'">Profile</a></li>
  <li><a href="#settings" onclick="document.title = 'settings'">Settings</a></li>
</ul></div>
<button onclick="document.getElementById('more').style.display = 'block'">More</button>
<div id="more"><button onclick="document.title = 'export'">Export data</button></div>
<p id="log"></p>
<script>
  addEventListener("mousemove", () => { document.getElementById("log").textContent = "moved"; });
</script>`;

Deno.test("a CSS-only hover menu's item is clicked as a person does", async (t) => {
  const pages = servePages({ "/": PAGE });
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power,debug", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  // The pointer off the menu: it closes again.
  const away = () => mcp.ok("hover", { selector: "h1", snapshot: "none" });
  try {
    await mcp.ok("navigate", { url: `${pages.base}/`, snapshot: "none" });

    await t.step("text= of a hover menu's item: hovered open, clicked, said", async () => {
      const r = await mcp.ok("click", { selector: "text=Settings" });
      assertIncludes(
        (r.warnings as string[]).join("\n"),
        'moved the pointer over div.menu "Account',
      );
      assertEquals(await evalJs("document.title"), "settings");
      assertEquals(await evalJs("location.hash"), "#settings");
    });

    await t.step("a ref from find to the hidden item: the same", async () => {
      await away();
      assertEquals(
        await evalJs(`getComputedStyle(document.querySelector(".menu ul")).display`),
        "none",
      );
      const f = await mcp.ok("find", { query: "Profile link" });
      const item = (f.candidates as R[])[0]!;
      // Shown on the menu's hover: reachable, and said so (find_hover_test).
      assertEquals([item.name, item.actionable], ["Profile", true]);
      const r = await mcp.ok("click", { ref: item.ref });
      assertIncludes((r.warnings as string[]).join("\n"), "moved the pointer over div.menu");
      assertEquals(await evalJs("document.title"), "profile");
    });

    await t.step("hidden for another reason: not found, where it is hidden, no hover", async () => {
      await away();
      await evalJs(`document.getElementById("log").textContent = ""`);
      const r = await mcp.call("click", { selector: "text=Export data" });
      assertTrue(r.isError, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "not-found");
      assertIncludes(textOf(r), "display: none");
      assertEquals(await evalJs(`document.getElementById("log").textContent`), "");
      assertEquals(await evalJs("document.title"), "profile", "nothing was clicked");
    });

    await t.step("bad input: a selector and a ref at once", async () => {
      const r = await mcp.call("click", { selector: "text=Settings", ref: "e1" });
      assertTrue(r.isError, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "invalid-argument");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});

const KEY = "Zq7-hunter-Wv3x";
const ECHO = `<!doctype html><title>Echo</title>
<style>
  .menu { position: relative; display: inline-block }
  .menu ul { display: none; position: absolute; margin: 0; padding: 0; list-style: none }
  .menu:hover ul { display: block }
  #hid { display: none }
</style>
<input id="key" aria-label="Key">
<div id="hid">none</div>
<div class="menu"><button>Keys</button><ul><li><a id="echo" href="#k" onclick="document.title = 'clicked'">none</a></li></ul></div>
<script>
  document.getElementById("key").addEventListener("input", (e) => {
    document.getElementById("echo").textContent = e.target.value;
    document.getElementById("hid").textContent = e.target.value;
  });
</script>`;

Deno.test("secrets: a text= guess of a secret in a hover menu answers as a wrong one", async () => {
  const pages = servePages({ "/": ECHO });
  const ws = await Deno.makeTempDir({ prefix: "browxai-hover-secret-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `KEY=${KEY}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
      BROWX_SECRETS: secrets,
      BROWX_TOOLSETS: "core,power,debug",
    },
  });
  try {
    await mcp.ok("navigate", { url: `${pages.base}/`, snapshot: "none" });
    await mcp.ok("fill", { selector: "#key", value: "{{secret:KEY}}", snapshot: "none" });
    await eventually(
      async () =>
        (await mcp.ok("eval_js", { expression: `document.getElementById("echo").textContent` }))
          .value !== "none",
      5000,
      "the page's echo of the value",
    );
    const answers: string[] = [];
    // Parts: the whole value in clear is refused as guessing
    // (mcp/secret_guess.ts, tests/secrets_guess_test.ts).
    for (const guess of [KEY.slice(0, -1), "Zq7-hunter-Xy9"]) {
      const r = await mcp.call("click", { selector: `text=${guess}` });
      assertTrue(r.isError, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "not-found");
      answers.push(textOf(r).replaceAll(guess, "GUESS").replaceAll("[secret:KEY]", "GUESS"));
    }
    assertEquals(answers[0], answers[1], "right and wrong guesses answer alike");
    const title = await mcp.ok("eval_js", { expression: "document.title" });
    assertEquals(title.value, "Echo", "nothing was clicked");
  } finally {
    await mcp.close();
    await pages.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
