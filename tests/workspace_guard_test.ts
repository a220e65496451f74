/**
 * The workspace path guard under attack, over MCP stdio against real Chromium (issue 11):
 * links planted in the workspace (a symlinked or hard-linked artifact, an artifact folder
 * linked into `audit/`, a hard link at an auth state's or a dump's name, a download swapped
 * for a link, a profile folder linked outside) never let a tool read or write outside; with
 * only `read`, `dump_storage_state({ path })` writes nothing; the secrets file is no tool's
 * target; two stdio servers on one workspace keep their artifacts apart.
 */
import { dirname, join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";

type R = Record<string, unknown>;
const OUTSIDE = "OUTSIDE SECRET 7f3a";

function codeOf(r: ToolResult): string {
  return String(((r.structuredContent?.error ?? {}) as R).code);
}

/** Every file under `dir` (relative paths) with its content, except the audit log. */
async function tree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const rel = prefix + e.name;
    if (rel === "audit") continue;
    const abs = join(dir, e.name);
    if (e.isDirectory) Object.assign(out, await tree(abs, rel + "/"));
    else out[rel] = e.isSymlink ? `-> ${await Deno.readLink(abs)}` : await Deno.readTextFile(abs);
  }
  return out;
}

function startPages() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/report.txt") {
      return new Response("the report\n", {
        headers: { "content-disposition": 'attachment; filename="report.txt"' },
      });
    }
    return new Response(
      `<!doctype html><title>P</title><a id="dl" href="/report.txt">Get</a>
<input type="file" id="f">`,
      {
        headers: { "content-type": "text/html" },
      },
    );
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { url: (p: string) => origin + p, close: () => server.shutdown() };
}

