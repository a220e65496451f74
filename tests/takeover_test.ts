/**
 * Takeover and release (issue 15, seed 004), over MCP and the console hub: while a person has
 * control, every agent mutation answers `human-has-control` and does nothing (inner calls of
 * `batch` too), reads work; the person's mouse and keys reach the page, into a cross-origin
 * iframe too; handing back tells the client; `takeover()` in an unattended session changes
 * nothing; `release()` asks through elicitation, or goes on the agent's word (`legacy`).
 */
import { siteOf } from "../policy/hosts.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { hostCases, type InProcess } from "./_control_server.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;
const ENV = {
  BROWX_CAPABILITIES: "read,navigation,action,human",
  BROWX_TOOLSETS: "core,sessions,power,human",
};
const KEY = { client: "t", session: "default" };

// One Chromium for every case; each case starts its own server (sessions, workspace, hub,
// client) on it.
const cases = hostCases("takeover and release, one browser");
const start = cases.start;

const codeOf = (r: ToolResult) => ((r.structuredContent as R)?.error as R | undefined)?.code;

/** The center of `selector`'s box in the top page (CSS px); `frame`: the start of a child frame's URL. */
async function centerOf(p: InProcess, selector: string, frame?: string) {
  const page = p.session().activePage!;
  const box = (frameId?: string, sel = selector) =>
    page.evaluate(
      `(() => { const r = document.querySelector(${
        JSON.stringify(sel)
      }).getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; })()`,
      frameId ? { frameId } : {},
    ) as Promise<{ x: number; y: number; w: number; h: number }>;
  if (!frame) {
    const b = await box();
    return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
  }
  const child = page.frames().find((f) => f.url.startsWith(frame))!;
  const outer = await box(undefined, "#cross");
  const inner = await box(child.frameId);
  // The iframe's border (2 px by default) sits before its content.
  return { x: outer.x + 2 + inner.x + inner.w / 2, y: outer.y + 2 + inner.y + inner.h / 2 };
}

/**
 * Opens the default session with the fixture sites approved: the `human` capability asks a
 * person before each new site, and these tests are about takeover, not site approvals.
 */
export async function openApproved(
  p: InProcess,
  fx: { url(path: string): string; crossUrl(path: string): string },
): Promise<void> {
  await p.ok("get_url");
  // An IP's or localhost's site is its host and port (policy/hosts.ts siteOf).
  for (const url of [fx.url(""), fx.crossUrl("")]) p.session().approvedSites.add(siteOf(url)!);
}

async function auditLines(p: InProcess, tool: string): Promise<R[]> {
  const out: R[] = [];
  for await (const f of Deno.readDir(`${p.workspace}/audit`)) {
    for (const line of (await Deno.readTextFile(`${p.workspace}/audit/${f.name}`)).split("\n")) {
      const entry = line ? JSON.parse(line) : undefined;
      if (entry?.tool === tool && entry.phase !== "start") out.push(entry);
    }
  }
  return out;
}

