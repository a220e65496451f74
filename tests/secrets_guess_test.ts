/**
 * Red team s17 F2 and F3, over MCP stdio against real Chromium. F2: a registered value written
 * in clear in a call's arguments (10,000 PIN guesses in one fill; a binary search by navigate
 * URLs the secret-origin guard would refuse) is refused without naming the secret, nothing of
 * it done; other calls go on (no lock: a page can show guesses itself, so a lock would not
 * close the oracle, and it stopped every client for one slip). F3: with a secrets file but without the
 * `secrets` capability, results are masked all the same.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";
import { parseAuditLog } from "../policy/audit.ts";

const PIN = "7351";
const PW = "Hunter2Secret";

/** A server whose secrets file holds PIN (bound to an origin never visited) and PW. */
async function start(capabilities: string) {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-guess-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PIN@https://bank.example=${PIN}\nPW=${PW}\n`, {
    mode: 0o600,
  });
  const mcp = await startStdio({
    workspace: ws,
    env: { BROWX_CAPABILITIES: capabilities, BROWX_SECRETS: secrets, BROWX_TOOLSETS: "all" },
  });
  return {
    mcp,
    ws,
    close: async () => {
      await mcp.close();
      await Deno.remove(ws, { recursive: true }).catch(() => {});
    },
  };
}

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string })?.code;
const rule = (r: ToolResult) =>
  ((r.structuredContent?.error as { details?: { policy?: { rule?: string } } })?.details
    ?.policy?.rule) ?? JSON.stringify(r.structuredContent).match(/"rule":"([a-z-]+)"/)?.[1];

/** A guess refusal: blocked-by-policy, secret-guess, naming neither the secret nor its value. */
function assertRefused(r: ToolResult, what: string) {
  assertEquals([r.isError, code(r), rule(r)], [true, "blocked-by-policy", "secret-guess"], what);
  for (const v of ["PIN", "PW", PIN, PW]) assertNotIncludes(textOf(r), v, what);
}

Deno.test("secrets: 10,000 PIN guesses in one fill are refused, nothing done; the server goes on (s17 F2)", async () => {
  const pages = servePages({ "/": "<textarea id=t></textarea>" });
  const { mcp, ws, close } = await start("read,navigation,action,secrets");
  try {
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    // Wrong guesses go as any text does.
    await mcp.ok("fill", { selector: "#t", value: "0000 1111 2222", snapshot: "none" });
    const all = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, "0")).join(" ");
    const r = await mcp.call("fill", { selector: "#t", value: all });
    assertRefused(r, "the guesses");
    // The field never got them; the same guesses again are refused alike, and other calls go
    // on (no lock: one honest slip must not stop every client).
    assertRefused(await mcp.call("fill", { selector: "#t", value: all }), "again");
    const tree = String((await mcp.ok("snapshot", {})).tree);
    assertIncludes(tree, "0000 1111 2222");
    assertNotIncludes(tree, "9999");
    await mcp.ok("fill", { selector: "#t", value: "5555", snapshot: "none" });
    await eventually(() => mcp.stderr().includes("SECURITY"));
    assertIncludes(mcp.stderr(), 'arguments of a "fill" call');
    assertNotIncludes(mcp.stderr(), PIN);
    // The audit line of the refused call says why.
    let text = "";
    for await (const f of Deno.readDir(join(ws, "audit"))) {
      text += await Deno.readTextFile(join(ws, "audit", f.name));
    }
    const { entries } = parseAuditLog(text);
    const refused = entries.filter((e) => e.error === "blocked-by-policy");
    assertEquals(refused.length, 2);
    assertIncludes(refused[0]!.reason ?? JSON.stringify(refused[0]), "treated as guessing");
    assertNotIncludes(text, PIN + " ");
  } finally {
    await close();
    await pages.close();
  }
});

Deno.test("secrets: guessing by navigate URLs is refused, in clear or hex, without naming the secret (s17 F2)", async () => {
  const pages = servePages({ "/": "<p>hi</p>" });
  const candidates = Array.from({ length: 5000 }, (_, i) => String(i + 5000)).join("-");
  for (
    const url of [
      `${pages.base}/?q=${candidates}`,
      // The guard's forms (hex of the bytes) are the agent's guesses too.
      `${pages.base}/?q=${[...new TextEncoder().encode(PIN)].map((b) => b.toString(16)).join("")}`,
    ]
  ) {
    // Without the secrets capability too: the guard ran regardless (red team: "works with
    // the capability off").
    const { mcp, close } = await start("read,navigation,action");
    try {
      await mcp.ok("navigate", { url: `${pages.base}/?q=0000-4999`, snapshot: "none" });
      assertRefused(await mcp.call("navigate", { url, snapshot: "none" }), url.slice(-40));
      await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    } finally {
      await close();
    }
  }
  await pages.close();
});

Deno.test("secrets: without the secrets capability a page's registered value is still masked (s17 F3)", async () => {
  const pages = servePages({ "/": `<p id=a>account ${PW}</p>` });
  const { mcp, close } = await start("read,navigation,action");
  try {
    assertIncludes(mcp.stderr(), "results are still masked");
    const nav = await mcp.call("navigate", { url: pages.base + "/" });
    const snap = await mcp.call("snapshot", {});
    const fill = await mcp.call("fill", { selector: "#a", value: "x" }); // its error quotes the text
    for (const r of [nav, snap]) {
      assertEquals(r.isError, undefined, textOf(r));
      assertNotIncludes(JSON.stringify(r), PW);
    }
    assertIncludes(textOf(snap), "[secret:PW]");
    assertNotIncludes(JSON.stringify(fill), PW);
  } finally {
    await close();
    await pages.close();
  }
});

Deno.test("secrets: guesses split by markup in set_editor's html count as written in clear (s17 F2)", async () => {
  const pages = servePages({ "/": "<div id=ed contenteditable=true></div>" });
  const { mcp, close } = await start("read,navigation,action,secrets");
  try {
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    const split = (s: string) => `<b>${s.slice(0, 2)}</b><b>${s.slice(2)}</b>`;
    const html = (from: number) =>
      Array.from({ length: 1000 }, (_, i) => split(String(from + i).padStart(4, "0"))).join(" ");
    await mcp.ok("set_editor", { selector: "#ed", html: true, text: html(0), snapshot: "none" });
    assertRefused(
      await mcp.call("set_editor", { selector: "#ed", html: true, text: html(7000) }),
      "split",
    );
    // Nothing of it reached the page: the editor holds the first thousand still.
    const tree = String((await mcp.ok("snapshot", {})).tree);
    assertIncludes(tree, "0999");
    assertNotIncludes(tree, "7000");
  } finally {
    await close();
    await pages.close();
  }
});
