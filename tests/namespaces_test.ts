/**
 * Client namespaces over real HTTP (issue 11): two clients of one `--http` server each get
 * their own artifacts, auth states, dumps and persistent profiles. Client B performs the four
 * attacks of the red team against client A (list and read A's artifacts, load A's saved login,
 * open A's persistent profile after A closed it, wipe A's artifacts by closing its own
 * `default`) and each fails; a client that goes takes its area with it;
 * `BROWX_SHARED_AUTH_STATES=1` shares auth states on purpose.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startHttp, textOf, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;
const SECRET = "A-session-4b1e";

function codeOf(r: ToolResult): string {
  return String(((r.structuredContent?.error ?? {}) as R).code);
}

function startPage() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/report.txt") {
      return new Response("report\n", {
        headers: { "content-disposition": 'attachment; filename="report.txt"' },
      });
    }
    return new Response(
      '<!doctype html><title>App</title><a id="dl" href="/report.txt">Get</a>' +
        '<input type="file" id="f">',
      { headers: { "content-type": "text/html" } },
    );
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

async function cookieValues(c: McpHarness, session = "default"): Promise<string[]> {
  return ((await c.ok("cookies_list", { session })).cookies as R[]).map((x) => String(x.value));
}

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("namespaces: one HTTP client cannot reach another's files", async (t) => {
  const page = startPage();
  const server = await startHttp({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,file-io" },
  });
  const a = await server.connect();
  const b = await server.connect();
  try {
    let areaA = "";
    await t.step("B neither lists nor reads A's artifacts", async () => {
      const s = await a.ok("artifact_save", { name: "notes.txt", content: "A's notes" });
      areaA = String(s.path).replace(/\/artifacts\/default\/notes\.txt$/, "");
      assertTrue(areaA.includes("/.clients/"), areaA);
      assertEquals((await b.ok("artifact_list")).count, 0);
      assertEquals(codeOf(await b.call("artifact_get", { name: "notes.txt" })), "not-found");
    });

    await t.step("B cannot load A's saved login, by name or by path", async () => {
      await a.ok("navigate", { url: page.url, snapshot: "none" });
      await a.ok("cookies_set", { name: "sid", value: SECRET, url: page.url });
      const saved = await a.ok("auth_save", { name: "login" });
      assertIncludes(String(saved.note), "until its MCP session ends");
      const dump = await a.ok("dump_storage_state", { path: "state.json" });
      assertTrue(String(dump.path).startsWith(areaA), String(dump.path));
      assertIncludes(String(dump.note), "until its MCP session ends");
      assertEquals((await b.ok("auth_list")).count, 0);
      assertEquals(codeOf(await b.call("auth_load", { name: "login" })), "not-found");
      const open = await b.call("open_session", { session: "x", authState: "login" });
      assertTrue(open.isError, textOf(open));
      for (
        const state of [
          String(dump.path),
          join(areaA, "auth-states", "login.json"),
          "../" + areaA.split("/").slice(-2).join("/") + "/state.json",
        ]
      ) {
        const r = await b.call("inject_storage_state", { state });
        assertTrue(r.isError, `${state}: ${textOf(r)}`);
      }
      assertTrue(!(await cookieValues(b)).includes(SECRET));
    });

    await t.step("B does not open A's persistent profile after A closed it", async () => {
      await a.ok("open_session", { session: "p", mode: "persistent" });
      await a.ok("navigate", { session: "p", url: page.url, snapshot: "none" });
      await a.ok("cookies_set", {
        session: "p",
        name: "sid",
        value: SECRET,
        url: page.url,
        expires: Math.floor(Date.now() / 1000) + 3600,
      });
      await a.ok("close_session", { session: "p" });
      await b.ok("open_session", { session: "p", mode: "persistent" });
      assertTrue(!(await cookieValues(b, "p")).includes(SECRET));
      // Its profile is its own folder, A's is untouched.
      assertTrue(await exists(join(areaA, "profiles", "p")));
      await b.ok("close_session", { session: "p" });
    });

    await t.step("downloads land in each client's area; B cannot upload A's", async () => {
      await a.ok("navigate", { url: page.url, snapshot: "none" });
      const got = await a.ok("click", { selector: "#dl", download: true, snapshot: "none" });
      const pathA = String((got.downloads as R[])[0]!.path);
      assertTrue(pathA.startsWith(join(areaA, "downloads", "default")), pathA);
      await b.ok("navigate", { url: page.url, snapshot: "none" });
      const up = await b.call("upload_file", { selector: "#f", paths: [pathA] });
      assertEquals(codeOf(up), "refused", textOf(up));
      const mine = await b.ok("click", { selector: "#dl", download: true, snapshot: "none" });
      const pathB = String((mine.downloads as R[])[0]!.path);
      assertTrue(pathB.includes("/.clients/") && !pathB.startsWith(areaA), pathB);
      await b.ok("upload_file", { selector: "#f", paths: [pathB] });
    });

    await t.step("B closing its default leaves A's artifacts", async () => {
      await b.ok("artifact_save", { name: "notes.txt", content: "B's notes" });
      await b.ok("close_session", { session: "default" });
      assertEquals((await a.ok("artifact_get", { name: "notes.txt" })).content, "A's notes");
    });

    await t.step("a client that goes takes its area with it", async () => {
      await a.close();
      await eventually(async () => !await exists(areaA), 15_000, "A's area removed");
      assertEquals((await b.ok("artifact_list")).count, 0);
    });
  } finally {
    await server.close();
    await page.close();
  }
});

Deno.test("namespaces: BROWX_SHARED_AUTH_STATES=1 shares auth states, not artifacts", async () => {
  const server = await startHttp({
    env: { BROWX_TOOLSETS: "all", BROWX_SHARED_AUTH_STATES: "1" },
  });
  const a = await server.connect();
  const b = await server.connect();
  try {
    await a.ok("auth_save", { name: "shared-login" });
    assertEquals((await b.ok("auth_list")).names, ["shared-login"]);
    assertTrue(await exists(join(server.workspace, ".auth-states", "shared-login.json")));
    await a.ok("artifact_save", { name: "n", content: "1" });
    assertEquals((await b.ok("artifact_list")).count, 0);
  } finally {
    await server.close();
  }
});
