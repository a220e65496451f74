/**
 * Attacks on the web console and the human-control features (issue 15, red team): each test
 * performs an attack against a real browxai (and real Chromium) and shows it fail.
 *
 * @module
 */
import { assertEquals, assertTrue as assert } from "./_assert.ts";
import { loginCookie, openSocket, startConsoleStdio, upgradeStatus } from "./_console.ts";
import { startHttp } from "./_mcp.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { hostCases } from "./_control_server.ts";
import { startInProcess as startApprovalsInProcess } from "./_in_process.ts";
import type { Viewer } from "../mcp/console/hub.ts";
import { MAX_QUEUED_INPUT } from "../mcp/console/control.ts";
import type { ApprovalEntry } from "../mcp/console/approval_queue.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";

// One Chromium for the cases on in-process servers (each starts its own server on it); the
// other cases start their own servers as before.
const cases = hostCases("console attacks");

type R = Record<string, unknown>;

cases.test("console attack: an MCP client's bearer token neither approves its own confirms nor opens another principal's console", async () => {
  const fx = await startFixtureServer();
  // Two principals (two tokens); the agent holds tokA. A submit needs a person's yes.
  const http = await startHttp({
    args: ["--host", "0.0.0.0"],
    env: { BROWX_HTTP_TOKEN: "tokA-agent,tokB-other", BROWX_CONFIRM_REQUIRED: "submit" },
  });
  try {
    const m = await eventually(
      () => /web console: http:\/\/0\.0\.0\.0(:\d+)\/console\?token=(\w+)/.exec(http.stderr()),
      10_000,
      "the console URL",
    );
    const base = `http://127.0.0.1${m[1]}`;
    const agent = await http.connect({ authorization: "Bearer tokA-agent" });
    await agent.call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const tree = String((await agent.call("snapshot", {})).structuredContent?.tree);
    const button = refOf(tree, "Sign up");

    // The agent (a script holding its own /mcp token, Origin forged as a non-browser can)
    // tries every console door: none opens.
    for (const token of ["tokA-agent", "tokB-other"]) {
      const auth = { authorization: `Bearer ${token}` };
      const state = await fetch(`${base}/console/api/state`, { headers: auth });
      assertEquals(state.status, 401, `state with ${token}`);
      await state.body?.cancel();
      const post = await fetch(`${base}/console/api/message`, {
        method: "POST",
        headers: { ...auth, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ type: "approve", id: "q1", scope: "once" }),
      });
      assertEquals(post.status, 401, `POST with ${token}`);
      await post.body?.cancel();
      assertEquals((await upgradeStatus(base, { ...auth, origin: base })).status, 401);
    }

    // Had the socket opened, the agent would be the "person watching": the console channel
    // would be available and the agent could answer its own question. Without it the submit
    // is refused (nobody to ask) and the page has not moved.
    const r = await agent.call("click", { ref: button, submits: true });
    assertEquals(r.isError, true);
    assertEquals((r.structuredContent?.error as R).code, "blocked-by-policy");
    assertEquals((await agent.call("get_url", {})).structuredContent?.url, fx.url("form.html"));
    // Nor does its own browser go to the console (the --http listener serves it too).
    const nav = await agent.call("navigate", { url: `${base}/console?token=${m[2]}` });
    assertEquals((nav.structuredContent?.error as R)?.code, "blocked-by-policy");

    // The operator's printed URL still works (cookie), for a person or a script.
    const cookie = await loginCookie(`${base}/console?token=${m[2]}`);
    const s = await openSocket(base, { cookie, origin: base });
    try {
      const hello = await s.next((msg) => msg.type === "state");
      assert(Array.isArray((hello.state as R).sessions));
    } finally {
      s.close();
    }
  } finally {
    await http.close();
    await fx.close();
  }
});

