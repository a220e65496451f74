/**
 * The red team's storage planting attack (session 16), over MCP stdio against real Chromium:
 * the site with a bound secret runs what its storage holds (as many apps do: a stored widget
 * script `eval`ed, stored HTML set as `innerHTML`). Without `eval`, the agent wrote a script
 * into its localStorage (also sessionStorage, an IndexedDB record, a cookie, a storage state,
 * a saved auth state, a new session's state), reloaded, filled the bound secret and read it
 * back from the title (base64, reversed: a transform the mask does not know). Now such a write
 * needs `eval`, where a secret may be filled; elsewhere it works as before; and while secrets
 * can be filled, what was written is audited as code (hash and head), not `[redacted]`.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

/** The agent's script: shows the filled field in the title, base64 reversed. */
const EVIL = "setInterval(() => { const v = document.getElementById('pw').value; " +
  "if (v) document.title = 'T:' + btoa(v).split('').reverse().join('') }, 50)";
const STOLEN = "T:" + btoa(SECRET).split("").reverse().join("");

/** The app: runs the widget its storage holds (local, session, cookie, IndexedDB), says which. */
const APP = `<title>App</title><input id=pw type=password aria-label=pw><p id=status>loading</p>
<script>
const found = [];
const run = (src, code) => { if (code) { found.push(src); try { (0, eval)(code) } catch {} } };
run('local', localStorage.getItem('widget'));
run('session', sessionStorage.getItem('widget'));
const m = document.cookie.match(/(?:^|; )widget=([^;]*)/);
run('cookie', m && atob(m[1]));
const req = indexedDB.open('app', 1);
req.onupgradeneeded = () => req.result.createObjectStore('kv');
req.onsuccess = () => {
  const g = req.result.transaction('kv').objectStore('kv').get('widget');
  g.onsuccess = () => {
    run('idb', g.result);
    document.getElementById('status').textContent = 'found: ' + (found.join(',') || 'none');
  };
};
</script>`;

type R = Record<string, unknown>;

function assertNeedsEval(r: ToolResult, what: string): void {
  assertEquals(r.isError, true, `${what}: ${textOf(r)}`);
  const s = r.structuredContent ?? {};
  assertEquals((s.error as R | undefined)?.code, "capability-required", `${what}: ${textOf(r)}`);
  assertEquals(s.requiredCapability, "eval", `${what}: ${textOf(r)}`);
  assertTrue(textOf(r).includes("PW"), `${what} names the secret: ${textOf(r)}`);
  assertTrue(!textOf(r).includes(SECRET), `${what}: no value`);
}

/** Opens the app and waits until it has looked through its storage. */
async function openApp(mcp: McpHarness, url: string): Promise<string> {
  await mcp.ok("navigate", { url, snapshot: "none" });
  const r = await mcp.ok("wait_for", { text: "found:" });
  assertEquals(r.status, "ok", JSON.stringify(r));
  const page = await mcp.ok("read_page", {});
  return String(JSON.stringify(page).match(/found: [a-z,]+/)?.[0]);
}

