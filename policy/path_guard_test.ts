import { join } from "node:path";
import { assertEquals, assertIncludes } from "../tests/_assert.ts";
import {
  PathGuardError,
  type PathRefusal,
  RESERVED_AREAS,
  resolveInWorkspace,
  type ResolveOptions,
} from "./path_guard.ts";

const single: ResolveOptions = { singleLink: true };

type Case = [
  name: string,
  path: (dirs: { ws: string; out: string }) => string,
  expect: { ok: string } | { refused: PathRefusal },
  options?: ResolveOptions,
];

/**
 * A real tree in a temp dir:
 *
 *     ws/a.txt  ws/sub/b.txt  ws/..foo
 *     ws/link-out -> out/      ws/link-out-file -> out/secret.txt
 *     ws/link-in -> ws/sub     ws/sub/deep-out -> ../../out (relative)
 *     ws/dangling -> ws/nope   ws/in-then-out -> ws/link-out
 *     ws/loop-a -> ws/loop-b -> ws/loop-a
 *     ws/hard-out = out/secret.txt (a hard link)
 *     ws/twin-1 = ws/sub/twin-2 (two names of one file)
 *     out/secret.txt
 */
async function makeTree(): Promise<{ base: string; ws: string; out: string }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-guard-" }));
  const ws = join(base, "ws"), out = join(base, "out");
  await Deno.mkdir(join(ws, "sub"), { recursive: true });
  await Deno.mkdir(out);
  await Deno.writeTextFile(join(ws, "a.txt"), "a");
  await Deno.writeTextFile(join(ws, "sub", "b.txt"), "b");
  await Deno.writeTextFile(join(ws, "..foo"), "dots in a name");
  await Deno.writeTextFile(join(out, "secret.txt"), "secret");
  await Deno.symlink(out, join(ws, "link-out"));
  await Deno.symlink(join(out, "secret.txt"), join(ws, "link-out-file"));
  await Deno.symlink(join(ws, "sub"), join(ws, "link-in"));
  await Deno.symlink(join("..", "..", "out"), join(ws, "sub", "deep-out"));
  await Deno.symlink(join(ws, "nope"), join(ws, "dangling"));
  await Deno.symlink(join(ws, "link-out"), join(ws, "in-then-out"));
  await Deno.symlink(join(ws, "loop-b"), join(ws, "loop-a"));
  await Deno.symlink(join(ws, "loop-a"), join(ws, "loop-b"));
  await Deno.link(join(out, "secret.txt"), join(ws, "hard-out"));
  await Deno.writeTextFile(join(ws, "twin-1"), "twin");
  await Deno.link(join(ws, "twin-1"), join(ws, "sub", "twin-2"));
  return { base, ws, out };
}

const CASES: Case[] = [
  ["relative file", () => "a.txt", { ok: "a.txt" }],
  ["nested file", () => "sub/b.txt", { ok: "sub/b.txt" }],
  ["dot segment", () => "./sub/./b.txt", { ok: "sub/b.txt" }],
  ["absolute inside", ({ ws }) => join(ws, "a.txt"), { ok: "a.txt" }],
  ["the workspace itself", () => ".", { ok: "" }],
  ["a name starting with two dots", () => "..foo", { ok: "..foo" }],
  ["new file (may be created)", () => "new/dir/file.txt", { ok: "new/dir/file.txt" }],
  ["new file, mustExist", () => "new/file.txt", { refused: "missing" }, { mustExist: true }],
  ["below a file, mustExist", () => "a.txt/x", { refused: "missing" }, { mustExist: true }],
  ["symlink staying inside", () => "link-in/b.txt", { ok: "sub/b.txt" }],
  ["empty", () => "", { refused: "empty" }],
  ["blank", () => "   ", { refused: "empty" }],
  ["NUL byte", () => "a.txt\0.png", { refused: "nul-byte" }],
  ["parent escape", () => "../out/secret.txt", { refused: "dot-dot" }],
  ["escape after a subdir", () => "sub/../../out/secret.txt", { refused: "dot-dot" }],
  ["climb that comes back", () => "sub/../a.txt", { refused: "dot-dot" }],
  ["backslash climb", () => "..\\out\\secret.txt", { refused: "dot-dot" }],
  ["absolute with ..", ({ ws }) => `${ws}/../out/secret.txt`, { refused: "dot-dot" }],
  ["absolute system file", () => "/etc/passwd", { refused: "outside-workspace" }],
  ["absolute outside", ({ out }) => join(out, "secret.txt"), { refused: "outside-workspace" }],
  ["sibling with the same prefix", ({ ws }) => `${ws}2/x.txt`, { refused: "outside-workspace" }],
  ["dir symlink out", () => "link-out/secret.txt", { refused: "symlink-outside" }],
  ["file symlink out", () => "link-out-file", { refused: "symlink-outside" }],
  ["new file under a link out", () => "link-out/new.txt", { refused: "symlink-outside" }],
  ["relative link out, deeper", () => "sub/deep-out/secret.txt", { refused: "symlink-outside" }],
  ["link to a link out", () => "in-then-out/secret.txt", { refused: "symlink-outside" }],
  ["dangling symlink", () => "dangling", { refused: "dangling-symlink" }],
  ["symlink loop", () => "loop-a", { refused: "invalid" }],
  ["under a symlink loop", () => "loop-a/x.txt", { refused: "invalid" }],
  // Hard links: refused only for callers that read (singleLink).
  ["hard link out, singleLink", () => "hard-out", { refused: "hard-link" }, single],
  ["hard link out, mustExist too", () => "hard-out", { refused: "hard-link" }, {
    ...single,
    mustExist: true,
  }],
  ["two names inside, singleLink", () => "sub/twin-2", { refused: "hard-link" }, single],
  ["hard link out, without singleLink", () => "hard-out", { ok: "hard-out" }],
  ["a one-name file, singleLink", () => "a.txt", { ok: "a.txt" }, single],
  ["a directory, singleLink", () => "sub", { ok: "sub" }, single],
  ["a new file, singleLink", () => "new.txt", { ok: "new.txt" }, single],
  // Names too long for the file system: refused with a reason, never an OS error.
  ["a 5000-character name", () => "files/" + "a".repeat(5000), { refused: "invalid" }],
  ["a 5000-character path", () => "a/".repeat(2500), { refused: "invalid" }],
  ["a 260-byte name in a new folder", () => "new/" + "é".repeat(130), { refused: "invalid" }],
  ["a 300-character name, absolute", ({ ws }) => join(ws, "b".repeat(300)), {
    refused: "invalid",
  }],
  ["a 255-byte name is fine", () => "c".repeat(255), { ok: "c".repeat(255) }],
];

