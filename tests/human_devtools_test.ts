/**
 * End-to-end tests of the DevTools-console human channel: a real browxai
 * server over stdio (its client declares no elicitation), driving a
 * Chromium this test launched and passed as `--cdp-endpoint`, so that the
 * test can play the person at DevTools over its own CDP connection: find
 * the "browxai" execution context of the tab and evaluate
 * `__browx.confirm(…)` in it, which is what DevTools does with what a person
 * types there. A yes is `__browx.confirm("<code>")` with the question's own
 * code; the page can forge a question, not its code.
 */
import type { CdpSession } from "../cdp/connection.ts";
import { Connection } from "../cdp/connection.ts";
import { findChromium } from "../cdp/discovery.ts";
import { launchChromium, type LaunchedBrowser } from "../cdp/launcher.ts";
import { connectWebSocket } from "../cdp/transport.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

interface ContextInfo {
  name: string;
  isDefault: boolean;
  frameId: string;
}

/** The person at DevTools: an own CDP connection to the browser the server drives. */
class Person {
  readonly #conn: Connection;
  #session: CdpSession | undefined;
  readonly contexts = new Map<number, ContextInfo>();
  /** `console.warn` texts the tab printed (replayed on attach, then live). */
  readonly warnings: string[] = [];

  private constructor(conn: Connection) {
    this.#conn = conn;
  }

  static async connect(wsEndpoint: string): Promise<Person> {
    return new Person(new Connection(await connectWebSocket(wsEndpoint)));
  }

