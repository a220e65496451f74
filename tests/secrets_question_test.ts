/**
 * A filled secret stays out of the human's question and the web console (red team s13 #5): a
 * bound page copies the filled value into its form's action and its title; the agent declares
 * the submit. The elicitation message the client receives, and every state the console's live
 * socket pushes (approvals[].summary, sessions[].title and url, tabs[].title), show the mask,
 * never the value, as the tool results do.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { loginCookie, openSocket, startConsoleStdio } from "./_console.ts";
import { textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";
const PAGE = `<!doctype html><title>Login</title>
<form id=f action=/login method=post><label>Key <input id=k name=k></label><button id=go>Send</button></form>
<script>k.addEventListener("input", () => {
  f.action = "/login?k=" + k.value; document.title = k.value; history.replaceState(null, "", "/?t=" + k.value);
});</script>`;

Deno.test("secrets: masked in the confirm question and the console's state", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-question-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${origin}=${SECRET}\n`, { mode: 0o600 });
  const asked: string[] = [];
  let answer: (() => void) | undefined;
  const c = await startConsoleStdio({
    workspace: ws,
    args: ["0"],
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,secrets",
      BROWX_SECRETS: secrets,
      BROWX_CONFIRM_REQUIRED: "submit",
    },
    // The person reads until the console showed the question; then says no.
    elicit: async (req) => {
      asked.push(JSON.stringify(req));
      await new Promise<void>((r) => answer = r);
      return { action: "accept", content: { approve: false } };
    },
  });
  const sock = await openSocket(c.base, { cookie: await loginCookie(c.url), origin: c.base });
  try {
    await c.mcp.ok("navigate", { url: origin + "/", snapshot: "none" });
    await c.mcp.ok("fill", { selector: "#k", value: "{{secret:PW}}" });
    const click = c.mcp.call("click", { selector: "#go", submits: true });
    click.catch(() => {}); // awaited below; a failed wait before must not leave it unhandled
    type State = {
      approvals?: Array<{ summary: string }>;
      sessions?: Array<{ sessions: Array<{ title: string; tabs: Array<{ title: string }> }> }>;
    };
    const stateOf = (m: Record<string, unknown>) => m.state as State | undefined;
    // A state with the pending approval and the page's new title (the console asks for titles).
    const shown = await sock.next((m) => {
      const s = stateOf(m);
      const session = s?.sessions?.[0]?.sessions[0];
      return m.type === "state" && !!s?.approvals?.length &&
        session?.title === "[secret:PW]" && session.tabs[0]?.title === "[secret:PW]";
    }, { timeoutMs: 20_000 });
    assertIncludes(stateOf(shown)!.approvals![0]!.summary, "/login?k=[secret:PW]");
    await eventually(() => asked.length === 1, 10_000, "the elicitation");
    answer?.();
    const r = await click;
    assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
    // The question as the client got it: the action named, the value masked.
    assertIncludes(asked[0]!, "/login?k=[secret:PW]");
    assertNotIncludes(asked[0]!, SECRET);
    // No message the console ever received holds the value.
    assertNotIncludes(JSON.stringify(sock.messages), SECRET);
    assertNotIncludes(textOf(r), SECRET);
  } finally {
    sock.close();
    await c.close();
    await server.shutdown();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
