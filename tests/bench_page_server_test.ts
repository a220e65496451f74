/**
 * The bench's page server and generated pages: routes on both origins, generated pages with
 * their probes, static files under a root (and nothing outside it).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { join } from "./_paths.ts";
import { startPageServer } from "../bench/page_server.ts";
import {
  framesPage,
  GENERATED_PAGES,
  manyElementsPage,
  shadowPage,
  smallPage,
} from "../bench/stress_pages.ts";

async function get(url: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

Deno.test("bench page server: generated pages on both origins, static files", async () => {
  const docs = await Deno.makeTempDir({ prefix: "bench-page-server-" });
  await Deno.mkdir(join(docs, "assets"));
  await Deno.writeTextFile(join(docs, "fs.html"), "<title>fs</title><p>File system</p>");
  await Deno.writeTextFile(join(docs, "assets", "style.css"), "p{color:red}");
  const s = startPageServer({ nodeDocsDir: docs, todomvcDir: docs });
  try {
    assertTrue(/^http:\/\/127\.0\.0\.1:\d+$/.test(s.origin), s.origin);
    assertTrue(/^http:\/\/localhost:\d+$/.test(s.crossOrigin), s.crossOrigin);
    for (const name of GENERATED_PAGES) {
      const r = await get(s.url(`/gen/${name}.html`));
      assertEquals(r.status, 200, name);
      assertEquals(r.type, "text/html; charset=utf-8");
      assertIncludes(r.body, "<!doctype html>");
    }
    // The cross-origin server has the same routes.
    const cross = await get(
      `${s.crossOrigin.replace("localhost", "127.0.0.1")}/gen/frame.html?i=3`,
    );
    assertIncludes(cross.body, "Frame 3 link");
    // The frames page points half its frames at the other site.
    const frames = await get(s.url("/gen/frames.html"));
    assertEquals((frames.body.match(new RegExp(`src="${s.crossOrigin}/`, "g")) ?? []).length, 10);
    assertEquals((frames.body.match(new RegExp(`src="${s.origin}/`, "g")) ?? []).length, 10);
    assertEquals(s.generated(s.url("/gen/frames.html"))?.interactive.length, 40);
    assertEquals(s.generated("http://example.com/gen/small.html"), undefined);

    const fs = await get(s.url("/node/fs.html"));
    assertEquals([fs.status, fs.type], [200, "text/html; charset=utf-8"]);
    assertEquals((await get(s.url("/node/assets/style.css"))).type, "text/css; charset=utf-8");
    assertEquals((await get(s.url("/todomvc/fs.html"))).status, 200);
    assertEquals((await get(s.url("/node/missing.html"))).status, 404);
    assertEquals((await get(s.url("/gen/nope.html"))).status, 404);
    assertEquals((await get(s.url("/elsewhere"))).status, 404);
    assertTrue(s.requestCount >= 12);
  } finally {
    await s.close();
    await Deno.remove(docs, { recursive: true });
  }
});

Deno.test("bench stress pages: counts and probes", () => {
  const many = manyElementsPage();
  assertEquals(many.interactive.length, 5000);
  const tags = (many.html.match(/<a href|<button|<input/g) ?? []).length;
  assertEquals(tags, 5000);
  assertIncludes(many.html, many.tail);
  assertEquals(new Set(many.interactive).size, 5000);

  const shadow = shadowPage(3, 2);
  assertEquals(shadow.interactive, [
    "Shadow link 0",
    "Shadow button 0",
    "Shadow link 1",
    "Shadow button 1",
    "Shadow link 2",
    "Shadow button 2",
  ]);
  assertIncludes(shadow.html, 'attachShadow({ mode: "open" })');
  assertIncludes(shadow.html, JSON.stringify(shadow.tail));

  const frames = framesPage("http://a.test", "http://b.test", 4);
  assertEquals(frames.interactive.length, 8);
  assertIncludes(frames.html, 'src="http://b.test/gen/frame.html?i=1"');

  const small = smallPage();
  assertIncludes(small.html, 'id="new-todo"');
  assertIncludes(small.html, small.tail);
  for (const name of small.interactive.slice(0, -1)) assertIncludes(small.html, `>${name}<`);
});
