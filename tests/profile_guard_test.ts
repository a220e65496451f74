/**
 * The red team's path1: with `--user-data-dir` inside the workspace, `upload_file` attached
 * the live profile's files (its cookie database) to a page, and `screenshot({ path })`
 * overwrote its Preferences; the `--storage-state` and `--init-script` files were open to
 * the agent too. Each is reserved now. Over MCP stdio with real Chromium on that profile.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";

Deno.test("workspace guard: the browser's profile, storage state and init scripts are not the agent's", async () => {
  const srv = startTwoOrigins(() => ({
    "/f": `<title>f</title><input type=file id=f aria-label=f multiple>`,
  }));
  const ws = await Deno.makeTempDir({ prefix: "browxai-profile-guard-" });
  await Deno.writeTextFile(join(ws, "state.json"), `{"cookies":[],"origins":[]}`);
  await Deno.writeTextFile(join(ws, "init.js"), `window.__init = 1;`);
  await Deno.writeTextFile(join(ws, "mine.txt"), `the agent's own file`);
  const mcp = await startStdio({
    workspace: ws,
    args: [
      "--user-data-dir",
      join(ws, "chrome-profile"),
      "--storage-state",
      join(ws, "state.json"),
      "--init-script",
      join(ws, "init.js"),
    ],
    env: { BROWX_CAPABILITIES: "read,navigation,action,file-io", BROWX_TOOLSETS: "all" },
  });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/f`, snapshot: "none" });
    for (
      const paths of [
        ["chrome-profile/Default/Preferences"],
        ["chrome-profile/Local State"],
        ["state.json"],
        ["init.js"],
      ]
    ) {
      const r = await mcp.call("upload_file", { selector: "#f", paths, snapshot: "none" });
      assertEquals(r.isError, true, `${paths}: ${textOf(r)}`);
      assertIncludes(textOf(r), "for itself");
    }
    for (const path of ["chrome-profile/Default/Preferences", "init.js", "state.json"]) {
      const r = await mcp.call("screenshot", { path });
      assertEquals(r.isError, true, `${path}: ${textOf(r)}`);
      assertIncludes(textOf(r), "for itself");
    }
    assertEquals(await Deno.readTextFile(join(ws, "init.js")), `window.__init = 1;`);
    // The agent's own files still go.
    await mcp.ok("upload_file", { selector: "#f", paths: ["mine.txt"], snapshot: "none" });
  } finally {
    await mcp.close();
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