cases.test("console attack: the agent cannot read or click the console a person opened in the browser it drives", async () => {
  const fx = await startFixtureServer();
  // The person's own browser, which the agent may attach to (byob-attach).
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const server = await startConsoleStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach",
      BROWX_CONFIRM_REQUIRED: "submit",
      BROWX_CONFIRM_TIMEOUT_MS: "4000",
    },
  });
  const mcp = server.mcp;
  const code = (r: { structuredContent?: R }) => (r.structuredContent?.error as R)?.code;
  try {
    // The person opens the printed console URL in their browser: its cookie is there now.
    await theirs.newPage(undefined, server.url);
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const tree = String((await mcp.call("snapshot", {})).structuredContent?.tree);
    const button = refOf(tree, "Sign up");
    await mcp.ok("open_session", {
      session: "theirs",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
    });
    // The agent's submit waits for a person's yes (the console is open: it is asked there)...
    const pending = mcp.call("click", { ref: button, submits: true });
    pending.catch(() => {});
    // ...and the agent goes to the console tab to answer it itself.
    const tabs = (await mcp.ok("tabs", { session: "theirs", action: "list" })).tabs as R[];
    const index = tabs.findIndex((t) => String(t.url).startsWith(`${server.base}/console`));
    assert(index >= 0, JSON.stringify(tabs));
    await mcp.ok("tabs", { session: "theirs", action: "switch", index });
    for (
      const [tool, args] of [
        ["snapshot", {}],
        ["screenshot", {}],
        ["find", { query: "Approve once" }],
        ["click", { selector: "button.approve" }],
        ["press", { key: "Enter" }],
      ] as Array<[string, R]>
    ) {
      const r = await mcp.call(tool, { ...args, session: "theirs" });
      assertEquals(code(r), "blocked-by-policy", `${tool}: ${JSON.stringify(r.structuredContent)}`);
    }
    // Nobody answered: the submit is refused, the form page has not moved.
    const done = await pending;
    assertEquals(code(done), "blocked-by-policy");
    assertEquals((await mcp.ok("get_url", {})).url, fx.url("form.html"));
    // Nor may it navigate a tab there (a Page.navigate carries the person's cookie).
    await mcp.ok("tabs", { session: "theirs", action: "new" });
    const nav = await mcp.call("navigate", { session: "theirs", url: `${server.base}/console` });
    assertEquals(code(nav), "blocked-by-policy");
    assertEquals(code(await mcp.call("navigate", { url: server.url })), "blocked-by-policy");
    // Leaving it works: another tab reads and acts as before.
    await mcp.ok("navigate", { session: "theirs", url: fx.url("form.html"), snapshot: "none" });
    await mcp.ok("snapshot", { session: "theirs" });
  } finally {
    await server.close();
    await theirs.close();
    await fx.close();
  }
});

cases.test("console attack: a page's huge URL and title do not make every console state megabytes", async () => {
  const fx = await startFixtureServer();
  const server = await startConsoleStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_CONFIRM_REQUIRED: "submit" },
  });
  const mcp = server.mcp;
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const button = refOf(
      String((await mcp.call("snapshot", {})).structuredContent?.tree),
      "Sign up",
    );
    // What a hostile page does by itself (eval_js only plays its script): a URL and a title
    // of a megabyte each, in every tab it opens.
    await mcp.ok("eval_js", {
      expression: `history.pushState(null, "", "/form.html?" + "a".repeat(1 << 20));
        document.title = "T".repeat(1 << 20); true`,
    });
    const cookie = await loginCookie(server.url);
    const sessionOf = async () => {
      const r = await fetch(`${server.base}/console/api/state`, { headers: { cookie } });
      const text = await r.text();
      const s = (JSON.parse(text).sessions as Array<{ sessions: R[] }>)[0]!.sessions[0]!;
      return { text, s };
    };
    // The console has seen the new URL and title (a viewer makes it look for titles).
    const viewer = await openSocket(server.base, { cookie, origin: server.base });
    try {
      const { text, s } = await eventually(
        async () => {
          const got = await sessionOf();
          return String(got.s.url).startsWith(fx.url("form.html?aaaa")) &&
            String(got.s.title).startsWith("TTTT") && got;
        },
        15_000,
        "the new URL and title in the state",
      );
      assert(text.length < 20_000, `state of ${text.length} characters`);
      assert(String(s.url).endsWith("…") && String(s.title).endsWith("…"), "marked as cut");
      // A submit's question names the page's URL: its entry is cut too.
      const asked = mcp.call("click", { ref: button, submits: true });
      asked.catch(() => {});
      const entry = await eventually(
        async () => {
          const r = await fetch(`${server.base}/console/api/state`, { headers: { cookie } });
          return (await r.json()).approvals?.[0] as R | undefined;
        },
        10_000,
        "the approval",
      );
      assert(JSON.stringify(entry).length < 5_000, `entry of ${JSON.stringify(entry).length}`);
      viewer.send({ type: "deny", id: entry.id });
      assertEquals(((await asked).structuredContent?.error as R)?.code, "blocked-by-policy");
    } finally {
      viewer.close();
    }
  } finally {
    await server.close();
    await fx.close();
  }
});

