/**
 * Pick mode (issue 15, seed 003), over the console hub and MCP: a hover hint names the element
 * under the point (tag, id, classes, bounds); a pick hands the agent a `pN` ref — the client
 * is told, `picked()` lists it, `click({ ref: "pN" })` acts on it, into a cross-origin iframe
 * too — and a removed element's `pN` fails `ref-gone` like an `eN`.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { hostCases, type InProcess } from "./_control_server.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { eventually, refOf } from "./_util.ts";

type R = Record<string, unknown>;
const ENV = { BROWX_TOOLSETS: "core,sessions,human" };
// One Chromium for every case; each case starts its own server on it.
const cases = hostCases("pick, one browser");
const KEY = { client: "t", session: "default" };
const codeOf = (r: ToolResult) => ((r.structuredContent as R)?.error as R | undefined)?.code;

/** The border box of `selector` in the top page, CSS px; `frameId`: in that frame. */
async function boxOf(p: InProcess, selector: string, frameId?: string) {
  return await p.session().activePage!.evaluate(
    `(() => { const r = document.querySelector(${
      JSON.stringify(selector)
    }).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`,
    frameId ? { frameId } : {},
  ) as { x: number; y: number; width: number; height: number };
}

const center = (b: { x: number; y: number; width: number; height: number }) => ({
  x: b.x + b.width / 2,
  y: b.y + b.height / 2,
});

