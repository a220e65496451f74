import { dirname, join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { checkLayering, findImports, formatViolation, stripComments } from "./check_layering.ts";

/** Writes `files` (root-relative path → content) under a new temp dir; returns the dir. */
async function fakeProject(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "browxai-layering-" });
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, path)), { recursive: true });
    await Deno.writeTextFile(join(root, path), content);
  }
  return root;
}

Deno.test("findImports: static, type, side-effect, export-from and dynamic imports", () => {
  const src = [
    `import { a } from "./a.ts";`,
    `import type { B } from '../b.ts';`,
    `import "./side.ts";`,
    `export * from "./all.ts";`,
    `export { c } from "./c.ts"; import d from "./d.ts";`,
    `import {`,
    `  e,`,
    `  f,`,
    `} from "./ef.ts";`,
    `const m = await import("./dyn.ts");`,
    `const n = await import(\`./tpl.ts\`);`,
    `const computed = await import(name);`,
  ].join("\n");
  assertEquals(findImports(src), [
    { specifier: "./a.ts", line: 1 },
    { specifier: "../b.ts", line: 2 },
    { specifier: "./side.ts", line: 3 },
    { specifier: "./all.ts", line: 4 },
    { specifier: "./c.ts", line: 5 },
    { specifier: "./d.ts", line: 5 },
    { specifier: "./ef.ts", line: 6 },
    { specifier: "./dyn.ts", line: 10 },
    { specifier: "./tpl.ts", line: 11 },
  ]);
});

Deno.test("findImports: ignores comments, strings and docstring examples", () => {
  const src = [
    `/**`,
    ` * Example:`,
    ` * import { x } from "../tools/mod.ts";`,
    ` * await import("../tools/y.ts")`,
    ` */`,
    `// import "../tools/z.ts";`,
    `const s = "import('../tools/q.ts')";`,
    `const re = /\\/*not a comment/; import "./real.ts";`,
    `const url = "http://example/*x*/";`,
  ].join("\n");
  assertEquals(findImports(src), [{ specifier: "./real.ts", line: 8 }]);
});

Deno.test("stripComments keeps length and newlines", () => {
  const src = `a // c\nb /* x\ny */ c "// s"`;
  const out = stripComments(src);
  assertEquals(out.length, src.length);
  assertEquals(out.split("\n").length, 3);
  assertIncludes(out, `"// s"`);
  assertTrue(!out.includes("x"));
});