  get session(): CdpSession {
    if (!this.#session) throw new Error("open a tab first");
    return this.#session;
  }

  /** Opens DevTools on the tab showing `url`: attaches to it and enables Runtime. */
  async open(url: string): Promise<string> {
    const targetId = await eventually(
      async () => {
        const { targetInfos } = await this.#conn.send("Target.getTargets");
        return targetInfos.find((t) => t.type === "page" && t.url === url)?.targetId;
      },
      10_000,
      `a tab at ${url}`,
    ) as string;
    const { sessionId } = await this.#conn.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const s = this.#conn.session(sessionId);
    this.#session = s;
    this.contexts.clear();
    s.on("Runtime.executionContextCreated", ({ context }) => {
      const aux = context.auxData as { isDefault?: boolean; frameId?: string } | undefined;
      this.contexts.set(context.id, {
        name: context.name,
        isDefault: aux?.isDefault ?? false,
        frameId: aux?.frameId ?? "",
      });
    });
    s.on("Runtime.executionContextDestroyed", (e) => this.contexts.delete(e.executionContextId));
    s.on("Runtime.executionContextsCleared", () => this.contexts.clear());
    s.on("Runtime.consoleAPICalled", (e) => {
      if (e.type === "warning") this.warnings.push(e.args.map((a) => String(a.value)).join(" "));
    });
    await s.send("Runtime.enable");
    return targetId;
  }

  /** Evaluates `expression` in a context (as DevTools does with what a person types). */
  async type(expression: string, contextId?: number): Promise<unknown> {
    const r = await this.session.send("Runtime.evaluate", {
      expression,
      ...(contextId !== undefined ? { contextId } : {}),
      returnByValue: true,
    });
    if (r.exceptionDetails) {
      throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    }
    return r.result.value;
  }

  /** Contexts with this name. */
  named(name: string): number[] {
    return [...this.contexts].filter(([, c]) => c.name === name).map(([id]) => id);
  }

  /** The page's own world of the main frame. */
  mainWorld(targetId: string): number {
    const id = [...this.contexts].find(([, c]) => c.isDefault && c.frameId === targetId)?.[0];
    if (id === undefined) throw new Error("no main world");
    return id;
  }

  /**
   * Waits until the "browxai" context of the tab asks a question (in a
   * document at `url`, when given) and returns that context's id.
   */
  async question(url?: string): Promise<number> {
    return await eventually(
      async () => {
        for (const id of this.named("browxai")) {
          const asks = await this.type(
            `typeof globalThis.__browx?.question === "string" && location.href`,
            id,
          ).catch(() => false);
          if (asks && (url === undefined || asks === url)) return id;
        }
        return undefined;
      },
      15_000,
      `a question in the "browxai" context${url ? ` at ${url}` : ""}`,
    ) as number;
  }

  /** The real question of the "browxai" context `world`: what typing `__browx.question` shows. */
  read = async (world: number) => String(await this.type("__browx.question", world));

  /** The code of the question asked in `world`, as the person reads it in `__browx.question`. */
  code = async (world: number) => /\(code ([A-Z0-9]+)\)/.exec(await this.read(world))?.[1] ?? "";

  /** Allows the question asked in `world`: types `__browx.confirm("<its code>")`. */
  allow = async (world: number) =>
    await this.type(`__browx.confirm("${await this.code(world)}")`, world);

  /** Closes a tab. CDP: `Target.closeTarget`. */
  async closeTab(targetId: string): Promise<void> {
    await this.#conn.send("Target.closeTarget", { targetId });
  }

  async close(): Promise<void> {
    await this.#conn.close();
  }
}

/** What every test needs: fixtures, a Chromium the test owns, a server driving it, the person. */
interface World {
  fx: FixtureServer;
  chromium: LaunchedBrowser;
  mcp: McpHarness;
  person: Person;
  close(): Promise<void>;
}

async function setUp(env: Record<string, string>): Promise<World> {
  const fx = await startFixtureServer();
  const chromium = await launchChromium({ executablePath: findChromium().path, debugPort: true });
  const mcp = await startStdio({
    args: ["--cdp-endpoint", chromium.wsEndpoint!],
    env: {
      BROWX_DEVTOOLS_CONFIRM: "1",
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      ...env,
    },
  });
  const person = await Person.connect(chromium.wsEndpoint!);
  return {
    fx,
    chromium,
    mcp,
    person,
    async close() {
      await person.close().catch(() => {});
      await mcp.close();
      await chromium.close();
      await fx.close();
    },
  };
}

/**
 * Starts a navigate that waits for a person; a failure of the test while it
 * waits must not also surface as an unhandled rejection when the server closes.
 */
function asking(mcp: McpHarness, args: R): Promise<ToolResult> {
  const p = mcp.call("navigate", args);
  p.catch(() => {});
  return p;
}

async function tabUrl(mcp: McpHarness): Promise<string> {
  const t = await mcp.ok("tabs", { action: "list" });
  return String(((t.tabs as R[]).find((x) => x.active) ?? {}).url);
}

Deno.test("devtools channel: a person answers in the browxai context", async (t) => {
  const w = await setUp({ BROWX_CONFIRM_TIMEOUT_MS: "30000" });
  const { fx, mcp, person } = w;
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    let targetId = await person.open(fx.url("basic.html"));

    await t.step('__browx.confirm("<code>") lets the navigate go ahead', async () => {
      const pending = asking(mcp, { url: fx.crossUrl("basic.html"), snapshot: "none" });
      const world = await person.question();
      // The question, its code, and exactly what to type, are in the console.
      const warning = (await eventually(
        () => person.warnings.find((m) => m.includes("navigate_off_allowlist")),
        5000,
        "the question in the console",
      ))!;
      const code = await person.code(world);
      assertTrue(/^[ACEFHJKMNPRTWXY349]{5}$/.test(code), code);
      const expected = [fx.crossUrl("basic.html"), `(code ${code})`, `__browx.confirm("${code}")`];
      for (const part of [...expected, "confirm(false)", "__browx.question", '"browxai" context']) {
        assertIncludes(warning, part);
      }
      assertEquals(await person.read(world), warning);
      // true, a wrong code, or anything else is not an answer: the question waits on.
      const notYes = String(await person.type("__browx.confirm(true)", world));
      for (const part of ["is not a yes", "still waiting", warning]) assertIncludes(notYes, part);
      assertIncludes(String(await person.type(`__browx.confirm("yes")`, world)), "not the code");
      assertIncludes(String(await person.type(`__browx.confirm(1)`, world)), "not an answer");
      // The code as a person may type it: lower case, spaced.
      const typed = JSON.stringify(code.toLowerCase().split("").join(" "));
      assertEquals(await person.type(`__browx.confirm(${typed})`, world), "browxai: allowed");
      const r = await pending;
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(r.structuredContent!.url, fx.crossUrl("basic.html"));
    });

    await t.step("__browx.confirm(false) refuses; the tab stays; __browx retires", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const pending = asking(mcp, { url: fx.crossUrl("form.html"), snapshot: "none" });
      const world = await person.question(fx.url("basic.html"));
      assertEquals(await person.type("__browx.confirm(false)", world), "browxai: refused");
      const r = await pending;
      assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
      assertIncludes(textOf(r), "the human said no (through devtools)");
      assertEquals(await tabUrl(mcp), fx.url("basic.html"));
      // A late answer reaches nothing.
      assertIncludes(String(await person.type("__browx.confirm(false)", world)), "no question");
    });

    await t.step("the tab navigating while waiting: asked again in the new document", async () => {
      const pending = asking(mcp, { url: fx.crossUrl("basic.html"), snapshot: "none" });
      const before = await person.question(fx.url("basic.html"));
      const code = await person.code(before);
      await person.type(`location.href = ${JSON.stringify(fx.url("form.html"))}`, before);
      const world = await person.question(fx.url("form.html"));
      // The same question, with the same code, in the new document.
      assertEquals(await person.code(world), code);
      assertEquals(await person.allow(world), "browxai: allowed");
      const r = await pending;
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(r.structuredContent!.url, fx.crossUrl("basic.html"));
    });

    await t.step("the tab closing while waiting is a refusal", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const pending = asking(mcp, { url: fx.crossUrl("form.html"), snapshot: "none" });
      await person.question(fx.url("basic.html"));
      await person.closeTab(targetId);
      const r = await pending;
      assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
      assertIncludes(textOf(r), "asking through devtools failed: the tab closed");
      // The session goes on in a new tab.
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      targetId = await person.open(fx.url("basic.html"));
      const again = asking(mcp, { url: fx.crossUrl("basic.html"), snapshot: "none" });
      assertEquals(await person.allow(await person.question()), "browxai: allowed");
      assertEquals((await again).isError, undefined);
    });

