/**
 * What an ActionResult says is true, and values stay out of it (the red team's findings,
 * session 7):
 * - every URL it reports follows one rule (`reportedUrl`, browser/network_writes.ts): a write's
 *   URL (any method but GET/HEAD/OPTIONS/TRACE, in any case) by its keys only, a bare query and
 *   matrix parameters included, and so is `navigation.to`/`from` of a document a form's POST
 *   fetched;
 * - an empty `text=` selector is refused (it would match every element);
 * - a write with no answer yet is `pending`, not a failure, and a warning says not to resend;
 * - an element probe the call's time cut short says nothing of the element (not "detached").
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

Deno.test("ActionResult: no write's values, empty text= refused, pending writes, unknown probes", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await t.step("writes: keys only in mutations, requests and navigation", async () => {
      const seen: Record<string, string> = {};
      for (const w of ["w1", "w2", "w3", "w4", "w6", "w8", "w5"]) {
        await mcp.ok("navigate", { url: fx.url("writes.html"), snapshot: "none" });
        const r = await mcp.call("click", { selector: `#${w}`, snapshot: "none", submits: true });
        const all = JSON.stringify(r.structuredContent) + textOf(r);
        assertEquals(all.match(/SECRET\d+/g), null, `${w} leaks: ${all.slice(0, 600)}`);
        const res = r.structuredContent as {
          network: { mutations: Array<{ method: string; urlPattern: string }> };
          navigation: { to: string };
        };
        const m = res.network.mutations;
        assertEquals(m.length, 1, `${w}: ${JSON.stringify(res.network)}`);
        seen[w] = `${m[0]!.method} ${m[0]!.urlPattern.replace(fx.origin, "")}`;
        if (w === "w5") {
          // Where the form landed: its path and keys, not the value.
          assertEquals(res.navigation.to, fx.url("api/echo?sid"));
        }
      }
      assertEquals(seen, {
        w1: "POST /api/echo?token&user",
        w2: "POST /api/echo?token",
        w3: "PUT /api/echo;jsessionid",
        w4: "DELETE /api/echo",
        // Chromium sends a PATCH as the page spelled it: still a write.
        w6: "pAtCh /api/echo?k",
        // A bare query is all value.
        w8: "POST /api/echo?…",
        w5: "POST /api/echo?sid",
      });
      // The next action starts on the form's result: `from` by its keys too.
      const next = await act(mcp, "navigate", { url: fx.url("basic.html"), snapshot: "none" });
      assertEquals(next.navigation.from, fx.url("api/echo?sid"));
      // A page fetched by GET keeps its query (where the agent went).
      const get = await act(mcp, "navigate", {
        url: fx.url("basic.html?q=shoes"),
        snapshot: "none",
      });
      assertEquals(get.navigation.to, fx.url("basic.html?q=shoes"));
    });

    await t.step("an empty text= selector is refused, saying what to pass", async () => {
      await mcp.ok("navigate", { url: fx.url("writes.html"), snapshot: "none" });
      const before = fx.requests.length;
      for (const selector of ["text=", "text=   ", 'text=""', 'text=" "']) {
        for (
          const [tool, args] of [
            ["click", { selector, snapshot: "none" }],
            ["fill", { selector, value: "x", snapshot: "none" }],
            ["wait_for", { selector, timeoutMs: 1000 }],
          ] as const
        ) {
          const r = await mcp.call(tool, args);
          assertEquals(r.isError, true, `${tool} ${selector}: ${textOf(r).slice(0, 300)}`);
          const e = errorOf(r);
          assertEquals(e.code, "invalid-argument");
          assertIncludes(e.message, 'text="Save"');
        }
      }
      const spaces = errorOf(await mcp.call("wait_for", { text: "   ", timeoutMs: 1000 }));
      assertEquals(spaces.code, "invalid-argument");
      // Nothing was clicked: no button sent anything.
      assertEquals(fx.requests.slice(before).map((q) => q.path), []);
    });

    await t.step(
      "a GET form's password stays out of the refusal and of where it landed",
      async () => {
        await mcp.ok("navigate", { url: fx.url("get-form.html"), snapshot: "none" });
        const refused = await mcp.call("click", { selector: "text=Sign in", snapshot: "none" });
        assertEquals(errorOf(refused).code, "blocked-by-policy");
        const said = JSON.stringify(refused.structuredContent) + textOf(refused);
        assertEquals(said.includes("hunter2"), false, said.slice(0, 600));
        assertIncludes(said, "submits: true");
        const sent = await mcp.call("click", {
          selector: "text=Sign in",
          snapshot: "none",
          submits: true,
        });
        const all = JSON.stringify(sent.structuredContent) + textOf(sent);
        assertEquals(all.includes("hunter2"), false, all.slice(0, 600));
        // Where it landed: the other fields' values stay (they say where the agent is).
        assertEquals(
          (sent.structuredContent as { navigation: { to: string } }).navigation.to,
          fx.url("basic.html?email=a%40b.c&pw=…"),
        );
      },
    );

    await t.step(
      "a write with no answer yet is pending, and the result says not to resend",
      async () => {
        await mcp.ok("navigate", { url: fx.url("writes.html"), snapshot: "none" });
        const r = await act(mcp, "click", { selector: "#w9", snapshot: "none", timeoutMs: 4000 });
        assertEquals(r.network.mutations.length, 1, JSON.stringify(r.network));
        const m = r.network.mutations[0]!;
        assertEquals([m.method, m.urlPattern, m.pending, m.ok, m.status], [
          "POST",
          fx.url("slow?ms&sid"),
          true,
          false,
          undefined,
        ]);
        assertTrue(
          r.warnings.some((w) => w.includes("no answer yet") && w.includes("do not send it again")),
          JSON.stringify(r.warnings),
        );
        // An answered write is not pending.
        await mcp.ok("navigate", { url: fx.url("writes.html"), snapshot: "none" });
        const done = await act(mcp, "click", { selector: "#w1", snapshot: "none" });
        assertEquals(done.network.mutations[0]!.pending, undefined);
        assertEquals(done.network.mutations[0]!.ok, true);
      },
    );

    await t.step(
      "an element probe cut short by the call's time does not say detached",
      async () => {
        await mcp.ok("navigate", { url: fx.url("busy-after.html"), snapshot: "none" });
        const r = await act(mcp, "click", { selector: "#save", snapshot: "none", timeoutMs: 1000 });
        assertTrue(
          r.warnings.some((w) => w.includes("the element probe")),
          `the probe was cut short: ${JSON.stringify(r.warnings)}`,
        );
        assertEquals(r.element?.stillAttached, undefined, JSON.stringify(r.element));
        // The button is still there once the page is free again.
        const still = await mcp.ok("eval_js", {
          expression: "document.querySelector('#save')?.isConnected",
          timeoutMs: 10000,
        });
        assertEquals(still.value, true);
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("ActionResult: a write the server answered is ok, even when its body was cut off", async () => {
  // Red team: a popup POSTs, then closes itself while the answer's body still streams in:
  // Chromium reports the request failed ("canceled") after its 200; the result said ok: false.
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
    if (path === "/w") {
      got.push(req.method);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode("{"));
          // The rest never comes before the popup closes.
          timer = setTimeout(() => c.close(), 5000);
        },
        cancel() {
          clearTimeout(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    }
    if (path === "/pop") {
      return html(`<title>pop</title><script>
        fetch("/w", { method: "POST", body: "x" }).then(() => setTimeout(() => close(), 50));
      </script>`);
    }
    return html(`<title>opener</title><button id=go onclick="window.open('/pop')">Go</button>`);
  });
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });
    const r = await act(mcp, "click", { selector: "#go", snapshot: "none" });
    const m = r.network.mutations as Array<{ method: string; ok: boolean; status?: number }>;
    assertEquals(got, ["POST"]);
    assertEquals(m.map((x) => [x.method, x.status, x.ok]), [["POST", 200, true]]);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