Deno.test("checkLayering: clean project has no violations", async () => {
  const root = await fakeProject({
    "main.ts": `import "./tools/mod.ts"; import { x } from "./policy/p.ts"; import "npm:zod";`,
    "cdp/a.ts": `import { b } from "./b.ts"; import CDP from "chrome-remote-interface";\n` +
      `import { join } from "node:path";`,
    "cdp/b.ts": `export const b = 1;`,
    "cdp/a_test.ts": `import { assertEquals } from "../tests/_assert.ts"; import "./a.ts";`,
    "policy/p.ts": `import { q } from "./sub/q.ts"; import assert from "node:assert";`,
    "policy/sub/q.ts": `export const q = 1;`,
    "storage/s.ts": `import { b } from "../cdp/b.ts";`,
    "browser/model.ts":
      `import "../cdp/a.ts"; import "../policy/p.ts"; import "../storage/s.ts";\n` +
      `import "npm:ws";`,
    "tools/t.ts": `import "../cdp/a.ts"; import "../policy/p.ts"; import "../storage/s.ts";\n` +
      `import "./u.ts"; import { z } from "zod"; import "../browser/model.ts";`,
    "tools/u.ts": ``,
    // Each folder's index may share its name, and ui/ is not held to unique names.
    "tools/mod.ts": ``,
    "browser/mod.ts": ``,
    "mcp/server.ts":
      `import "../tools/t.ts"; import "../browser/model.ts"; import "../ui/page.js";\n` +
      `import { Server } from "@modelcontextprotocol/sdk/server/index.js";`,
    "policy/h.ts": `import { getDomain } from "tldts";`,
    "ui/server.ts": `import "./page.js";`,
    "ui/page.js": ``,
    "tests/e2e_test.ts": `import "../main.ts"; import "../cdp/a.ts"; import "jsr:@std/assert";`,
    "scratch/x.ts": `import "../tools/t.ts";`,
  });
  try {
    assertEquals(await checkLayering(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkLayering: reports each wrong arrow with file and line", async () => {
  const root = await fakeProject({
    "main.ts": `import "./cdp/a.ts";`,
    "cdp/a.ts": `import { t } from "../tools/t.ts";\nimport "../policy/p.ts";\n` +
      `const m = await import("../storage/s.ts");\nimport "../main.ts";`,
    "cdp/b.ts": `import "../tests/_assert.ts";`,
    "policy/p.ts": `import { b } from "../cdp/b.ts";\nimport { z } from "zod";\n` +
      `import "npm:lodash";\nimport { join } from "node:path";`,
    "storage/s.ts": `import "../cdp/a.ts";\nimport "../policy/p.ts";\nimport "../tools/t.ts";`,
    "tools/t.ts": `import "../ui/page.ts";\nimport "../main.ts";\nimport "jsr:@std/path";\n` +
      `import "../mcp/m.ts";\nimport "@modelcontextprotocol/sdk/types.js";`,
    "ui/page.ts": `import "../cdp/a.ts";\nimport "../tools/t.ts";\nimport "../../outside.ts";`,
    "browser/b.ts":
      `import "../tools/t.ts";\nimport { z } from "npm:zod@4";\nimport "../mcp/m.ts";`,
    "mcp/m.ts": ``,
  });
  try {
    const got = (await checkLayering(root)).map((v) => `${v.file}:${v.line} -> ${v.target}`);
    assertEquals(got, [
      "browser/b.ts:1 -> tools/t.ts",
      // browser/b.ts and cdp/b.ts share a base name.
      "browser/b.ts:1 -> b.ts",
      "browser/b.ts:2 -> npm:zod@4",
      "browser/b.ts:3 -> mcp/m.ts",
      "cdp/a.ts:1 -> tools/t.ts",
      "cdp/a.ts:2 -> policy/p.ts",
      "cdp/a.ts:3 -> storage/s.ts",
      // cdp/a.ts and storage/s.ts import each other: the wrong arrow, and the cycle.
      "cdp/a.ts:3 -> storage/s.ts",
      "cdp/a.ts:4 -> main.ts",
      "cdp/b.ts:1 -> tests/_assert.ts",
      "policy/p.ts:1 -> cdp/b.ts",
      "policy/p.ts:2 -> zod",
      "policy/p.ts:3 -> npm:lodash",
      "storage/s.ts:3 -> tools/t.ts",
      "tools/t.ts:1 -> ui/page.ts",
      "tools/t.ts:2 -> main.ts",
      "tools/t.ts:3 -> jsr:@std/path",
      "tools/t.ts:4 -> mcp/m.ts",
      "tools/t.ts:5 -> @modelcontextprotocol/sdk/types.js",
      "ui/page.ts:1 -> cdp/a.ts",
      "ui/page.ts:2 -> tools/t.ts",
      "ui/page.ts:3 -> outside the project",
    ]);
    const first = (await checkLayering(root)).find((v) => v.file === "cdp/a.ts");
    assertEquals(
      formatViolation(first!),
      `cdp/a.ts:1: cdp/ may import only cdp/: "../tools/t.ts" (resolves to tools/t.ts)`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkLayering: every file-level cycle is reported once, type-only imports included", async () => {
  const root = await fakeProject({
    // A type-only cycle inside one layer, and a three-file cycle.
    "tools/context.ts": `import type { R } from "./call.ts";\nexport interface C { r: R }`,
    "tools/call.ts": `import type { C } from "./context.ts";\nexport interface R { c: C }`,
    "browser/a.ts": `import "./b.ts";`,
    "browser/b.ts": `export const b = 1;\nimport "./c.ts";`,
    "browser/c.ts": `import "./a.ts";`,
    "browser/self.ts": `import "./self.ts";`,
    "browser/ok.ts": `import "./a.ts";`,
  });
  try {
    const cycles = (await checkLayering(root)).filter((v) => v.message.startsWith("import cycle"));
    assertEquals(cycles.map((v) => `${v.file}:${v.line} -> ${v.target}`), [
      "browser/a.ts:1 -> browser/b.ts",
      "browser/self.ts:1 -> browser/self.ts",
      "tools/call.ts:1 -> tools/context.ts",
    ]);
    assertIncludes(
      cycles[0]!.message,
      "import cycle (3 files): browser/a.ts → browser/b.ts → browser/c.ts → browser/a.ts",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkLayering: one violation per base name two layers' files share, mod.ts aside", async () => {
  const root = await fakeProject({
    "storage/cookies.ts": `export const c = 1;`,
    "tools/storage/cookies.ts": `import "../../storage/cookies.ts";`,
    "policy/approvals.ts": ``,
    "mcp/approvals.ts": ``,
    "browser/approvals.ts": ``,
    "cdp/main.ts": ``,
    "main.ts": ``,
    // Not counted: every folder's index, unit tests, ui/, tests/ and bench/.
    "tools/mod.ts": ``,
    "storage/mod.ts": ``,
    "storage/cookies_test.ts": ``,
    "tools/cookies_test.ts": ``,
    "ui/page.ts": ``,
    "mcp/page.ts": ``,
    "tests/cookies.ts": ``,
    "bench/cookies.ts": ``,
  });
  try {
    const got = await checkLayering(root);
    assertEquals(got.map(formatViolation), [
      `browser/approvals.ts:1: base name shared by 3 files (browser/approvals.ts, ` +
      `mcp/approvals.ts, policy/approvals.ts); only mod.ts may repeat: rename one after what ` +
      `it holds: "approvals.ts"`,
      `cdp/main.ts:1: base name shared by 2 files (cdp/main.ts, main.ts); only mod.ts may ` +
      `repeat: rename one after what it holds: "main.ts"`,
      `storage/cookies.ts:1: base name shared by 2 files (storage/cookies.ts, ` +
      `tools/storage/cookies.ts); only mod.ts may repeat: rename one after what it holds: ` +
      `"cookies.ts"`,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("check_layering.ts as a script: exit 1 and one line per violation", async () => {
  const root = await fakeProject({
    "cdp/a.ts": `import "../tools/t.ts";\nimport "../ui/x.ts";`,
    "tools/t.ts": ``,
  });
  try {
    const script = new URL("./check_layering.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", script, root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 1);
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
    assertEquals(lines.length, 2);
    assertIncludes(lines[0]!, "cdp/a.ts:1:");
    assertIncludes(lines[1]!, "cdp/a.ts:2:");
    assertEquals(new TextDecoder().decode(out.stdout), "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the real project passes the layering check", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const violations = await checkLayering(root);
  assertEquals(violations.map(formatViolation), []);
});