Deno.test("path guard: hostile and ordinary paths", async (t) => {
  const { base, ws, out } = await makeTree();
  try {
    for (const [name, path, expect, options] of CASES) {
      await t.step(name, async () => {
        const given = path({ ws, out });
        let got: string | PathGuardError;
        try {
          got = await resolveInWorkspace(ws, given, options);
        } catch (e) {
          if (!(e instanceof PathGuardError)) throw e;
          got = e;
        }
        if ("ok" in expect) {
          assertEquals(got, expect.ok ? join(ws, expect.ok) : ws, `${name}: ${String(got)}`);
        } else {
          const e = got as PathGuardError;
          assertEquals(e instanceof PathGuardError, true, `${name} should be refused: ${got}`);
          assertEquals(e.reason, expect.refused, `${name}: ${e.message}`);
          assertEquals(e.path, given);
          // Says what to do, and where files may live.
          assertIncludes(e.message, expect.refused === "empty" ? "give" : ws);
        }
      });
    }

    await t.step("a workspace reached through a symlink resolves to its real path", async () => {
      const linkWs = join(base, "ws-link");
      await Deno.symlink(ws, linkWs);
      assertEquals(await resolveInWorkspace(linkWs, "a.txt"), join(ws, "a.txt"));
      // Both spellings of the workspace work for absolute paths.
      assertEquals(await resolveInWorkspace(linkWs, join(ws, "a.txt")), join(ws, "a.txt"));
      // A link outside the workspace is outside, wherever it points.
      const e = await resolveInWorkspace(ws, join(linkWs, "a.txt")).catch((e) => e);
      assertEquals((e as PathGuardError).reason, "outside-workspace");
    });

    await t.step("reserved areas: the server's own files, however they are named", async () => {
      await Deno.mkdir(join(ws, "audit"), { recursive: true });
      await Deno.writeTextFile(join(ws, "audit", "day.jsonl"), "{}\n");
      await Deno.writeTextFile(join(ws, "secrets.env"), "PW=x\n");
      await Deno.symlink(join(ws, "audit"), join(ws, "innocent"));
      const reserved = [...RESERVED_AREAS, join(ws, "secrets.env")];
      for (
        const p of [
          "audit/day.jsonl",
          "audit",
          "innocent/day.jsonl",
          "secrets.env",
          join(ws, "audit"),
        ]
      ) {
        const e = await resolveInWorkspace(ws, p, { reserved }).catch((e) => e);
        assertEquals((e as PathGuardError).reason, "reserved", p);
        assertIncludes((e as PathGuardError).message, "for itself");
      }
      assertEquals(
        await resolveInWorkspace(ws, "auditor.txt", { reserved }),
        join(ws, "auditor.txt"),
      );
      // A hard link is the reserved file under another name: only singleLink sees it.
      await Deno.link(join(ws, "audit", "day.jsonl"), join(ws, "notes.jsonl"));
      assertEquals(
        await resolveInWorkspace(ws, "notes.jsonl", { reserved }),
        join(ws, "notes.jsonl"),
      );
      const e = await resolveInWorkspace(ws, "notes.jsonl", { reserved, singleLink: true })
        .catch((e) => e) as PathGuardError;
      assertEquals(e.reason, "hard-link");
      assertIncludes(e.message, "several names (hard links: 2)");
      assertIncludes(e.message, "copy it instead");
    });

    await t.step("other errors of the file system are refusals, not crashes", async () => {
      if (Deno.uid() === 0) return; // root reads a folder without permissions anyway
      const locked = join(ws, "locked");
      await Deno.mkdir(join(locked, "in"), { recursive: true });
      await Deno.chmod(locked, 0o000);
      try {
        const e = await resolveInWorkspace(ws, "locked/in/x.txt").catch((e) => e);
        assertEquals((e as PathGuardError).reason, "invalid", String(e));
        assertIncludes((e as PathGuardError).message, "cannot look it up");
      } finally {
        await Deno.chmod(locked, 0o755);
      }
    });

    await t.step("a workspace that does not exist yet", async () => {
      const fresh = join(base, "fresh", "ws");
      assertEquals(await resolveInWorkspace(fresh, "x/y.txt"), join(fresh, "x", "y.txt"));
      const e = await resolveInWorkspace(fresh, "/etc/passwd").catch((e) => e);
      assertEquals((e as PathGuardError).reason, "outside-workspace");
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