async function auditLines(ws: string): Promise<R[]> {
  let text = "";
  for await (const f of Deno.readDir(join(ws, "audit"))) {
    text += await Deno.readTextFile(join(ws, "audit", f.name));
  }
  return text.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("storage writes where a bound secret is filled need eval: planted code cannot read it", async (t) => {
  const srv = startTwoOrigins(() => ({ "/": APP }));
  const ws = await Deno.makeTempDir({ prefix: "browxai-rt-plant-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${srv.a}=${SECRET}\n`, { mode: 0o600 });
  const env = { BROWX_SECRETS: secrets, BROWX_TOOLSETS: "all" };
  const planted = {
    cookies: [],
    origins: [{ origin: srv.a, localStorage: [{ name: "widget", value: EVIL }] }],
  };
  // A state saved earlier (another run, another configuration) that carries the script.
  await Deno.mkdir(join(ws, ".auth-states"), { recursive: true });
  await Deno.writeTextFile(join(ws, ".auth-states", "planted.json"), JSON.stringify(planted));
  try {
    await t.step("without eval: every way in is refused, the app finds nothing", async () => {
      const mcp = await startStdio({
        workspace: ws,
        env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,secrets" },
      });
      try {
        assertEquals(await openApp(mcp, `${srv.a}/`), "found: none");
        assertNeedsEval(
          await mcp.call("localstorage_set", { key: "widget", value: EVIL }),
          "localstorage_set",
        );
        assertNeedsEval(
          await mcp.call("sessionstorage_set", { key: "widget", value: EVIL }),
          "sessionstorage_set",
        );
        assertNeedsEval(
          await mcp.call("idb_put", { dbName: "app", storeName: "kv", key: "widget", value: EVIL }),
          "idb_put",
        );
        assertNeedsEval(
          await mcp.call("cookies_set", { name: "widget", value: btoa(EVIL), url: `${srv.a}/` }),
          "cookies_set",
        );
        // A cookie of the parent domain (here: the host without a port) reaches it as well.
        assertNeedsEval(
          await mcp.call("cookies_set", {
            name: "widget",
            value: btoa(EVIL),
            domain: "127.0.0.1",
            path: "/",
          }),
          "cookies_set by domain",
        );
        assertNeedsEval(
          await mcp.call("inject_storage_state", { state: planted, mode: "merge" }),
          "inject_storage_state",
        );
        assertNeedsEval(await mcp.call("auth_load", { name: "planted" }), "auth_load");
        assertNeedsEval(
          await mcp.call("open_session", { session: "s2", storageState: planted }),
          "open_session",
        );
        const sessions = JSON.stringify(await mcp.ok("list_sessions", {}));
        assertTrue(!sessions.includes('"s2"'), `no half-made session: ${sessions}`);

        // The rest of the attack: the app finds nothing to run, the secret stays in its field.
        assertEquals(await openApp(mcp, `${srv.a}/`), "found: none");
        await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
        assertEquals((await mcp.ok("get_url")).title, "App");

        // Where no secret is filled (B), storage writes work as before.
        await mcp.ok("navigate", { url: `${srv.b}/`, snapshot: "none" });
        await mcp.ok("localstorage_set", { key: "widget", value: "harmless" });
        await mcp.ok("cookies_set", { name: "c", value: "1", url: `${srv.b}/` });
        await mcp.ok("inject_storage_state", {
          mode: "merge",
          state: {
            cookies: [],
            origins: [{ origin: srv.b, localStorage: [{ name: "k", value: "v" }] }],
          },
        });
        assertEquals((await mcp.ok("localstorage_get", { key: "k" })).value, "v");
      } finally {
        await mcp.close();
      }
      // The attempt is in the audit as the code it was, not "[redacted]".
      const refused = (await auditLines(ws)).filter((l) =>
        l.tool === "localstorage_set" && l.phase !== "start" && l.ok === false
      );
      assertEquals(refused.length, 1);
      const value = (refused[0]!.args as R).value as R;
      assertEquals(value.head, EVIL);
      assertEquals(value.sha256, createHash("sha256").update(EVIL).digest("hex"));
      assertEquals(refused[0]!.requiredCapability, "eval");
    });

    await t.step("with eval: the write runs (the power eval names is real)", async () => {
      const mcp = await startStdio({
        workspace: ws,
        env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,secrets,eval" },
      });
      try {
        await openApp(mcp, `${srv.a}/`);
        await mcp.ok("localstorage_set", { key: "widget", value: EVIL });
        assertEquals(await openApp(mcp, `${srv.a}/`), "found: local");
        await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
        await eventually(
          async () => (await mcp.ok("get_url")).title === STOLEN,
          10_000,
          "the planted script to show the value",
        );
      } finally {
        await mcp.close();
      }
    });
  } finally {
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
