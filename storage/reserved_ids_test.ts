/**
 * The path guard by identity: a reserved folder reached under a name no text folding predicts
 * (Windows 8.3 short names, HFS+-ignorable characters; here a bind mount, the Linux way to give
 * a folder a second name) is refused for every file operation, and the folder's own name still
 * works where it is granted.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertRejects } from "../tests/_assert.ts";
import { PathGuardError } from "../policy/path_guard.ts";
import { identityOf } from "./reserved_ids.ts";
import {
  safeList,
  safeMkdir,
  safeMove,
  safeReadFile,
  safeRemove,
  safeWriteFile,
} from "./safe_fs.ts";

/** Runs `mount` (bind mounts need root, as the CI's Debian runner is). */
async function mount(args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command("mount", { args, stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

const probe = await Deno.makeTempDir({ prefix: "browxai-bind-probe-" });
const canBind = await mount(["--bind", probe, probe]) &&
  (await new Deno.Command("umount", { args: ["-l", probe] }).output()).success;
await Deno.remove(probe, { recursive: true }).catch(() => {});

Deno.test({
  name: "path guard: a reserved folder under another name (bind mount) is refused by identity",
  ignore: !canBind,
  async fn() {
    const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-alias-" }));
    await Deno.mkdir(join(ws, "audit"));
    await Deno.writeTextFile(join(ws, "audit", "day.jsonl"), "AUDIT");
    await Deno.mkdir(join(ws, "files", "AUDIT-~1"), { recursive: true });
    const alias = join(ws, "files", "AUDIT-~1");
    const target = { workspace: ws, reserved: ["audit"] };
    assertEquals(await mount(["--bind", join(ws, "audit"), alias]), true);
    try {
      const refused = async (what: string, op: () => Promise<unknown>) => {
        const e = await assertRejects(op, PathGuardError);
        assertEquals(e.reason, "reserved", what);
        assertIncludes(e.message, 'is another name for "audit"', what);
      };
      await refused("read", () => safeReadFile(target, "files/AUDIT-~1/day.jsonl"));
      await refused("write", () => safeWriteFile(target, "files/AUDIT-~1/x", new Uint8Array(1)));
      await refused("list", () => safeList(target, "files/AUDIT-~1"));
      await refused("remove", () => safeRemove(target, "files/AUDIT-~1/day.jsonl"));
      await refused("mkdir", () => safeMkdir(target, "files/AUDIT-~1/sub"));
      await Deno.writeTextFile(join(ws, "mine.txt"), "mine");
      await refused("move in", () => safeMove(target, "mine.txt", "files/AUDIT-~1/mine.txt"));
      // Nothing reached the audit folder, and its file is whole.
      assertEquals([...Deno.readDirSync(join(ws, "audit"))].map((e) => e.name), ["day.jsonl"]);
      assertEquals(await Deno.readTextFile(join(ws, "audit", "day.jsonl")), "AUDIT");
      // Other files of the workspace still work.
      assertEquals(
        new TextDecoder().decode((await safeReadFile(target, "mine.txt")).bytes),
        "mine",
      );
    } finally {
      await new Deno.Command("umount", { args: ["-l", alias] }).output();
      await Deno.remove(ws, { recursive: true });
    }
  },
});

Deno.test({
  name: "path guard: a reserved file under another name (bind mount of the file) is refused",
  ignore: !canBind,
  async fn() {
    const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-alias-file-" }));
    await Deno.writeTextFile(join(ws, "http-token"), "TOKEN");
    await Deno.writeTextFile(join(ws, "HTTP-T~1"), "");
    const target = { workspace: ws, reserved: ["http-token"] };
    assertEquals(await mount(["--bind", join(ws, "http-token"), join(ws, "HTTP-T~1")]), true);
    try {
      const e = await assertRejects(() => safeReadFile(target, "HTTP-T~1"), PathGuardError);
      assertEquals(e.reason, "reserved");
    } finally {
      await new Deno.Command("umount", { args: ["-l", join(ws, "HTTP-T~1")] }).output();
      await Deno.remove(ws, { recursive: true });
    }
  },
});

Deno.test("identityOf: no inode (FAT, some Windows file systems) is no identity", () => {
  assertEquals(identityOf({ dev: 1, ino: 0 }), undefined);
  assertEquals(identityOf({ dev: 1, ino: null }), undefined);
  assertEquals(identityOf({ dev: 2049, ino: 77 }), "2049:77");
});
