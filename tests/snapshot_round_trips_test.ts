/**
 * What a `snapshot` of a page read before costs the page: one call into its renderer (the
 * walk brings the title along; beside it only the busy watch's trivial liveness probe), and the title it shows is the document's at the read, a
 * title set by the page's script included.
 */
import { assertEquals } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";

const PAGE = `<!doctype html><html lang="en"><head><title>First title</title></head><body>
<h1>Round trips</h1><button onclick="document.title = 'Second title'">Rename</button>
</body></html>`;

Deno.test("snapshot: a re-read is one page call, and shows the page's current title", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const mcp = await startInProcess({});
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    let r = await mcp.call("navigate", { url, snapshot: "none" });
    assertEquals(r.isError, undefined);
    r = await mcp.call("snapshot");
    assertEquals(r.structuredContent?.title, "First title");

    // Every command the tab's session sends from now on.
    const page = await (await mcp.sessions.get()).page();
    const sent: string[] = [];
    const session = page.session as unknown as { send: (...a: unknown[]) => Promise<unknown> };
    const send = session.send.bind(session);
    session.send = (...a: unknown[]) => {
      // The busy watch's liveness probe (`busyPageWatch`: "0", sent beside the read, never
      // waited for in sequence) is not a read of the page.
      const probe = a[0] === "Runtime.evaluate" &&
        (a[1] as { expression?: string } | undefined)?.expression === "0";
      if (!probe) sent.push(String(a[0]));
      return send(...a);
    };
    r = await mcp.call("snapshot");
    assertEquals(r.structuredContent?.title, "First title");
    assertEquals(sent, ["Runtime.evaluate"], "a re-read is one page call");

    const tree = String(r.structuredContent?.tree);
    const ref = /button "Rename" \[ref=(\w+)\]/.exec(tree)?.[1];
    r = await mcp.call("click", { ref, snapshot: "none" });
    assertEquals(r.isError, undefined);
    sent.length = 0;
    r = await mcp.call("snapshot");
    assertEquals(r.structuredContent?.title, "Second title");
    assertEquals(sent, ["Runtime.evaluate"]);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});

Deno.test("snapshot: a session opened on a URL has the library before it answers; its first read is one page call", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const mcp = await startInProcess({});
  try {
    // Every command on the browser connection, and when each was answered.
    const first = await (await mcp.sessions.get()).page();
    const connection = first.session.connection as unknown as {
      rawSend: (method: string, params: unknown, ...rest: unknown[]) => Promise<unknown>;
    };
    const rawSend = connection.rawSend.bind(connection);
    const answered: Array<{ method: string; library: boolean; sessionId: unknown }> = [];
    const sent: Array<{ method: string; sessionId: unknown }> = [];
    connection.rawSend = (method, params, ...rest) => {
      // Not the busy watch's liveness probe ("0", beside the read, never waited for).
      const probe = method === "Runtime.evaluate" &&
        (params as { expression?: string } | undefined)?.expression === "0";
      if (!probe) sent.push({ method, sessionId: rest[0] });
      const library = JSON.stringify(params ?? {}).includes("globalThis.__browxai ||");
      return rawSend(method, params, ...rest).finally(() =>
        answered.push({ method, library, sessionId: rest[0] })
      );
    };
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const r = await mcp.call("open_session", { session: "second", url });
    assertEquals(r.isError, undefined);
    const page = await (await mcp.sessions.get("second")).page();
    assertEquals(
      answered.some((a) => a.library && a.sessionId === page.session.id),
      true,
      "the install was answered before open_session answered",
    );
    sent.length = 0;
    const s = await mcp.call("snapshot", { session: "second" });
    assertEquals(s.structuredContent?.title, "First title");
    assertEquals(
      sent.filter((c) => c.sessionId === page.session.id).map((c) => c.method),
      ["Runtime.evaluate"],
      "the first read is one page call",
    );
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
