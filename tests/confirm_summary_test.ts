/**
 * The questions a person is asked say the truth: a login form with no action, sent by the
 * page's script with fetch, is not said to go (only) to the page's own URL by GET; an HTTP
 * client's download is said to land in its own area (`.clients/<ns>/downloads/<session>/`),
 * not the stdio server's `.downloads/`.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startHttp, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";

const LOGIN = `<!doctype html><title>Sign in</title><main><h1>Sign in</h1>
<form id=f><label>Email <input name=email></label><button>Sign in</button></form>
<form id=g action="/search" method=get><input name=q aria-label=Query></form>
<p id=status></p></main><script>
f.addEventListener("submit", async (e) => {
  e.preventDefault();
  await fetch("/api/login", { method: "POST", body: JSON.stringify({ email: f.email.value }) });
  status.textContent = "Signed in";
});
</script>`;

Deno.test("confirm questions: where a form goes, where a download lands", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(LOGIN, { headers: { "content-type": "text/html" } }),
  );
  const http = await startHttp({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action",
      BROWX_CONFIRM_REQUIRED: "submit,file_download",
    },
  });
  const asked: string[] = [];
  const mcp = await http.connect(undefined, (req) => {
    asked.push(String(req.message));
    return { action: "accept", content: { approve: false } };
  });
  const page = `http://127.0.0.1:${server.addr.port}/login`;
  try {
    await mcp.ok("navigate", { url: page, snapshot: "none" });

    await t.step("a form with no action is not said to go to the page by GET", async () => {
      const r = await mcp.call("click", { selector: "#f button", submits: true });
      assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
      const q = asked.at(-1) ?? "";
      assertIncludes(q, `GET ${page} by the browser, unless a page script sends it`);
      assertIncludes(q, "fetch");
      // A form with its own action is named plainly.
      assertIncludes(q, `GET http://127.0.0.1:${server.addr.port}/search`);
      assertTrue(!q.includes("/search by the browser"), q);
    });

    await t.step("an HTTP client's download: its own area is named", async () => {
      const r = await mcp.call("click", { selector: "#f button", download: true });
      assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
      const q = asked.find((m) => m.includes("downloaded file")) ?? "";
      assertTrue(/\.clients\/[^/]+\/downloads\/default\//.test(q), q);
      assertTrue(!q.includes(" .downloads/"), q);
    });

    await t.step("bad input: download must be a boolean", async () => {
      const r = await mcp.call("click", { selector: "#f button", download: "yes" });
      assertEquals(r.isError, true, textOf(r));
    });
  } finally {
    await mcp.close();
    await http.close();
    await server.shutdown();
  }
});