cases.test("console attack: a page's huge id and classes do not make each pick-hover hint megabytes", async () => {
  const fx = await startFixtureServer();
  const p = await cases.start({ env: { BROWX_TOOLSETS: "core,sessions,human" } });
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    const page = p.session().activePage!;
    // What a hostile page does to every element under the person's pointer.
    await page.evaluate(`(() => {
      const b = document.querySelector("#add");
      b.id = "i".repeat(1 << 20);
      b.className = Array.from({ length: 10 }, (_, i) => String(i).repeat(1 << 18)).join(" ");
    })()`);
    const at = await page.evaluate(
      `(() => { const r = document.querySelector("button").getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
    ) as { x: number; y: number };
    const hint = await p.send({
      type: "pick-hover",
      session: { client: "t", session: "default" },
      ...at,
    }) as R;
    assertEquals([hint.type, hint.hit, hint.tag], ["pick-hint", true, "button"]);
    assert(JSON.stringify(hint).length < 5_000, `a hint of ${JSON.stringify(hint).length}`);
    assert(String(hint.id).startsWith("iii") && String(hint.id).endsWith("…"));
    // The pick itself (told to the client, listed by picked()) stays small too.
    const picked = await p.send({
      type: "pick",
      session: { client: "t", session: "default" },
      ...at,
    }) as R;
    assertEquals(picked.type, "picked");
    assert(JSON.stringify(picked).length < 5_000, `a pick of ${JSON.stringify(picked).length}`);
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("console attack: the person's queued input stops at handback; it never runs under the agent", async () => {
  const fx = await startFixtureServer();
  // Holds the page's main thread (a synchronous XHR) until the test lets go.
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  let asked = false;
  const hold = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    asked = true;
    await held;
    return new Response("ok", { headers: { "access-control-allow-origin": "*" } });
  });
  const p = await cases.start({ env: { BROWX_TOOLSETS: "core,sessions,human" } });
  const KEY = { client: "t", session: "default" };
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    const page = p.session().activePage!;
    await page.evaluate(
      "window.__keys = 0; addEventListener('keydown', () => window.__keys++); 1",
      {
        world: "main",
      },
    );
    await p.send({ type: "takeover", session: KEY });
    // The page is busy (a slow page, or one that means it): the person's keys queue up.
    await page.evaluate(
      `setTimeout(() => { const x = new XMLHttpRequest(); x.open("GET", ${
        JSON.stringify(`http://127.0.0.1:${hold.addr.port}/`)
      }, false); x.send(); }, 0); 1`,
      { world: "main" },
    );
    await eventually(() => asked, 10_000, "the page blocked");
    const typed = [];
    for (let i = 0; i < 10; i++) {
      for (const action of ["down", "up"]) {
        typed.push(
          p.send({
            type: "input",
            session: KEY,
            event: { type: "key", action, key: "a", code: "KeyA" },
          }).catch(() => {}),
        );
      }
    }
    // The person hands back while their keys wait; the agent has control from here on.
    await p.send({ type: "handback", session: KEY });
    release();
    await Promise.all(typed);
    await p.control.idle();
    const keys = await page.evaluate("window.__keys", { world: "main" }) as number;
    // At most the key already on its way when they handed back.
    assert(keys <= 1, `${keys} of the person's keys reached the page under the agent`);
  } finally {
    release();
    await p.close();
    await hold.shutdown();
    await fx.close();
  }
});

