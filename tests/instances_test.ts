/**
 * What a killed server leaves in the workspace: a stdio server's artifact folder and an HTTP
 * server's client areas are swept by the next start once their server is dead (its instance
 * lock is free); a live server's stay.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startHttp, startStdio } from "./_mcp.ts";
import { alive, eventually } from "./_util.ts";

function names(path: string): string[] {
  try {
    return [...Deno.readDirSync(path)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("instances: areas of servers killed with -9 are swept at the next start; live ones kept", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-inst-ws-" });
  const env = { BROWX_TOOLSETS: "core,sessions,storage" };
  const started: McpHarness[] = [];
  const http = await startHttp({ env, workspace });
  try {
    // A live stdio server, a stdio server to kill, an HTTP client whose server gets killed.
    const live = await startStdio({ env, workspace });
    started.push(live);
    await live.ok("artifact_save", { name: "keep.txt", content: "live" });
    const doomed = await startStdio({ env, workspace });
    started.push(doomed);
    const saved = await doomed.ok("artifact_save", { name: "x.txt", content: "gone soon" });
    const client = await http.connect();
    await client.ok("artifact_save", { name: "y.txt", content: "client" });
    assertEquals(names(`${workspace}/.artifacts`).length, 2, "two stdio instances");
    assertEquals(names(`${workspace}/.clients`).length, 1, "one HTTP client area");

    Deno.kill(doomed.pid!, "SIGKILL");
    http.child.kill("SIGKILL");
    await http.child.status;
    await eventually(() => !alive(doomed.pid!), 10_000, "the killed stdio server to exit");
    // Nothing removed them: the servers died without a word.
    assertEquals(names(`${workspace}/.artifacts`).length, 2);
    assertEquals(names(`${workspace}/.clients`).length, 1);

    const next = await startStdio({ env, workspace });
    started.push(next);
    await next.ok("artifact_list"); // the server is up (the sweep runs before it serves)
    const doomedDir = String(saved.path).split("/.artifacts/")[1]!.split("/")[0]!;
    const left = names(`${workspace}/.artifacts`);
    assertTrue(!left.includes(doomedDir), `the dead server's folder is gone: ${left}`);
    assertEquals(names(`${workspace}/.clients`), [], "the dead HTTP server's client area is gone");
    // The live server's artifact is still there and readable.
    const kept = await live.ok("artifact_get", { name: "keep.txt" });
    assertEquals(kept.content, "live");
  } finally {
    for (const h of started) await h.close();
    await http.close();
    await Deno.remove(workspace, { recursive: true }).catch(() => {});
  }
});

Deno.test("instances: SIGTERM of an HTTP server closes its clients and removes their areas", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-inst-ws-" });
  const http = await startHttp({ env: { BROWX_TOOLSETS: "core,sessions,storage" }, workspace });
  try {
    const client = await http.connect();
    await client.ok("artifact_save", { name: "y.txt", content: "client" });
    assertEquals(names(`${workspace}/.clients`).length, 1);
    http.child.kill("SIGTERM");
    const status = await http.child.status;
    // It drains first (no call was running) and then exits 0 (issue 16: tests/ops_test.ts).
    assertEquals(status.code, 0, http.stderr());
    assertEquals(names(`${workspace}/.clients`), [], "the client's area went with it");
    assertEquals(names(`${workspace}/.instances`), [], "and the instance lock");
  } finally {
    await http.close();
    await Deno.remove(workspace, { recursive: true }).catch(() => {});
  }
});
