/**
 * The path guard's file-system part against planted links: a table of symlinks and hard links
 * (reads, writes, lists, folders), and swaps between check and use: a process swaps a file or
 * a folder for a link in a loop while reads and writes run, and no read ever returns what is
 * outside, no write ever lands outside.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "../tests/_assert.ts";
import { PathGuardError, type PathRefusal } from "../policy/path_guard.ts";
import {
  safeList,
  safeMkdir,
  safeMove,
  safeReadFile,
  safeRemove,
  safeWriteFile,
  setPinnedFolders,
} from "./safe_fs.ts";

/**
 * ws/a.txt  ws/sub/b.txt  ws/audit/day.jsonl ("AUDIT")
 * ws/link-out -> out/   ws/link-out-file -> out/secret.txt   ws/link-in -> ws/sub
 * ws/link-audit -> ws/audit   ws/hard-out = out/secret.txt   ws/hard-audit = ws/audit/day.jsonl
 * ws/fifo (a named pipe)   out/secret.txt ("SECRET")
 */
async function makeTree(): Promise<{ base: string; ws: string; out: string }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-safe-fs-" }));
  const ws = join(base, "ws"), out = join(base, "out");
  await Deno.mkdir(join(ws, "sub"), { recursive: true });
  await Deno.mkdir(join(ws, "audit"));
  await Deno.mkdir(out);
  await Deno.writeTextFile(join(ws, "a.txt"), "a");
  await Deno.writeTextFile(join(ws, "sub", "b.txt"), "b");
  await Deno.writeTextFile(join(ws, "audit", "day.jsonl"), "AUDIT");
  await Deno.writeTextFile(join(out, "secret.txt"), "SECRET");
  await Deno.symlink(out, join(ws, "link-out"));
  await Deno.symlink(join(out, "secret.txt"), join(ws, "link-out-file"));
  await Deno.symlink(join(ws, "sub"), join(ws, "link-in"));
  await Deno.symlink(join(ws, "audit"), join(ws, "link-audit"));
  await Deno.link(join(out, "secret.txt"), join(ws, "hard-out"));
  await Deno.link(join(ws, "audit", "day.jsonl"), join(ws, "hard-audit"));
  await new Deno.Command("mkfifo", { args: [join(ws, "fifo")] }).output();
  return { base, ws, out };
}

async function refusal(p: Promise<unknown>): Promise<PathRefusal | "ok"> {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (e instanceof PathGuardError) return e.reason;
    throw e;
  }
}

const READS: [string, PathRefusal | "ok"][] = [
  ["a.txt", "ok"],
  ["sub/b.txt", "ok"],
  ["link-out/secret.txt", "symlink"],
  ["link-out-file", "symlink"],
  ["link-in/b.txt", "symlink"],
  ["link-audit/day.jsonl", "symlink"],
  ["hard-out", "hard-link"],
  ["hard-audit", "hard-link"],
  ["audit/day.jsonl", "reserved"],
  ["fifo", "not-a-file"],
  ["sub", "not-a-file"],
  ["nope.txt", "missing"],
  ["a.txt/x", "not-a-directory"],
];