cases.test("console attack: a page that moves the target after the question does not leave its outline on another element", async () => {
  const fx = await startFixtureServer();
  const server = await startApprovalsInProcess({
    BROWX_CONFIRM_REQUIRED: "submit",
    BROWX_CONFIRM_TIMEOUT_MS: "60000",
  });
  const { hub, call, sessions } = server;
  const viewer: Viewer = { id: 1, send: () => {} };
  hub.addViewer(viewer);
  const pending = () => hub.state().approvals as ApprovalEntry[];
  try {
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const tree = String((await call("snapshot", {})).structuredContent?.tree);
    const asked = call("click", { ref: refOf(tree, "Sign up"), submits: true });
    asked.catch(() => {});
    const first = await eventually(() => pending()[0]?.target?.box, 10_000, "the target's box");
    // The page moves the real target down, under its own content, once the person looks.
    const page = sessions.list()[0]!.activePage!;
    await page.evaluate(
      `(() => { const b = [...document.querySelectorAll("button")].find((b) => /Sign up/.test(b.textContent));
        b.style.position = "relative"; b.style.top = "200px"; })()`,
      { world: "main" },
    );
    const moved = await eventually(
      () => {
        const box = pending()[0]?.target?.box;
        return box && Math.abs(box.y - first.y - 200) < 2 && box;
      },
      10_000,
      "the outline following the target",
    );
    assertEquals(Math.round(moved.x), Math.round(first.x));
    await hub.handle({ type: "deny", id: pending()[0]!.id }, viewer);
    assertEquals((await asked).isError, true);
  } finally {
    await server.close();
    await fx.close();
  }
});

cases.test("console attack: a client that answers elicitation by itself cannot take control back from a person at the console", async () => {
  const fx = await startFixtureServer();
  let elicited = 0;
  // The agent's client says yes to every question on its own.
  const p = await cases.start({
    env: { BROWX_CAPABILITIES: "read,navigation,action,human", BROWX_TOOLSETS: "core,human" },
    elicit: (req) => {
      if (req.message.includes("hand control")) elicited++;
      return { action: "accept", content: { approve: true } };
    },
  });
  const KEY = { client: "t", session: "default" };
  const viewer: Viewer = { id: 7, send: () => {} };
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    // A person has the console open and takes control there.
    p.hub.addViewer(viewer);
    await p.send({ type: "takeover", session: KEY });
    const releasing = p.call("release");
    // The question waits in the console; the person says no there.
    const entry = await eventually(
      () => (p.hub.state().approvals as ApprovalEntry[] | undefined)?.[0],
      10_000,
      "the release question in the console",
    );
    await p.send({ type: "deny", id: entry.id });
    const r = await releasing;
    assertEquals(((r.structuredContent as R).error as R).code, "human-has-control");
    assertEquals((r.structuredContent as R).consent_channel, "console");
    assertEquals([elicited, p.session().human.control.by], [0, "human"]);
  } finally {
    p.hub.removeViewer(viewer);
    await p.close();
    await fx.close();
  }
});

cases.test("console attack: a page that takes no input does not make the server hold every event a viewer sends", async () => {
  const fx = await startFixtureServer();
  const p = await cases.start({ env: { BROWX_TOOLSETS: "core,sessions,human" } });
  const KEY = { client: "t", session: "default" };
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    const page = p.session().activePage!;
    await p.send({ type: "takeover", session: KEY });
    // The page stops answering: its script stands paused in the debugger at the first key.
    await page.evaluate("addEventListener('keydown', () => 0); 1", { world: "main" });
    await page.send("Debugger.enable", {});
    await page.send("Debugger.pause");
    const sent = Array.from({ length: MAX_QUEUED_INPUT + 100 }, (_, i) =>
      p.send({
        type: "input",
        session: KEY,
        event: { type: "key", action: i % 2 ? "up" : "down", key: "a", code: "KeyA" },
      }).then((r) => r?.type === "error" ? String(r.error) : "ok"));
    // Past the cap the viewer is told at once, while the page still holds: these settle
    // before the test lets the page go.
    const refused: string[] = [];
    sent.slice(MAX_QUEUED_INPUT).forEach((s) => s.then((m) => refused.push(m)));
    await eventually(() => refused.length === 100, 10_000, "the events past the cap refused");
    assert(refused.every((m) => m.includes("not taking input")), refused[0]);
    await page.send("Debugger.resume");
    const all = await Promise.all(sent);
    assertEquals(all.filter((m) => m === "ok").length, MAX_QUEUED_INPUT);
  } finally {
    await p.close();
    await fx.close();
  }
});