Deno.test("path guard: links planted in the workspace lead nowhere", async (t) => {
  const pages = startPages();
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-outside-" }));
  const secret = join(outside, "secret.txt");
  await Deno.writeTextFile(secret, OUTSIDE);
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,file-io,eval" },
  });
  const ws = await Deno.realPath(mcp.workspace);
  const outsideUntouched = async () => {
    assertEquals(await Deno.readTextFile(secret), OUTSIDE);
    assertEquals((await Array.fromAsync(Deno.readDir(outside))).map((e) => e.name), [
      "secret.txt",
    ]);
  };
  try {
    const saved = await mcp.ok("artifact_save", { name: "mine.txt", content: "mine" });
    const dir = dirname(String(saved.path));
    const auditDir = join(ws, "audit");
    const auditFile = join(auditDir, (await Array.fromAsync(Deno.readDir(auditDir)))[0]!.name);

    await t.step("artifact_get refuses symlinked and hard-linked artifacts", async () => {
      await Deno.symlink(auditFile, join(dir, "sym-audit"));
      await Deno.link(auditFile, join(dir, "hard-audit"));
      await Deno.symlink(secret, join(dir, "sym-out"));
      await Deno.link(secret, join(dir, "hard-out"));
      for (const name of ["sym-audit", "hard-audit", "sym-out", "hard-out"]) {
        const r = await mcp.call("artifact_get", { name });
        assertEquals(codeOf(r), "refused", `${name}: ${textOf(r)}`);
        const all = textOf(r) + JSON.stringify(r.structuredContent);
        assertTrue(!all.includes(OUTSIDE) && !all.includes('"tool"'), all);
      }
      const list = await mcp.ok("artifact_list");
      assertEquals((list.artifacts as R[]).map((a) => a.name), ["mine.txt"]);
    });

    await t.step("an artifact folder linked into audit/ cannot forge the log", async () => {
      await Deno.symlink(auditDir, join(dirname(dir), "evil"));
      await mcp.ok("open_session", { session: "evil" });
      const before = await Deno.readTextFile(auditFile);
      const r = await mcp.call("artifact_save", {
        session: "evil",
        name: auditFile.split("/").pop()!,
        content: '{"tool":"forged"}\n',
      });
      assertEquals(codeOf(r), "refused", textOf(r));
      assertIncludes(textOf(r), "symlink");
      const after = await Deno.readTextFile(auditFile);
      assertTrue(after.startsWith(before) && !after.includes('"forged"'));
      // Closing the session removes the link, not the audit log.
      await mcp.ok("close_session", { session: "evil" });
      assertTrue((await Deno.stat(auditFile)).isFile);
    });

    await t.step(
      "auth_save and dump_storage_state replace a hard link, never write through",
      async () => {
        await Deno.mkdir(join(ws, ".auth-states"), { recursive: true });
        await Deno.link(secret, join(ws, ".auth-states", "bob.json"));
        await Deno.link(secret, join(ws, "dump.json"));
        await mcp.ok("auth_save", { name: "bob" });
        await mcp.ok("dump_storage_state", { path: "dump.json" });
        await outsideUntouched();
        for (const f of [join(ws, ".auth-states", "bob.json"), join(ws, "dump.json")]) {
          const info = await Deno.lstat(f);
          assertEquals([info.nlink, info.mode! & 0o777], [1, 0o600], f);
          assertIncludes(await Deno.readTextFile(f), '"cookies"');
        }
        await Deno.symlink(outside, join(ws, "outdir"));
        const r = await mcp.call("dump_storage_state", { path: "outdir/state.json" });
        assertEquals(codeOf(r), "refused", textOf(r));
        const inj = await mcp.call("inject_storage_state", { state: "outdir/secret.txt" });
        assertEquals(codeOf(inj), "refused", textOf(inj));
        await outsideUntouched();
      },
    );

    await t.step("download_get refuses a downloaded file swapped for a link", async () => {
      await mcp.ok("navigate", { url: pages.url("/"), snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#dl", download: true, snapshot: "none" });
      const d = (r.downloads as R[])[0]!;
      assertEquals((await mcp.ok("download_get", { id: d.id })).content, "the report\n");
      const file = String(d.path);
      await Deno.remove(file);
      await Deno.symlink(secret, file);
      const sym = await mcp.call("download_get", { id: d.id });
      assertEquals(codeOf(sym), "refused", textOf(sym));
      await Deno.remove(file);
      await Deno.link(secret, file);
      const hard = await mcp.call("download_get", { id: d.id });
      assertEquals(codeOf(hard), "refused", textOf(hard));
      for (const x of [sym, hard]) {
        assertTrue(!(textOf(x) + JSON.stringify(x.structuredContent)).includes(OUTSIDE));
      }
      // Swapped between check and use: a loop flips the file between the real one and a
      // link out (each flip one atomic rename) while download_get runs.
      await Deno.remove(file);
      await Deno.writeTextFile(join(ws, "real.src"), "the report\n");
      // Stopped by a flag after its round (a killed bash leaves its last mv running).
      const stop = join(ws, "swap.stop");
      const swap = new Deno.Command("bash", {
        args: [
          "-c",
          `while [ ! -e ${stop} ]; do ln -sfn ${secret} ${file}.l; mv -Tf ${file}.l ${file}; ` +
          `cp ${ws}/real.src ${file}.r; mv -Tf ${file}.r ${file}; done`,
        ],
        stdout: "null",
        stderr: "null",
      }).spawn();
      try {
        for (let i = 0; i < 150; i++) {
          const x = await mcp.call("download_get", { id: d.id });
          const all = textOf(x) + JSON.stringify(x.structuredContent);
          assertTrue(!all.includes(OUTSIDE), all);
          if (!x.isError) assertEquals(x.structuredContent!.content, "the report\n");
        }
      } finally {
        await Deno.writeTextFile(stop, "");
        await swap.status;
      }
    });

    await t.step(
      "an uploaded file swapped for a link later is still the file checked",
      async () => {
        await mcp.ok("navigate", { url: pages.url("/"), snapshot: "none" });
        await Deno.writeTextFile(join(ws, "up.txt"), "to upload");
        await mcp.ok("upload_file", { selector: "#f", paths: ["up.txt"] });
        // Chromium reads a File when the page does: swap the workspace file for a link first.
        await Deno.remove(join(ws, "up.txt"));
        await Deno.symlink(secret, join(ws, "up.txt"));
        const read = await mcp.ok("eval_js", {
          expression: "document.querySelector('#f').files[0].text()",
        });
        assertEquals(read.value, "to upload");
        const again = await mcp.call("upload_file", { selector: "#f", paths: ["up.txt"] });
        assertEquals(codeOf(again), "refused", textOf(again));
      },
    );

    await t.step("a profiles/<name> link is no profile", async () => {
      await Deno.mkdir(join(ws, "profiles"), { recursive: true });
      await Deno.symlink(outside, join(ws, "profiles", "linked"));
      const r = await mcp.call("open_session", { session: "linked", mode: "persistent" });
      assertEquals(codeOf(r), "refused", textOf(r));
      assertIncludes(textOf(r), "symlink");
      await outsideUntouched();
    });
  } finally {
    await mcp.close();
    await pages.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("capabilities: with only read, nothing is written; the secrets file is no target", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-ws-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, "TOKEN=tok_9d2c\n");
  await Deno.chmod(secrets, 0o600);
  await Deno.mkdir(join(ws, ".auth-states"));
  await Deno.writeTextFile(join(ws, ".auth-states", "login.json"), '{"cookies":[],"origins":[]}');
  const env = { BROWX_TOOLSETS: "all", BROWX_SECRETS: secrets };
  try {
    const before = await tree(ws);
    const ro = await startStdio({ workspace: ws, env: { ...env, BROWX_CAPABILITIES: "read" } });
    try {
      for (const path of [".auth-states/login.json", "new/folder/x.json", "secrets.env"]) {
        const r = await ro.call("dump_storage_state", { path });
        assertEquals(codeOf(r), "capability-required", textOf(r));
        assertEquals((r.structuredContent as R).requiredCapability, "action");
        assertIncludes(textOf(r), '"action"');
      }
      // Inline, it is a read: it works.
      assertTrue(Array.isArray((await ro.ok("dump_storage_state")).cookies));
    } finally {
      await ro.close();
    }
    assertEquals(await tree(ws), before);

    const rw = await startStdio({
      workspace: ws,
      env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,file-io" },
    });
    try {
      const dump = await rw.call("dump_storage_state", { path: "secrets.env" });
      assertEquals(codeOf(dump), "refused", textOf(dump));
      const abs = await rw.call("dump_storage_state", { path: secrets });
      assertEquals(codeOf(abs), "refused", textOf(abs));
      const inj = await rw.call("inject_storage_state", { state: "secrets.env" });
      assertEquals(codeOf(inj), "refused", textOf(inj));
      assertTrue(!textOf(inj).includes("tok_9d2c"));
      const up = await rw.call("upload_file", { selector: "input", paths: ["secrets.env"] });
      assertEquals(codeOf(up), "refused", textOf(up));
    } finally {
      await rw.close();
    }
    assertEquals(await Deno.readTextFile(secrets), "TOKEN=tok_9d2c\n");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("the secrets file through a link, and saved logins, are no agent path", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-ws-" });
  const cfg = await Deno.makeTempDir({ prefix: "browxai-test-cfg-" });
  const pages = startPages();
  // The operator's BROWX_SECRETS is a link (outside the workspace) to a file inside it.
  await Deno.writeTextFile(join(ws, "secrets.env"), "TOKEN=tok_9d2c\n", { mode: 0o600 });
  await Deno.symlink(join(ws, "secrets.env"), join(cfg, "secrets"));
  await Deno.mkdir(join(ws, ".auth-states"));
  const login = '{"cookies":[],"origins":[]}';
  await Deno.writeTextFile(join(ws, ".auth-states", "login.json"), login);
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_TOOLSETS: "all",
      BROWX_SECRETS: join(cfg, "secrets"),
      BROWX_CAPABILITIES: "read,navigation,action,eval,file-io,secrets",
    },
  });
  try {
    await mcp.ok("navigate", { url: pages.url("/"), snapshot: "none" });
    for (const path of ["secrets.env", join(ws, "secrets.env")]) {
      const up = await mcp.call("upload_file", { selector: "#f", paths: [path] });
      assertEquals(codeOf(up), "refused", textOf(up));
      const dump = await mcp.call("dump_storage_state", { path });
      assertEquals(codeOf(dump), "refused", textOf(dump));
      const inj = await mcp.call("inject_storage_state", { state: path });
      assertEquals(codeOf(inj), "refused", textOf(inj));
      assertTrue(!textOf(inj).includes("tok_9d2c"));
    }
    const files = await mcp.ok("eval_js", {
      expression: `document.getElementById("f").files.length`,
    });
    assertEquals(files.value, 0, "nothing reached the page");
    for (const path of [".auth-states/login.json", ".auth-states/evil.json"]) {
      const dump = await mcp.call("dump_storage_state", { path });
      assertEquals(codeOf(dump), "refused", textOf(dump));
      assertIncludes(textOf(dump), ".auth-states");
    }
    // auth_save is the way in.
    await mcp.ok("auth_save", { name: "mine" });
  } finally {
    await mcp.close();
    await pages.close();
  }
  try {
    assertEquals(await Deno.readTextFile(join(ws, "secrets.env")), "TOKEN=tok_9d2c\n");
    assertEquals(await Deno.readTextFile(join(ws, ".auth-states", "login.json")), login);
    assertEquals(
      (await Array.fromAsync(Deno.readDir(join(ws, ".auth-states")))).map((e) => e.name).sort(),
      ["login.json", "mine.json"],
    );
  } finally {
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(cfg, { recursive: true });
  }
});