cases.test("pick: a hover hint, a pN the agent clicks, the client told, picked() lists it", async () => {
  const fx = await startFixtureServer();
  const p = await cases.start({ env: ENV });
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    // The element's box, as the agent's snapshot element would give it.
    const tree = String((await p.ok("snapshot")).tree);
    assertTrue(refOf(tree, "Add one").startsWith("e"));
    // Scrolled: points and boxes are the viewport's, the page's scroll is not the viewer's care.
    await p.session().activePage!.evaluate("window.scrollTo(0, 30)");
    const add = await boxOf(p, "#add");

    const hint = await p.send({ type: "pick-hover", session: KEY, ...center(add) }) as R;
    assertEquals([hint.type, hint.hit, hint.tag, hint.id], ["pick-hint", true, "button", "add"]);
    assertEquals(hint.classes, ["primary", "big"]);
    const b = hint.bounds as typeof add;
    assertTrue(
      Math.abs(b.x - add.x) < 1 && Math.abs(b.y - add.y) < 1 && Math.abs(b.width - add.width) < 1,
      `${JSON.stringify(b)} vs ${JSON.stringify(add)}`,
    );

    const picked = await p.send({ type: "pick", session: KEY, ...center(add) }) as R;
    const pick = picked.pick as R;
    assertEquals([picked.type, pick.ref, pick.role, pick.name], [
      "picked",
      "p1",
      "button",
      "Add one",
    ]);
    assertEquals(pick.selectorHint, "#add");
    await eventually(() => p.notices.some((n) => JSON.stringify(n.data).includes("picked p1")));
    assertEquals(((p.hub.state().control as R).sessions as R[])[0]!.picks, [pick]);

    // The session's next result says it was picked (once); picked() lists it.
    const listed = await p.ok("picked");
    assertEquals(listed.picks, [pick]);
    assertEquals((listed.sinceLastCall as R | undefined)?.picked, ["p1"]);
    // The agent clicks it by its p ref.
    const clicked = await p.ok("click", { ref: "p1" });
    assertEquals((clicked.sinceLastCall as R | undefined)?.picked, undefined);
    assertIncludes(String((await p.ok("snapshot")).tree), "Count: 1");
    assertEquals((await p.ok("picked", { clear: true })).picks, [pick]);
    assertEquals((await p.ok("picked")).picks, []);

    // A removed element's pN is gone, loudly.
    const doomed = await p.send({
      type: "pick",
      session: KEY,
      ...center(await boxOf(p, "#doomed")),
    }) as R;
    assertEquals((doomed.pick as R).ref, "p2");
    await p.ok("click", { selector: "#remove" });
    const gone = await p.call("click", { ref: "p2" });
    assertEquals(codeOf(gone), "ref-gone", textOf(gone));
    assertIncludes(textOf(gone), "removed");
    // pN works beside eN: fill by a picked field.
    const field = await p.send({
      type: "pick",
      session: KEY,
      ...center(await boxOf(p, "#field")),
    }) as R;
    assertEquals([(field.pick as R).ref, (field.pick as R).role], ["p3", "textbox"]);
    await p.ok("fill", { ref: "p3", value: "picked" });
    assertIncludes(String((await p.ok("snapshot")).tree), 'textbox "Field"');
    assertEquals(
      await p.session().activePage!.evaluate("document.getElementById('field').value"),
      "picked",
    );
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("pick: an element in a cross-origin iframe becomes a pN the agent clicks", async () => {
  const fx = await startFixtureServer();
  const p = await cases.start({ env: ENV });
  try {
    const url = fx.url(`iframes.html?cross=${encodeURIComponent(fx.crossUrl("frame-child.html"))}`);
    await p.ok("navigate", { url, snapshot: "none" });
    await p.ok("wait_for", { text: "Inner button" });
    const page = p.session().activePage!;
    const child = await eventually(() =>
      page.frames().find((f) => f.url.startsWith(fx.crossOrigin))
    );
    const frame = await boxOf(p, "#cross");
    const inner = await boxOf(p, "#inner-button", child.frameId);
    // The iframe's 2 px border sits before its content.
    const at = center({ ...inner, x: frame.x + 2 + inner.x, y: frame.y + 2 + inner.y });
    const hint = await p.send({ type: "pick-hover", session: KEY, ...at }) as R;
    assertEquals([hint.tag, hint.id], ["button", "inner-button"]);
    const hb = hint.bounds as typeof inner;
    assertTrue(Math.abs(hb.x - (frame.x + 2 + inner.x)) < 1, JSON.stringify(hb));
    assertTrue(Math.abs(hb.y - (frame.y + 2 + inner.y)) < 1, JSON.stringify(hb));
    // The same-origin frame's button: hit in the tab's own process, its box in the viewport.
    const same = await boxOf(p, "#same");
    const sameChild = page.frames().find((f) =>
      f.url.startsWith(fx.origin) && f !== page.frame(page.mainFrameId)
    )!;
    const sameInner = await boxOf(p, "#inner-button", sameChild.frameId);
    const sameHint = await p.send({
      type: "pick-hover",
      session: KEY,
      ...center({ ...sameInner, x: same.x + 2 + sameInner.x, y: same.y + 2 + sameInner.y }),
    }) as R;
    assertEquals([sameHint.tag, (sameHint.bounds as typeof inner).y], [
      "button",
      same.y + 2 + sameInner.y,
    ]);
    const picked = await p.send({ type: "pick", session: KEY, ...at }) as R;
    const pick = picked.pick as R;
    assertEquals([pick.role, pick.name], ["button", "Inner button"]);
    // Its hint matches an element of the same-origin frame first: not verified, not given.
    assertEquals(pick.selectorHint, undefined);
    await p.ok("click", { ref: pick.ref });
    const tree = String((await p.ok("snapshot")).tree);
    assertTrue(/localhost[\s\S]*Inner clicked/.test(tree.split("## Cross origin")[1]!), tree);
  } finally {
    await p.close();
    await fx.close();
  }
});

cases.test("pick: bad input answers an error reply", async () => {
  const fx = await startFixtureServer();
  const p = await cases.start({ env: ENV });
  try {
    await p.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    const errorOf = async (m: R) => {
      const r = await p.send(m as never) as R;
      assertEquals(r.type, "error", JSON.stringify(r));
      return String(r.error);
    };
    for (const [x, y] of [["a", 1], [1, null], [-5, 1], [1, Infinity]]) {
      assertIncludes(await errorOf({ type: "pick", session: KEY, x, y }), "Invalid point");
      assertIncludes(await errorOf({ type: "pick-hover", session: KEY, x, y }), "Invalid point");
    }
    assertIncludes(
      await errorOf({ type: "pick", session: { client: "t", session: "nope" }, x: 1, y: 1 }),
      'unknown session "nope"',
    );
    assertIncludes(
      await errorOf({ type: "pick", session: { client: "zz", session: "default" }, x: 1, y: 1 }),
      "unknown session",
    );
    assertIncludes(await errorOf({ type: "pick", x: 1, y: 1 }), '"session"');
    // Far outside the page: nothing there.
    const miss = await p.send({ type: "pick-hover", session: KEY, x: 50_000, y: 50_000 }) as R;
    assertEquals(miss.hit, false);
    assertIncludes(
      await errorOf({ type: "pick", session: KEY, x: 50_000, y: 50_000 }),
      "No element at",
    );
    // A session whose tabs are all closed: no page to pick in.
    await p.ok("open_session", { session: "empty" });
    const empty = p.session("empty");
    for (const tab of [...empty.tabs]) await tab.send("Page.close").catch(() => {});
    await eventually(() => !empty.activePage || empty.activePage.isClosed);
    assertIncludes(
      await errorOf({ type: "pick", session: { client: "t", session: "empty" }, x: 1, y: 1 }),
      "no open tab",
    );
    assertEquals((await p.ok("picked")).picks, []);
  } finally {
    await p.close();
    await fx.close();
  }
});
