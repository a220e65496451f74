/**
 * Downloads and uploads end to end: real Chromium, pages served by this
 * test on 127.0.0.1, MCP over stdio. Undeclared downloads are blocked and
 * leave nothing on disk; declared ones are saved under the workspace and can
 * be listed and read back; uploads reach the page through a hidden input and
 * through a file chooser; bad paths are refused before anything is attached.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { act, actionOf, errorOf } from "./_results.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;

const REPORT = "Quarterly numbers: 42\nend\n";
const BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

const FILES_PAGE = `<!doctype html><title>Files</title>
<h1>Files</h1>
<a id="dl" href="/file/report.txt">Report</a>
<button id="script-dl" onclick="
  const a = document.createElement('a');
  a.href = window.URL.createObjectURL(new Blob(['made by script\\n'], { type: 'text/plain' }));
  a.download = 'script.txt';
  document.body.append(a);
  a.click();
  a.remove();
">Export</button>
<p id="status">idle</p>`;

const UPLOAD_PAGE = `<!doctype html><title>Upload</title>
<h1>Upload</h1>
<input type="file" id="hidden-input" multiple style="display:none">
<input type="file" id="chooser-input" style="display:none">
<button id="chooser" onclick="document.getElementById('chooser-input').click()">Choose a file</button>
<pre id="out"></pre><pre id="out2"></pre>
<script>
  async function show(input, out) {
    const parts = [];
    for (const f of input.files) parts.push(f.name + ":" + (await f.text()));
    document.getElementById(out).textContent = parts.join("|");
  }
  document.getElementById("hidden-input").addEventListener("change", (e) => show(e.target, "out"));
  document.getElementById("chooser-input").addEventListener("change", (e) => show(e.target, "out2"));
</script>`;

function startServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const headers = { "cache-control": "no-store" };
    if (path === "/file/report.txt") {
      return new Response(REPORT, {
        headers: {
          ...headers,
          "content-type": "text/plain",
          "content-disposition": 'attachment; filename="report.txt"',
        },
      });
    }
    if (path === "/file/bytes.bin") {
      return new Response(BYTES, {
        headers: {
          ...headers,
          "content-type": "application/octet-stream",
          "content-disposition": 'attachment; filename="bytes.bin"',
        },
      });
    }
    if (path === "/file/huge.bin") {
      // Says 2 GiB, sends 64 KiB, then holds on until the download is cancelled: the cap must
      // act on the announced size, not wait for the bytes.
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (!sent) {
            sent = true;
            c.enqueue(new Uint8Array(64 * 1024));
            return;
          }
          await held;
          c.close();
        },
        cancel: () => release(),
      });
      return new Response(body, {
        headers: {
          ...headers,
          "content-type": "application/octet-stream",
          "content-length": String(2 * 1024 ** 3),
          "content-disposition": 'attachment; filename="huge.bin"',
        },
      });
    }
    const page = path === "/upload.html" ? UPLOAD_PAGE : path === "/files.html" ? FILES_PAGE : "";
    if (!page) return new Response("not found", { status: 404, headers });
    return new Response(page, { headers: { ...headers, "content-type": "text/html" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, url: (p: string) => origin + p, close: () => server.shutdown() };
}

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) names.push(e.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return names.sort();
}

async function evalJs(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

Deno.test("files: downloads and uploads", async (t) => {
  const srv = startServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval,file-io", BROWX_TOOLSETS: "all" },
  });
  const folder = join(mcp.workspace, ".downloads", "default");
  try {
    await mcp.ok("navigate", { url: srv.url("/files.html"), snapshot: "none" });

    await t.step("an undeclared link download is blocked and nothing is saved", async () => {
      const r = await mcp.call("click", { selector: "#dl" });
      assertEquals(r.isError, true, textOf(r));
      assertEquals(errorOf(r).code, "download-blocked");
      assertIncludes(textOf(r), "download: true");
      assertIncludes(textOf(r), "report.txt");
      const blocked = actionOf(r).downloadsBlocked!;
      assertEquals(blocked[0]!.filename, "report.txt");
      assertEquals(blocked[0]!.urlOrigin, srv.origin);
      assertEquals(await filesIn(folder), []);
      const incoming = join(mcp.workspace, ".downloads", ".incoming", "default");
      assertEquals(await filesIn(incoming), []);
      assertEquals((await mcp.ok("downloads_list")).downloads, []);
    });

    let firstId = "";
    await t.step("a declared link download is saved with its name and bytes", async () => {
      const r = await act(mcp, "click", { selector: "#dl", download: true, snapshot: "none" });
      assertEquals(r.ok, true);
      const [d] = r.downloads!;
      assertEquals(d!.filename, "report.txt");
      assertEquals(d!.path, join(await Deno.realPath(folder), "report.txt"));
      assertEquals(d!.sizeBytes, REPORT.length);
      assertEquals(d!.url, srv.url("/file/report.txt"));
      assertEquals(d!.urlOrigin, srv.origin);
      assertEquals(await Deno.readTextFile(String(d!.path)), REPORT);
      firstId = String(d!.id);
      // The permission paid for one file: the same click without it is blocked again.
      const again = await mcp.call("click", { selector: "#dl", snapshot: "none" });
      assertEquals(errorOf(again).code, "download-blocked");
      assertEquals(await filesIn(folder), ["report.txt"]);
    });

    await t.step("a second copy gets a deduplicated name", async () => {
      const r = await act(mcp, "click", { selector: "#dl", download: true, snapshot: "none" });
      assertEquals(r.downloads![0]!.filename, "report (1).txt");
      assertEquals(await filesIn(folder), ["report (1).txt", "report.txt"]);
    });

    await t.step("a download started by page script during a click", async () => {
      const blocked = await mcp.call("click", { selector: "#script-dl", snapshot: "none" });
      assertEquals(errorOf(blocked).code, "download-blocked");
      assertIncludes(textOf(blocked), "script.txt");
      const r = await act(mcp, "click", {
        selector: "#script-dl",
        download: true,
        snapshot: "none",
      });
      const [d] = r.downloads!;
      assertEquals(d!.filename, "script.txt");
      assertEquals(d!.urlOrigin, srv.origin);
      assertEquals(await Deno.readTextFile(String(d!.path)), "made by script\n");
    });

    await t.step("navigate to a download URL does not move the tab", async () => {
      const r = await mcp.call("navigate", { url: srv.url("/file/bytes.bin") });
      assertEquals(errorOf(r).code, "download-blocked", textOf(r));
      assertIncludes(textOf(r), "the tab did not move");
      assertEquals(await evalJs(mcp, "location.pathname"), "/files.html");
      const ok = await act(mcp, "navigate", { url: srv.url("/file/bytes.bin"), download: true });
      assertEquals(ok.navigation.changed, false);
      const [d] = ok.downloads!;
      assertEquals(d!.filename, "bytes.bin");
      assertEquals(new Uint8Array(await Deno.readFile(String(d!.path))), BYTES);
      assertEquals(await evalJs(mcp, "location.pathname"), "/files.html");
      assertEquals(await evalJs(mcp, "document.querySelector('#status').textContent"), "idle");
    });

    await t.step("a download past 1 GiB is cancelled and says why", async () => {
      await mcp.ok("navigate", { url: srv.url("/files.html"), snapshot: "none" });
      const r = await mcp.call("navigate", { url: srv.url("/file/huge.bin"), download: true });
      assertIncludes(
        (actionOf(r).warnings ?? []).join("\n"),
        `"huge.bin" failed (it is 2 GiB, past browxai's limit of 1 GiB`,
      );
      assertEquals(actionOf(r).downloads ?? [], []);
      assertTrue(!(await filesIn(folder)).includes("huge.bin"));
      const incoming = join(mcp.workspace, ".downloads", ".incoming", "default");
      await eventually(async () => (await filesIn(incoming)).length === 0, 10_000, "no staging");
    });

    await t.step("downloads_list and download_get read the files back", async () => {
      const list = (await mcp.ok("downloads_list")).downloads as R[];
      assertEquals(
        list.map((d) => d.filename),
        ["report.txt", "report (1).txt", "script.txt", "bytes.bin"],
      );
      const text = await mcp.ok("download_get", { id: firstId });
      assertEquals(text.encoding, "utf-8");
      assertEquals(text.content, REPORT);
      assertEquals(text.contentType, "text/plain");
      const bin = await mcp.ok("download_get", { id: String(list[3]!.id) });
      assertEquals(bin.encoding, "base64");
      assertEquals(bin.content, btoa(String.fromCharCode(...BYTES)));
      const part = await mcp.ok("download_get", { id: firstId, maxBytes: 5 });
      assertEquals(part.content, REPORT.slice(0, 5));
      assertEquals(part.truncated, true);
      assertEquals(part.nextOffset, 5);
      const rest = await mcp.ok("download_get", { id: firstId, offset: 5 });
      assertEquals(rest.content, REPORT.slice(5));
      const missing = await mcp.call("download_get", { id: "d999" });
      assertEquals(errorOf(missing).code, "not-found");
      assertIncludes(textOf(missing), firstId);
    });

    await t.step("capture on saves downloads without the per-call flag", async () => {
      await mcp.ok("downloads_capture", { on: true });
      const r = await act(mcp, "click", { selector: "#dl", snapshot: "none" });
      assertEquals(r.downloads![0]!.filename, "report (2).txt");
      await mcp.ok("downloads_capture", { on: false });
      const off = await mcp.call("click", { selector: "#dl", snapshot: "none" });
      assertEquals(errorOf(off).code, "download-blocked");
    });

    await t.step("another session keeps its own downloads and folder", async () => {
      await mcp.ok("open_session", { session: "other" });
      await mcp.ok("navigate", { session: "other", url: srv.url("/files.html"), snapshot: "none" });
      const r = await act(mcp, "click", {
        session: "other",
        selector: "#dl",
        download: true,
        snapshot: "none",
      });
      const [d] = r.downloads!;
      assertEquals(d!.id, "d1");
      assertEquals(
        d!.path,
        join(await Deno.realPath(mcp.workspace), ".downloads", "other", "report.txt"),
      );
      assertEquals(
        ((await mcp.ok("downloads_list", { session: "other" })).downloads as R[]).length,
        1,
      );
      assertEquals(((await mcp.ok("downloads_list")).downloads as R[]).length, 5);
      await mcp.ok("close_session", { session: "other" });
    });

    const up = join(mcp.workspace, "up");
    await Deno.mkdir(up);
    await Deno.writeTextFile(join(up, "hello.txt"), "hello upload");
    await Deno.writeTextFile(join(up, "second.txt"), "second file");

    await t.step("upload to a hidden input: the page sees names and bytes", async () => {
      await mcp.ok("navigate", { url: srv.url("/upload.html"), snapshot: "none" });
      const r = await mcp.ok("upload_file", {
        selector: "#hidden-input",
        paths: ["up/hello.txt", join(up, "second.txt")],
      });
      const upload = r.upload as { input: string; files: R[] };
      assertEquals(upload.files.map((f) => f.name), ["hello.txt", "second.txt"]);
      assertEquals(upload.files[0]!.sizeBytes, "hello upload".length);
      assertIncludes(upload.input, "hidden-input");
      await mcp.ok("wait_for", { text: "hello.txt:hello upload|second.txt:second file" });
    });

    await t.step("upload through a button that opens a file chooser", async () => {
      const r = await mcp.ok("upload_file", { selector: "#chooser", paths: ["up/hello.txt"] });
      const upload = r.upload as { input: string; files: R[] };
      assertIncludes(upload.input, "chooser-input");
      assertEquals(upload.files.map((f) => f.name), ["hello.txt"]);
      await mcp.ok("wait_for", { selector: "#out2", state: "visible" });
      assertEquals(
        await evalJs(mcp, "document.querySelector('#out2').textContent"),
        "hello.txt:hello upload",
      );
    });

    await t.step("missing paths are all reported, and nothing is attached", async () => {
      await mcp.ok("navigate", { url: srv.url("/upload.html"), snapshot: "none" });
      const r = await mcp.call("upload_file", {
        selector: "#hidden-input",
        paths: ["up/hello.txt", "nope-1.txt", "up/nope-2.txt"],
      });
      assertEquals(errorOf(r).code, "not-found", textOf(r));
      assertIncludes(textOf(r), "nope-1.txt");
      assertIncludes(textOf(r), "up/nope-2.txt");
      assertEquals(
        await evalJs(mcp, "document.querySelector('#hidden-input').files.length"),
        0,
      );
    });

    await t.step("traversal and outside paths are refused", async () => {
      await Deno.symlink("/etc", join(mcp.workspace, "etc-link"));
      for (const path of ["../../etc/passwd", "/etc/passwd", "etc-link/passwd", "", "up"]) {
        const r = await mcp.call("upload_file", { selector: "#hidden-input", paths: [path] });
        assertEquals(errorOf(r).code, "refused", `${JSON.stringify(path)}: ${textOf(r)}`);
        assertIncludes(textOf(r), "workspace");
      }
      assertEquals(
        await evalJs(mcp, "document.querySelector('#hidden-input').files.length"),
        0,
      );
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("files: confirm hooks refuse declared downloads and uploads without a human", async () => {
  const srv = startServer();
  const mcp = await startStdio({
    env: { BROWX_CONFIRM_REQUIRED: "file_download,file_upload", BROWX_TOOLSETS: "all" },
  });
  try {
    await mcp.ok("navigate", { url: srv.url("/files.html"), snapshot: "none" });
    const r = await mcp.call("click", { selector: "#dl", download: true });
    assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
    assertIncludes(textOf(r), "file_download");
    // Refused before acting: no download began, none was saved.
    assertEquals(r.structuredContent!.downloadsBlocked, undefined);
    assertEquals(await filesIn(join(mcp.workspace, ".downloads", "default")), []);
    const capture = await mcp.call("downloads_capture", { on: true });
    assertEquals(errorOf(capture).code, "blocked-by-policy");
    // Undeclared, it is still cancelled as usual.
    const plain = await mcp.call("click", { selector: "#dl" });
    assertEquals(errorOf(plain).code, "download-blocked");

    await Deno.writeTextFile(join(mcp.workspace, "a.txt"), "a");
    await mcp.ok("navigate", { url: srv.url("/upload.html"), snapshot: "none" });
    const up = await mcp.call("upload_file", { selector: "#hidden-input", paths: ["a.txt"] });
    assertEquals(errorOf(up).code, "blocked-by-policy");
    assertIncludes(textOf(up), "file_upload");
    // download_get needs file-io, which is off by default.
    const get = await mcp.call("download_get", { id: "d1" });
    assertEquals(errorOf(get).code, "capability-required");
    assertTrue(get.isError);
  } finally {
    await mcp.close();
    await srv.close();
  }
});