Deno.test("artifacts: two stdio servers on one workspace keep theirs apart", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-ws-" });
  const env = { BROWX_TOOLSETS: "core,sessions,storage" };
  const a = await startStdio({ workspace: ws, env });
  const b = await startStdio({ workspace: ws, env });
  try {
    const sa = await a.ok("artifact_save", { name: "a.txt", content: "from A" });
    const sb = await b.ok("artifact_save", { name: "b.txt", content: "from B" });
    assertTrue(dirname(String(sa.path)) !== dirname(String(sb.path)));
    assertEquals((await b.ok("artifact_list")).count, 1);
    assertEquals(codeOf(await b.call("artifact_get", { name: "a.txt" })), "not-found");
    // B closing its default wipes B's artifacts only.
    await b.ok("close_session", { session: "default" });
    assertEquals((await a.ok("artifact_get", { name: "a.txt" })).content, "from A");
    await b.close();
    // A server that exits leaves no artifact folder behind.
    assertEquals(await Deno.stat(dirname(dirname(String(sb.path)))).then(() => 1, () => 0), 0);
    assertEquals((await a.ok("artifact_get", { name: "a.txt" })).content, "from A");
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("path guard: a newline or other control character names no workspace file", async () => {
  const pages = startPages();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,file-io" },
  });
  try {
    await mcp.ok("navigate", { url: pages.url("/"), snapshot: "none" });
    for (
      const [tool, path] of [
        ["screenshot", "x\ny.png"],
        ["har_save", "h\r.har"],
        ["dump_storage_state", "d\tump.json"],
      ]
    ) {
      const r = await mcp.call(tool!, { path });
      assertEquals(codeOf(r), "invalid-argument", textOf(r));
      assertIncludes(textOf(r), "control character");
    }
    const names = (await Array.fromAsync(Deno.readDir(mcp.workspace))).map((e) => e.name);
    assertTrue(!names.some((n) => /[\n\r\t]/.test(n)), JSON.stringify(names));
  } finally {
    await mcp.close();
    await pages.close();
  }
});
