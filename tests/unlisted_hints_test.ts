/**
 * Hints name tools the agent can call, or say what they need (session 17, new-user finding
 * 3): with the default toolsets a click on a file input says to call upload_file and that it
 * needs the `files` toolset; a saved download says how to read it back (download_get), with
 * the same note; with `files` on, the note is gone and download_get reads the file.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;
const NOTE = 'not enabled here: upload_file needs the toolset "files" (BROWX_TOOLSETS)';

Deno.test("unlisted hints: default toolsets: upload_file and download_get say they need files", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("nu17-files.html"), snapshot: "none" });
    const chooser = await mcp.ok("click", { selector: "#cv", snapshot: "none" });
    const warning = (chooser.warnings as string[]).find((w) => w.includes("upload_file("));
    assertIncludes(String(warning), NOTE);
    const saved = await mcp.ok("click", { selector: "#report", download: true, snapshot: "none" });
    const id = ((saved.downloads as R[])[0]!).id;
    assertIncludes(String(saved.hint), `download_get({ id: "${id}" })`);
    assertIncludes(
      String(saved.hint),
      'download_get needs the toolset "files" (BROWX_TOOLSETS) and the capability "file-io"',
    );
    // The tool it names is indeed not there.
    const missing = await mcp.call("download_get", { id });
    assertEquals(missing.isError, true);
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("unlisted hints: with files on, the hint has no note and download_get reads the file", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,files", BROWX_CAPABILITIES: "read,navigation,action,file-io" },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("nu17-files.html"), snapshot: "none" });
    const chooser = await mcp.ok("click", { selector: "#cv", snapshot: "none" });
    const warning = (chooser.warnings as string[]).find((w) => w.includes("upload_file("));
    assertEquals(String(warning).includes("not enabled"), false);
    const saved = await mcp.ok("click", { selector: "#report", download: true, snapshot: "none" });
    const id = String(((saved.downloads as R[])[0]!).id);
    assertEquals(String(saved.hint), `read the saved file with download_get({ id: "${id}" })`);
    const read = await mcp.ok("download_get", { id });
    assertIncludes(JSON.stringify(read), "download");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