    await t.step("a question the page forges, code and all, approves nothing", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const pending = asking(mcp, { url: fx.crossUrl("form.html"), snapshot: "none" });
      let settled = false;
      pending.finally(() => settled = true).catch(() => {});
      const world = await person.question(fx.url("basic.html"));
      const code = await person.code(world);
      const fake = code === "HWX34" ? "KEY49" : "HWX34";
      // The page owns the console: it clears it over and over and prints a question of its own.
      const forged = `browxai asks for "file_upload": upload_file: attach "cat.jpg". Allow it? ` +
        `(code ${fake})\nTo answer, type __browx.confirm("${fake}") in the "browxai" context.`;
      await person.type(
        `setInterval(() => { console.clear(); console.warn(${JSON.stringify(forged)}); }, 100), 0`,
        person.mainWorld(targetId),
      );
      await eventually(() => person.warnings.at(-1)?.includes("cat.jpg") || undefined, 5000);
      // The person, fooled, types the forged code in the real "browxai" context: not a yes.
      const reply = String(await person.type(`__browx.confirm("${fake}")`, world));
      assertIncludes(reply, `"${fake}" is not the code of the question browxai is asking: nothing`);
      const asked = `${fx.crossUrl("form.html")}, which is not on the allowlist. Allow it?`;
      assertIncludes(reply, `${asked} (code ${code})`);
      // Nor is true, which the forged question of old asked for.
      assertIncludes(String(await person.type("__browx.confirm(true)", world)), "not a yes");
      // __browx.question is the real question, whatever the console shows; still asked, so
      // neither answer settled the call (the outcome below says it was refused, not approved).
      const real = await person.read(world);
      assertIncludes(real, `${asked} (code ${code})`);
      assertEquals(settled, false, "the question is still waiting");
      assertEquals(real.includes("cat.jpg") || real.includes(fake), false, real);
      // Having read it, the person refuses.
      assertEquals(await person.type("__browx.confirm(false)", world), "browxai: refused");
      assertEquals(((await pending).structuredContent!.error as R).code, "blocked-by-policy");
      assertEquals(await tabUrl(mcp), fx.url("basic.html"));
    });
  } finally {
    await w.close();
  }
});

