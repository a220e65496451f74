/**
 * Files browxai itself reads are not the agent's (red team, issue 17): the `--http` token
 * (`<workspace>/http-token` and its temp siblings) and the `--config` file when it lies in
 * the workspace are refused to every tool that names a path, to write (screenshot, har_save,
 * pdf_save, dump_storage_state) and to read (upload_file, inject_storage_state), and nothing
 * on disk changes.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

const TOKEN = "0123456789abcdef0123456789abcdef\n";
const CONFIG = JSON.stringify({ "viewport-size": "800x600" });

Deno.test("reserved files: the --http token and the --config file are refused to every path-taking tool", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-reserved-" }));
  await Deno.writeTextFile(join(ws, "http-token"), TOKEN, { mode: 0o600 });
  await Deno.chmod(join(ws, "http-token"), 0o600);
  await Deno.writeTextFile(join(ws, "config.json"), CONFIG);
  const page = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(`<!doctype html><title>Up</title><input type=file id=f>`, {
        headers: { "content-type": "text/html" },
      }),
  );
  const url = `http://127.0.0.1:${(page.addr as Deno.NetAddr).port}/`;
  const mcp = await startStdio({
    workspace: ws,
    args: ["--config", join(ws, "config.json")],
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  try {
    await mcp.ok("navigate", { url, snapshot: "none" });
    const attacks: [string, Record<string, unknown>][] = [
      ["screenshot", { path: "http-token" }],
      ["har_save", { path: "http-token" }],
      ["har_save", { path: join(ws, "http-token") }],
      ["har_save", { path: "http-token.1234.tmp" }],
      ["har_save", { path: "config.json" }],
      ["pdf_save", { path: "config.json" }],
      ["dump_storage_state", { path: "config.json" }],
      ["inject_storage_state", { state: "http-token" }],
      ["inject_storage_state", { state: "config.json" }],
      ["upload_file", { selector: "#f", paths: ["http-token"] }],
      ["upload_file", { selector: "#f", paths: ["config.json"] }],
    ];
    for (const [tool, args] of attacks) {
      const r = await mcp.call(tool, args);
      const why = `${tool} ${JSON.stringify(args)}: ${textOf(r).slice(0, 300)}`;
      assertTrue(r.isError === true, why);
      assertIncludes(textOf(r), "for itself", why);
      assertIncludes(textOf(r), "--http token, the --config file", why);
    }
    // Nothing changed on disk: the files as they were, no temp sibling left.
    assertEquals(await Deno.readTextFile(join(ws, "http-token")), TOKEN);
    assertEquals(await Deno.readTextFile(join(ws, "config.json")), CONFIG);
    const names = (await Array.fromAsync(Deno.readDir(ws))).map((e) => e.name);
    assertEquals(names.filter((n) => n.startsWith("http-token") || n.startsWith("config")).sort(), [
      "config.json",
      "http-token",
    ]);
    // An ordinary file beside them still works.
    await mcp.ok("har_save", { path: "run.har" });
  } finally {
    await mcp.close();
    await page.shutdown();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