Deno.test("safe_fs: reads refuse every link, hard link and reserved file", async (t) => {
  const { base, ws } = await makeTree();
  const target = { workspace: ws, reserved: ["audit"] };
  try {
    for (const [path, expect] of READS) {
      await t.step(`read ${path}: ${expect}`, async () => {
        assertEquals(await refusal(safeReadFile(target, path)), expect);
      });
    }
    await t.step("the same without /proc/self/fd (the lstat fallback)", async () => {
      setPinnedFolders(false);
      try {
        for (const [path, expect] of READS) {
          assertEquals(await refusal(safeReadFile(target, path)), expect, path);
        }
        assertEquals(
          await refusal(safeWriteFile(target, "link-out/x", new Uint8Array())),
          "symlink",
        );
        await safeWriteFile(target, "hard-out", new TextEncoder().encode("NEW"));
        assertEquals(await Deno.readTextFile(join(base, "out", "secret.txt")), "SECRET");
      } finally {
        setPinnedFolders(undefined);
      }
    });
    await t.step("the message says what to do", async () => {
      const e = await safeReadFile(target, "link-out/secret.txt").catch((e) => e);
      assertIncludes(e.message, "symlink");
      assertIncludes(e.message, "workspace");
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("safe_fs: writes replace planted links, never write through them", async (t) => {
  const { base, ws, out } = await makeTree();
  const target = { workspace: ws, reserved: ["audit"] };
  try {
    await t.step("a hard link to a file outside is replaced", async () => {
      const w = await safeWriteFile(target, "hard-out", new TextEncoder().encode("NEW"));
      assertEquals(await Deno.readTextFile(join(out, "secret.txt")), "SECRET");
      assertEquals(await Deno.readTextFile(w.path), "NEW");
      const info = await Deno.lstat(w.path);
      assertEquals([info.nlink, info.mode! & 0o777], [1, 0o600]);
    });
    await t.step("a hard link to the audit log is replaced", async () => {
      await safeWriteFile(target, "hard-audit", new TextEncoder().encode("FORGED"));
      assertEquals(await Deno.readTextFile(join(ws, "audit", "day.jsonl")), "AUDIT");
    });
    await t.step("a file symlink is replaced, its target untouched", async () => {
      await safeWriteFile(target, "link-out-file", new TextEncoder().encode("NEW"));
      assertEquals(await Deno.readTextFile(join(out, "secret.txt")), "SECRET");
      assertTrue(!(await Deno.lstat(join(ws, "link-out-file"))).isSymlink);
    });
    for (
      const [path, expect] of [
        ["link-out/x.json", "symlink"],
        ["link-audit/day.jsonl", "symlink"],
        ["audit/day.jsonl", "reserved"],
        ["sub", "not-a-file"],
      ] as const
    ) {
      await t.step(`write ${path}: ${expect}`, async () => {
        assertEquals(await refusal(safeWriteFile(target, path, new Uint8Array([1]))), expect);
      });
    }
    await t.step("folders are created 0700; nothing landed outside", async () => {
      const w = await safeWriteFile(target, "new/deep/f.json", new Uint8Array([1]));
      assertEquals((await Deno.stat(join(ws, "new", "deep"))).mode! & 0o777, 0o700);
      assertEquals(w.path, join(ws, "new", "deep", "f.json"));
      assertEquals(
        (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name),
        ["secret.txt"],
      );
      assertEquals(await Deno.readTextFile(join(ws, "audit", "day.jsonl")), "AUDIT");
    });
    await t.step("mkdir, list, remove and move refuse links too", async () => {
      assertEquals(await refusal(safeMkdir(target, "link-out/p")), "symlink");
      assertEquals(await refusal(safeMkdir(target, "link-in")), "symlink");
      assertEquals(await refusal(safeList(target, "link-out")), "symlink");
      // A listing leaves out links and hard-linked files.
      await safeWriteFile(target, "l/one.txt", new Uint8Array([1]));
      await Deno.symlink(join(out, "secret.txt"), join(ws, "l", "ln"));
      await Deno.link(join(out, "secret.txt"), join(ws, "l", "hard"));
      assertEquals((await safeList(target, "l")).map((e) => e.name), ["one.txt"]);
      assertEquals(await refusal(safeRemove(target, "link-out/secret.txt")), "symlink");
      assertEquals(await Deno.readTextFile(join(out, "secret.txt")), "SECRET");
      // Removing a link removes the link.
      assertEquals(await safeRemove(target, "link-in", { recursive: true }), true);
      assertEquals(await Deno.readTextFile(join(ws, "sub", "b.txt")), "b");
      assertEquals(await refusal(safeMove(target, "l/ln", "moved")), "symlink");
      assertEquals(await refusal(safeMove(target, "l/hard", "moved")), "hard-link");
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

/**
 * Runs a bash loop until `stop()`, which ends it after the round in flight: a killed bash
 * would leave its last `mv`/`cp` running, writing into a tree being removed.
 */
function swapper(script: string): { stop(): Promise<void> } {
  const flags = Deno.makeTempDirSync({ prefix: "browxai-swapper-" });
  const flag = join(flags, "stop");
  const child = new Deno.Command("bash", {
    args: ["-c", `while [ ! -e ${flag} ]; do ${script}; done`],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    async stop() {
      await Deno.writeTextFile(flag, "");
      await child.status;
      await Deno.remove(flags, { recursive: true });
    },
  };
}

Deno.test("safe_fs: a file swapped for a symlink in a loop never reads outside", async () => {
  const { base, ws, out } = await makeTree();
  const d = join(ws, "d");
  await Deno.mkdir(d);
  await Deno.writeTextFile(join(d, "f.txt"), "inside");
  await Deno.writeTextFile(join(ws, "inside.src"), "inside");
  // rename(2) swaps atomically: f.txt is always there, a real file or a link out.
  const swap = swapper(
    `ln -sfn ${out}/secret.txt ${d}/l; mv -Tf ${d}/l ${d}/f.txt; ` +
      `cp ${ws}/inside.src ${d}/r; mv -Tf ${d}/r ${d}/f.txt`,
  );
  let reads = 0, refused = 0;
  try {
    for (let i = 0; i < 400; i++) {
      try {
        const got = new TextDecoder().decode(
          (await safeReadFile({ workspace: ws }, "d/f.txt")).bytes,
        );
        assertEquals(got, "inside");
        reads++;
      } catch (e) {
        if (!(e instanceof PathGuardError)) throw e;
        assertTrue(["symlink", "missing", "changed"].includes(e.reason), e.message);
        refused++;
      }
    }
  } finally {
    await swap.stop();
    await Deno.remove(base, { recursive: true });
  }
  // Safety is asserted above; how often the loop won the race is not (it depends on timing).
  assertEquals(reads + refused, 400);
});

Deno.test("safe_fs: a folder swapped for a symlink in a loop never gets a write outside", async () => {
  const { base, ws, out } = await makeTree();
  const d = join(ws, "d");
  await Deno.mkdir(d);
  await Deno.writeTextFile(join(out, "log.jsonl"), "ORIGINAL");
  // d flips between a real folder and a link to out/ (like .artifacts/<session> -> audit/).
  const swap = swapper(
    `ln -sfn ${out} ${ws}/d.lnk; mv -T ${d} ${ws}/d.real; mv -T ${ws}/d.lnk ${d}; ` +
      `mv -T ${d} ${ws}/d.lnk; mv -T ${ws}/d.real ${d} || rm -rf ${ws}/d.real`,
  );
  let writes = 0, refused = 0;
  try {
    for (let i = 0; i < 400; i++) {
      try {
        const w = await safeWriteFile(
          { workspace: ws },
          "d/log.jsonl",
          new TextEncoder().encode("FORGED"),
        );
        assertTrue(!w.path.startsWith(out), w.path);
        writes++;
      } catch (e) {
        if (!(e instanceof PathGuardError)) throw e;
        assertTrue(["symlink", "changed", "missing"].includes(e.reason), e.message);
        refused++;
      }
    }
  } finally {
    await swap.stop();
  }
  try {
    assertEquals(await Deno.readTextFile(join(out, "log.jsonl")), "ORIGINAL");
    assertEquals(
      (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name).sort(),
      ["log.jsonl", "secret.txt"],
    );
    // Safety is asserted above; how often the loop won the race is not (it depends on timing).
    assertTrue(writes + refused === 400);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("safe_fs: an area keeps paths in it; reserved areas inside it still count", async () => {
  const { base, ws } = await makeTree();
  const target = {
    workspace: ws,
    area: ".clients/x",
    reserved: ["audit", ".clients", ".clients/x/profiles", join(ws, ".clients", "x", "s.env")],
  };
  try {
    const w = await safeWriteFile(target, "state.json", new Uint8Array([1]));
    assertEquals(w.path, join(ws, ".clients", "x", "state.json"));
    assertEquals((await Deno.stat(join(ws, ".clients"))).mode! & 0o777, 0o700);
    assertEquals(await refusal(safeReadFile(target, w.path)), "ok");
    for (
      const [path, expect] of [
        ["profiles/p/Cookies", "reserved"],
        ["s.env", "reserved"],
        [join(ws, ".clients", "y", "state.json"), "outside-workspace"],
        [join(ws, "a.txt"), "outside-workspace"],
        ["../y/state.json", "dot-dot"],
      ] as const
    ) {
      assertEquals(await refusal(safeWriteFile(target, path, new Uint8Array([1]))), expect, path);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("safe_fs: a reserved file named through a link: the link and its target are refused", async () => {
  const { base, ws, out } = await makeTree();
  // The operator's BROWX_SECRETS is a link (outside, or inside the workspace) to ws/sub/s.env.
  await Deno.writeTextFile(join(ws, "sub", "s.env"), "KEY=v");
  await Deno.symlink(join(ws, "sub", "s.env"), join(out, "secrets"));
  await Deno.symlink(join(ws, "sub", "s.env"), join(ws, "cfg-secrets"));
  try {
    for (const reservedFile of [join(out, "secrets"), join(ws, "cfg-secrets")]) {
      const target = { workspace: ws, reserved: [reservedFile] };
      for (const path of ["sub/s.env", join(ws, "sub", "s.env"), "./sub/x/../s.env"]) {
        const read = await refusal(safeReadFile(target, path));
        assertTrue(read === "reserved" || read === "dot-dot", `${reservedFile}: read ${path}`);
        const write = await refusal(safeWriteFile(target, path, new Uint8Array([1])));
        assertTrue(write === "reserved" || write === "dot-dot", `${reservedFile}: write ${path}`);
      }
      if (reservedFile.startsWith(ws)) {
        assertEquals(await refusal(safeReadFile(target, "cfg-secrets")), "reserved");
        assertEquals(
          await refusal(safeWriteFile(target, "cfg-secrets", new Uint8Array([1]))),
          "reserved",
        );
      }
    }
    assertEquals(await Deno.readTextFile(join(ws, "sub", "s.env")), "KEY=v");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
