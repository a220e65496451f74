import { join } from "node:path";
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { exists } from "../tests/_util.ts";
import {
  claimProfile,
  cleanStaleTempProfiles,
  lockHolder,
  OWNER_FILE,
  ProfileInUseError,
  TEMP_PROFILE_PREFIX,
} from "./profile_lock.ts";

/** A pid that ran and exited. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("cleanStaleTempProfiles() removes only marked temp profiles whose owner is gone", async () => {
  const parent = await Deno.makeTempDir({ prefix: "browxai-clean-test-" });
  try {
    const dir = (name: string) => join(parent, name);
    for (const name of ["stale", "live", "unmarked"]) {
      await Deno.mkdir(join(dir(TEMP_PROFILE_PREFIX + name), "Default"), { recursive: true });
    }
    await Deno.mkdir(dir("other-stale"));
    await Deno.writeTextFile(join(dir(TEMP_PROFILE_PREFIX + "stale"), OWNER_FILE), "999999\n");
    await Deno.writeTextFile(join(dir("other-stale"), OWNER_FILE), "999999\n");
    // A live owner: the lock held on its owner file (this process stands in for a server).
    const ownerPath = join(dir(TEMP_PROFILE_PREFIX + "live"), OWNER_FILE);
    await Deno.writeTextFile(ownerPath, `${Deno.pid}\n`);
    const held = await Deno.open(ownerPath, { read: true, write: true });
    try {
      await held.lock(true);
      const removed = await cleanStaleTempProfiles(parent);
      assertEquals(removed, [dir(TEMP_PROFILE_PREFIX + "stale")]);
      assertTrue(!exists(dir(TEMP_PROFILE_PREFIX + "stale")), "the stale one is gone");
      assertTrue(exists(dir(TEMP_PROFILE_PREFIX + "live")), "the live one is kept");
      assertTrue(exists(dir(TEMP_PROFILE_PREFIX + "unmarked")), "an unmarked one is not ours");
      assertTrue(exists(dir("other-stale")), "another prefix is not ours");
    } finally {
      held.close();
    }
    // Its owner gone, the live one is stale too.
    assertEquals(await cleanStaleTempProfiles(parent), [dir(TEMP_PROFILE_PREFIX + "live")]);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("claimProfile() lets one holder in at a time, naming the holder's pid", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-claim-test-" });
  try {
    const first = await claimProfile(dir);
    const error = await assertRejects(() => claimProfile(dir), ProfileInUseError);
    assertIncludes(error.message, `in use by another browxai server (pid ${Deno.pid})`);
    first.release();
    first.release(); // idempotent
    const second = await claimProfile(dir);
    second.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lockHolder() removes a SingletonLock of a dead pid or of a process not on the profile", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-lock-test-" });
  const lock = join(dir, "SingletonLock");
  try {
    for (const pid of [await deadPid(), Deno.pid]) {
      Deno.symlinkSync(`${Deno.hostname()}-${pid}`, lock);
      Deno.symlinkSync(`${Deno.hostname()}-${pid}`, join(dir, "SingletonCookie"));
      assertEquals(lockHolder(dir), undefined, `pid ${pid}`);
      assertTrue(
        !exists(lock) && !exists(join(dir, "SingletonCookie")),
        "the stale lock is removed",
      );
    }
    // Another host's lock: its processes cannot be seen from here, so it holds.
    Deno.symlinkSync(`elsewhere.invalid-${Deno.pid}`, lock);
    assertEquals(lockHolder(dir), 0);
    assertTrue(exists(lock));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimProfile() never writes through a link planted as the owner file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-claim-test-" });
  const outside = join(dir, "outside.txt");
  try {
    await Deno.writeTextFile(outside, "keep me");
    await Deno.mkdir(join(dir, "profile"));
    Deno.symlinkSync(outside, join(dir, "profile", OWNER_FILE));
    const claim = await claimProfile(join(dir, "profile"));
    claim.release();
    assertEquals(await Deno.readTextFile(outside), "keep me");
    assertTrue(Deno.lstatSync(join(dir, "profile", OWNER_FILE)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
