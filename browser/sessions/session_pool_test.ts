import { assertEquals, assertIncludes, assertRejects } from "../../tests/_assert.ts";
import { eventually } from "../../tests/_util.ts";
import { ToolError } from "../tool_error.ts";
import { SessionPool } from "./session_pool.ts";

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return "resolved";
  } catch (e) {
    return e instanceof ToolError ? e.code : String(e);
  }
};

Deno.test("session pool: slots, a bounded queue served in order, then busy", async () => {
  const pool = new SessionPool({ maxSessions: 2, queueMax: 1, queueWaitMs: 60_000 });
  try {
    const r1 = await pool.acquire();
    await pool.acquire();
    assertEquals(pool.open, 2);
    const third = pool.acquire();
    assertEquals(pool.queued, 1);
    const e = await assertRejects(() => pool.acquire(), ToolError);
    assertEquals((e as ToolError).code, "busy");
    assertIncludes((e as ToolError).message, "2 of 2 browser sessions are open");
    assertEquals(pool.stats.busyRefusals, 1);
    r1();
    r1(); // idempotent: a second release frees nothing more
    const r3 = await third;
    assertEquals([pool.open, pool.queued], [2, 0]);
    r3();
    assertEquals(pool.open, 1);
  } finally {
    pool.dispose();
  }
});

Deno.test("session pool: a wait ends at its bound, at the call's abort, and on drain", async () => {
  const pool = new SessionPool({ maxSessions: 1, queueMax: 4, queueWaitMs: 100 });
  try {
    await pool.acquire();
    assertEquals(await codeOf(pool.acquire()), "busy");
    const ac = new AbortController();
    const aborted = pool.acquire(ac.signal);
    ac.abort(new ToolError("timeout", "over budget", "retry"));
    assertEquals(await codeOf(aborted), "timeout");
    const slow = new SessionPool({ maxSessions: 1, queueWaitMs: 60_000 });
    await slow.acquire();
    const waiting = slow.acquire();
    slow.drain();
    assertEquals(await codeOf(waiting), "busy");
    assertEquals(await codeOf(slow.acquire()), "busy");
    assertEquals(pool.queued, 0);
  } finally {
    pool.dispose();
  }
});

Deno.test("session pool: idle sessions are reaped, never while a call uses them", async () => {
  const pool = new SessionPool({ idleMs: 100 });
  try {
    const busy = {};
    const idle = {};
    const reaped: string[] = [];
    pool.track(busy, await pool.acquire(), () => reaped.push("busy"));
    pool.track(idle, await pool.acquire(), (why) => reaped.push(`idle: ${why}`));
    pool.begin(busy);
    await eventually(() => reaped.length === 1, 3000, "the idle session to be reaped");
    assertIncludes(reaped[0]!, "BROWX_SESSION_IDLE_MS");
    // Reaped but not closed yet: its slot is still held.
    assertEquals(pool.open, 2);
    pool.untrack(idle);
    assertEquals(pool.open, 1);
    pool.end(busy);
    await eventually(() => reaped.length === 2, 3000, "the session to be reaped after its call");
    assertEquals(pool.stats.reaped, 2);
  } finally {
    pool.dispose();
  }
});