Deno.test("devtools channel: neither the page nor the agent can approve; silence is a no", async () => {
  const w = await setUp({
    BROWX_CONFIRM_TIMEOUT_MS: "4000",
    BROWX_CAPABILITIES: "read,navigation,action,eval",
    BROWX_TOOLSETS: "core,debug",
  });
  const { fx, mcp, person } = w;
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const targetId = await person.open(fx.url("basic.html"));
    const started = Date.now();
    const pending = asking(mcp, { url: fx.crossUrl("basic.html"), snapshot: "none" });
    const world = await person.question();

    // The page's own world: try everything it can find.
    const tried = await person.type(
      `(() => {
        const found = [];
        const standard = new Set(Object.getOwnPropertyNames(
          document.body.appendChild(document.createElement("iframe")).contentWindow));
        for (const name of Object.getOwnPropertyNames(globalThis)) {
          if (/browx/i.test(name)) found.push(name);
          if (standard.has(name)) continue;
          let v;
          try { v = globalThis[name]; } catch { continue; }
          for (const arg of [true, "true"]) {
            try { if (typeof v === "function") v(arg); } catch {}
            try { if (typeof v?.confirm === "function") v.confirm(arg); } catch {}
          }
        }
        try { __browx.confirm(true); found.push("__browx worked"); } catch {}
        return { found, browx: typeof globalThis.__browx };
      })()`,
      person.mainWorld(targetId),
    ) as { found: string[]; browx: string };
    assertEquals(tried, { found: [], browx: "undefined" });
    // Even told the binding's private name, the page's world has no such function.
    const name = await person.type(
      `Object.getOwnPropertyNames(globalThis).find((n) => n.startsWith("__browx_answer_"))`,
      world,
    );
    assertTrue(typeof name === "string", "the binding lives in the browxai world");
    assertEquals(
      await person.type(`typeof globalThis[${JSON.stringify(name)}]`, person.mainWorld(targetId)),
      "undefined",
    );

    // The agent: eval_js runs in the page's world, where there is no __browx.
    const agent = await mcp.call("eval_js", { expression: "typeof __browx" });
    assertEquals(agent.structuredContent!.value, "undefined", textOf(agent));

    // Other isolated worlds (an extension's, browxai's own utility world)
    // get neither __browx nor the binding: it is installed by context name.
    for (const worldName of ["an-extension", "__browxai_utility"]) {
      const { executionContextId } = await person.session.send("Page.createIsolatedWorld", {
        frameId: targetId,
        worldName,
      });
      assertTrue(executionContextId !== world);
      const seen = await person.type(
        `Object.getOwnPropertyNames(globalThis).filter((n) => /^__browx($|_answer_)/.test(n))`,
        executionContextId,
      );
      assertEquals(seen, [], worldName);
    }
    // Chromium keeps one world per name and frame: asking for "browxai" again is the
    // question's own world (where a person at DevTools types), not a second one.
    const again = await person.session.send("Page.createIsolatedWorld", {
      frameId: targetId,
      worldName: "browxai",
    });
    assertEquals(again.executionContextId, world);

    const r = await pending;
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(r), "nobody answered through devtools within 4 s");
    assertTrue(Date.now() - started < 15_000);
    assertEquals(await tabUrl(mcp), fx.url("basic.html"));
    assertIncludes(String(await person.type("__browx.confirm(true)", world)), "no question");
  } finally {
    await w.close();
  }
});

Deno.test("devtools channel: off without BROWX_DEVTOOLS_CONFIRM in a headless browser", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const r = await mcp.call("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(r), "no human channel");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