cases.test("takeover: a person's control refuses agent mutations, reads work, their input reaches the page", async () => {
  const fx = await startFixtureServer();
  const p = await start({ env: ENV });
  try {
    await openApproved(p, fx);
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    const count = () =>
      p.session().activePage!.evaluate("document.getElementById('count').textContent");

    // The person takes over in the console: the client is told.
    const taken = await p.send({ type: "takeover", session: KEY }) as R;
    assertEquals((taken.control as R).by, "human");
    await eventually(() => p.notices.some((n) => JSON.stringify(n.data).includes("took control")));

    // Mutations: refused, nothing done.
    const click = await p.call("click", { selector: "#add" });
    assertEquals(codeOf(click), "human-has-control", textOf(click));
    assertIncludes(textOf(click), "release()");
    assertEquals(await count(), "Count: 0");
    assertEquals(
      codeOf(await p.call("navigate", { url: fx.url("basic.html") })),
      "human-has-control",
    );
    // Pointer input too: drag and raw mouse.
    const drag = await p.call("drag", { from: { selector: "#add" }, to: { x: 5, y: 5 } });
    assertEquals(codeOf(drag), "human-has-control", textOf(drag));
    const mouse = await p.call("mouse", { action: "click", x: 5, y: 5 });
    assertEquals(codeOf(mouse), "human-has-control", textOf(mouse));
    // Reads: work.
    assertIncludes(String((await p.ok("snapshot")).tree), "Add one");
    assertEquals((await p.ok("get_url")).title, "Control");
    assertEquals(((await p.ok("list_sessions")).sessions as R[])[0]!.control, "human");
    // batch: its inner click hits the same gate; its read goes through.
    const batch = (await p.call("batch", {
      calls: [{ tool: "click", args: { selector: "#add" } }, { tool: "snapshot" }],
      stopOnError: false,
    })).structuredContent as R;
    const steps = batch.results as R[];
    assertEquals((steps[0]!.error as R).code, "human-has-control", JSON.stringify(steps[0]));
    assertEquals(steps[1]!.ok, true, JSON.stringify(steps[1]));
    assertEquals(await count(), "Count: 0");
    const refused = (await auditLines(p, "click")).at(-1)!;
    assertEquals([refused.decision, refused.error], ["refused", "human-has-control"]);

    // The person's mouse and keys: a click on the counter, typing into the field.
    const add = await centerOf(p, "#add");
    for (const action of ["move", "down", "up"]) {
      await p.send({ type: "input", session: KEY, event: { type: "mouse", action, ...add } });
    }
    await eventually(async () => await count() === "Count: 1", 5000, "the person's click");
    const field = await centerOf(p, "#field");
    for (const action of ["down", "up"]) {
      await p.send({ type: "input", session: KEY, event: { type: "mouse", action, ...field } });
    }
    for (const [key, code] of [["H", "KeyH"], ["i", "KeyI"]]) {
      for (const action of ["down", "up"]) {
        await p.send({ type: "input", session: KEY, event: { type: "key", action, key, code } });
      }
    }
    await p.send({ type: "input", session: KEY, event: { type: "text", text: " é" } });
    for (const action of ["down", "up"]) {
      const event = { type: "key", action, key: "Backspace", code: "Backspace" };
      await p.send({ type: "input", session: KEY, event });
    }
    await p.send({
      type: "input",
      session: KEY,
      event: { type: "wheel", ...field, deltaX: 0, deltaY: 40 },
    });
    await p.control.idle();
    const value = () => p.session().activePage!.evaluate("document.getElementById('field').value");
    await eventually(async () => await value() === "Hi ", 5000, "typed text");

    // Handing back: the client is told, the next result says so once, mutations work again.
    const back = await p.send({ type: "handback", session: KEY }) as R;
    assertEquals((back.control as R).by, "agent");
    await eventually(() => p.notices.some((n) => JSON.stringify(n.data).includes("handed")));
    const next = await p.ok("click", { selector: "#add" });
    assertEquals((next.sinceLastCall as R)?.control, { by: "agent" }, JSON.stringify(next));
    assertEquals(await count(), "Count: 2");
    const after = await p.ok("get_url");
    assertEquals((after.sinceLastCall as R | undefined)?.control, undefined);
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("takeover: the person's input reaches a cross-origin iframe", async () => {
  const fx = await startFixtureServer();
  const p = await start({ env: ENV });
  try {
    const url = fx.url(`iframes.html?cross=${encodeURIComponent(fx.crossUrl("frame-child.html"))}`);
    await openApproved(p, fx);
    await p.ok("navigate", { url, snapshot: "none" });
    await eventually(() =>
      p.session().activePage!.frames().some((f) => f.url.startsWith(fx.crossOrigin))
    );
    await p.ok("wait_for", { text: "Inner button" });
    await p.send({ type: "takeover", session: KEY });
    const at = await centerOf(p, "#inner-input", fx.crossOrigin);
    for (const action of ["move", "down", "up"]) {
      await p.send({ type: "input", session: KEY, event: { type: "mouse", action, ...at } });
    }
    for (const ch of "ok") {
      for (const action of ["down", "up"]) {
        const event = { type: "key", action, key: ch, code: `Key${ch.toUpperCase()}` };
        await p.send({ type: "input", session: KEY, event });
      }
    }
    await p.control.idle();
    await eventually(
      async () =>
        /textbox "Inner input" \[ref=e\d+\] \[focused\]: ok\n(?:.*\n)*.*localhost/.test(
          String((await p.ok("snapshot")).tree),
        ),
      5000,
      "typed into the cross-origin frame",
    );
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("takeover(): unattended changes nothing; attended, release() without elicitation is legacy", async () => {
  const fx = await startFixtureServer();
  const p = await start({ env: ENV });
  try {
    await openApproved(p, fx);
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    // Headless, nobody watching: refused, no state change.
    const alone = await p.call("takeover", { reason: "enter the 2FA code" });
    assertEquals(codeOf(alone), "unattended", textOf(alone));
    assertIncludes(textOf(alone), "web console");
    assertEquals(p.session().human.control.by, "agent");
    await p.ok("click", { selector: "#add" });

    // Someone watches in the console: the agent hands over.
    p.session().human.addViewer(1);
    const taken = await p.ok("takeover", { reason: "enter the 2FA code" });
    assertEquals([taken.ok, taken.control, taken.reason], [true, "human", "enter the 2FA code"]);
    const state = p.hub.state().control as { sessions: R[] };
    assertEquals([state.sessions[0]!.by, state.sessions[0]!.reason], [
      "human",
      "enter the 2FA code",
    ]);
    assertEquals(codeOf(await p.call("click", { selector: "#add" })), "human-has-control");

    // No elicitation: the release is the agent's own word, audited legacy.
    const released = await p.ok("release");
    assertEquals([released.control, released.consent_channel], ["agent", "legacy"]);
    assertEquals((await auditLines(p, "release")).at(-1)!.consent_channel, "legacy");
    await p.ok("click", { selector: "#add" });
    // Releasing with control already back: nothing to ask.
    assertEquals((await p.ok("release")).control, "agent");
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("release(): with elicitation the person is asked; no keeps their control", async () => {
  const fx = await startFixtureServer();
  let answer = false;
  const asked: string[] = [];
  const p = await start({
    env: ENV,
    elicit: (req) => {
      asked.push(req.message);
      return { action: "accept", content: { approve: answer } };
    },
  });
  try {
    await openApproved(p, fx);
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    await p.send({ type: "takeover", session: KEY });
    const no = await p.call("release");
    assertEquals(codeOf(no), "human-has-control", textOf(no));
    assertIncludes(textOf(no), "did not agree");
    assertEquals(p.session().human.control.by, "human");
    assertIncludes(asked[0]!, "release");
    answer = true;
    const yes = await p.ok("release");
    assertEquals([yes.control, yes.consent_channel], ["agent", "elicitation"]);
    assertEquals(asked.length, 2);
    const lines = await auditLines(p, "release");
    assertEquals(lines.map((l) => l.consent_channel), ["elicitation", "elicitation"]);
    assertEquals(lines.map((l) => l.ok), [false, true]);
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("takeover: bad input to the tools and the console messages", async () => {
  const p = await start({ env: ENV });
  try {
    for (
      const [tool, args, expect] of [
        ["takeover", {}, '"reason"'],
        ["takeover", { reason: "" }, '"reason"'],
        ["takeover", { reason: "x", bogus: 1 }, 'unknown field "bogus"'],
        ["release", { session: "nope" }, 'Unknown session "nope"'],
        ["release", { session: 3 }, '"session"'],
      ] as Array<[string, R, string]>
    ) {
      const r = await p.call(tool, args);
      assertEquals(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      assertIncludes(textOf(r), expect);
    }
    await p.ok("get_url");
    const errorOf = async (m: R) => {
      const r = await p.send(m as never) as R;
      assertEquals(r.type, "error", JSON.stringify(r));
      return String(r.error);
    };
    assertIncludes(await errorOf({ type: "takeover" }), '"session"');
    assertIncludes(
      await errorOf({ type: "takeover", session: { client: "t", session: "nope" } }),
      'unknown session "nope"',
    );
    assertIncludes(
      await errorOf({ type: "input", session: KEY, event: { type: "text", text: "x" } }),
      "take over first",
    );
    await p.send({ type: "takeover", session: KEY });
    for (
      const event of [
        undefined,
        { type: "mouse", action: "click", x: 1, y: 1 },
        { type: "mouse", action: "move", x: "a", y: 1 },
        { type: "key", action: "down" },
        { type: "key", action: "down", key: "a", modifiers: ["Hyper"] },
        { type: "text", text: "" },
        { type: "teleport" },
      ]
    ) {
      assertIncludes(await errorOf({ type: "input", session: KEY, event }), "Invalid input event");
    }
    assertTrue(p.session().human.humanHasControl);
  } finally {
    await p.close();
  }
});

cases.test("takeover: a mutation running when the person takes control stops there", async () => {
  const fx = await startFixtureServer();
  const p = await start({ env: ENV });
  try {
    await openApproved(p, fx);
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    // A click that waits for an element that never comes.
    const clicking = p.call("click", { selector: "#never", timeoutMs: 20_000 });
    await eventually(
      async () => {
        for await (const f of Deno.readDir(`${p.workspace}/audit`)) {
          const text = await Deno.readTextFile(`${p.workspace}/audit/${f.name}`);
          if (text.includes('"phase":"start"') && text.includes('"tool":"click"')) return true;
        }
        return false;
      },
      10_000,
      "the click to start",
    );
    await p.send({ type: "takeover", session: KEY });
    const r = await clicking;
    assertEquals(codeOf(r), "human-has-control", textOf(r));
    // Not its timeout: the takeover ended it.
    assertIncludes(textOf(r), "while");
  } finally {
    await p.close();
    await fx.close();
  }
});
