/**
 * One text model: `wait_for({ text })`, `state: "hidden"` and `text=`
 * selectors see the text a snapshot shows, sections `content-visibility: auto`
 * skips off screen included (innerText leaves them out), and still miss what
 * is really hidden; a `text=` selector matching several elements acts on the
 * actionable one and says which and why. Over MCP stdio against real Chromium.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";
import { join } from "node:path";

Deno.test("text model: skipped sections are text, hidden text is not, text= prefers controls", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const status = async () =>
    (await mcp.ok("eval_js", { expression: `document.getElementById("status").textContent` }))
      .value;
  try {
    await t.step("content-visibility: auto sections off screen are page text", async () => {
      await mcp.ok("navigate", { url: fx.url("content-visibility.html"), snapshot: "none" });
      // The fixture reproduces the fault: Chromium's innerText leaves the deep section out.
      const inner = await mcp.ok("eval_js", {
        expression: `document.body.innerText.includes("Deep marker paragraph kappa")`,
      });
      assertEquals(inner.value, false, "innerText misses the skipped section");
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, "Deep marker paragraph kappa", "the snapshot shows it");

      const found = await mcp.ok("wait_for", { text: "deep MARKER paragraph", timeoutMs: 3000 });
      assertEquals(found.ok, true, JSON.stringify(found));
      const gone = await mcp.ok("wait_for", {
        text: "Deep marker paragraph kappa",
        state: "hidden",
        timeoutMs: 500,
      });
      assertEquals(gone.ok, false, "present text is not reported gone");
      assertEquals(gone.status, "timeout");
      const selector = await mcp.ok("wait_for", { selector: "text=Deep marker", timeoutMs: 3000 });
      assertEquals(selector.ok, true, JSON.stringify(selector));
    });

    await t.step(
      "really hidden text stays out: display none, visibility hidden, aria-hidden",
      async () => {
        for (
          const hidden of [
            "Removed paragraph nu",
            "Invisible paragraph xi",
            "Decorative paragraph omicron",
            "Deep removed lambda",
          ]
        ) {
          const w = await mcp.ok("wait_for", { text: hidden, timeoutMs: 300 });
          assertEquals(w.ok, false, `${hidden} is not page text`);
          const h = await mcp.ok("wait_for", { text: hidden, state: "hidden", timeoutMs: 3000 });
          assertEquals(h.ok, true, `${hidden} counts as hidden`);
          const s = await mcp.ok("wait_for", { selector: `text=${hidden}`, timeoutMs: 300 });
          assertEquals(s.ok, false, `text=${hidden} matches nothing`);
        }
        const excerpt = await mcp.ok("wait_for", { text: "not on this page", timeoutMs: 300 });
        assertIncludes(String(excerpt.lastSeen), "Long manual idle Chapter 1");
      },
    );

    await t.step(
      "text= finds and clicks a button inside an off-screen skipped section",
      async () => {
        const r = await act(mcp, "click", { selector: "text=Deep action", snapshot: "none" });
        assertEquals(r.ok, true);
        assertEquals(await status(), "deep clicked");
        assertEquals(r.warnings ?? [], [], "one match, no note");
      },
    );

    await t.step(
      "text=Search clicks the button, not the heading or the label before it, and says why",
      async () => {
        await mcp.ok("navigate", { url: fx.url("text-choice.html"), snapshot: "none" });
        const r = await act(mcp, "click", { selector: "text=Search", snapshot: "none" });
        assertEquals(await status(), "button clicked");
        const note = (r.warnings ?? []).join("\n");
        // The label "Search books" is actionable too (it focuses its field): the button is
        // named exactly what was asked for.
        assertIncludes(
          note,
          'text=Search matched 3: chose button "Search" over heading "Search docs", label "Search books"',
        );
        assertIncludes(note, "reading exactly that");
        assertTrue(!note.includes("acted on the first"), note);
      },
    );

    await t.step(
      "planted matches (invisible, labelled, disguised) never take the click",
      async () => {
        await mcp.ok("navigate", { url: fx.url("text-spoof.html"), snapshot: "none" });
        const r = await act(mcp, "click", { selector: "text=Search", snapshot: "none" });
        assertEquals(await status(), "real");
        assertIncludes((r.warnings ?? []).join("\n"), 'chose button "Search products"');
        await mcp.ok("navigate", { url: fx.url("text-choice.html"), snapshot: "none" });
      },
    );

    await t.step("several plain-text matches: the first, and the note says so", async () => {
      const r = await act(mcp, "click", { selector: "text=Go", snapshot: "none" });
      const note = (r.warnings ?? []).join("\n");
      assertIncludes(note, 'text=Go matched 2: chose paragraph "Go anywhere"');
      assertIncludes(note, "none is actionable");
      assertIncludes(note, 'paragraph "Go somewhere"');
    });

    await t.step("matches alike are refused, listed by their rows with refs", async () => {
      const rows = ["Milk", "Bread", "Eggs"].map((item) =>
        `<li>${item} <button onclick="document.getElementById('status').textContent = '${item}'">Add to cart</button></li>`
      ).join("");
      await mcp.ok("navigate", {
        url: "data:text/html," + encodeURIComponent(`<p id=status>none</p><ul>${rows}</ul>`),
        snapshot: "none",
      });
      // Three buttons alike name none of them (new user s15 #4: the first was deleted).
      const r = await mcp.call("click", { selector: "text=Add to cart", snapshot: "none" });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertEquals(await status(), "none");
      assertIncludes(textOf(r), '3 elements alike (each a button "Add to cart")');
      const bread = /(e\d+) in list item "Bread"/.exec(textOf(r))?.[1];
      assertTrue(bread !== undefined, textOf(r));
      // The ref it lists acts at once, no snapshot first.
      await act(mcp, "click", { ref: bread, snapshot: "none" });
      assertEquals(await status(), "Bread");
      // A CSS selector matching them alike: the same.
      const css = await mcp.call("click", { selector: "li button", snapshot: "none" });
      assertEquals(errorOf(css).code, "invalid-argument", textOf(css));
      assertIncludes(textOf(css), `${bread} in list item "Bread"`);
      assertEquals(await status(), "Bread");
      await mcp.ok("navigate", { url: fx.url("text-choice.html"), snapshot: "none" });
    });

    await t.step("a CSS selector keeps its warning shape", async () => {
      const r = await act(mcp, "click", { selector: "p", snapshot: "none" });
      assertIncludes((r.warnings ?? []).join("\n"), "elements; acted on the first");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("text model under masking: a match showing a secret is dropped, the note masks names", async () => {
  const KEY = "Zq7-hunter-Wv3x";
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-textmodel-ws-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `KEY=${KEY}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
      BROWX_SECRETS: secrets,
    },
  });
  try {
    await mcp.ok("navigate", {
      url: `${fx.url("text-choice-secret.html")}#${
        encodeURIComponent([...KEY].reverse().join(""))
      }`,
      snapshot: "none",
    });
    // Matches: the heading, the paragraph showing the value (dropped), the button (its name
    // holds the value).
    const r = await act(mcp, "click", { selector: "text=Copy", snapshot: "none" });
    const status = await mcp.ok("eval_js", {
      expression: `document.getElementById("status").textContent`,
    });
    assertEquals(status.value, "copied");
    const note = (r.warnings ?? []).join("\n");
    assertIncludes(note, "text=Copy matched 2: chose button");
    // The name is cut at 40 characters, inside the value: the cut moves before it.
    assertIncludes(note, 'chose button "Copy the value for the account …"');
    assertIncludes(note, 'over heading "Copy token"');
    assertTrue(!JSON.stringify(r).includes("Zq7"), note);
    const seen = await mcp.ok("wait_for", { text: "not on this page", timeoutMs: 300 });
    assertIncludes(String(seen.lastSeen), "Token [secret:KEY] Copy");
    // A part of the value does not match the masked text (the whole value in clear would be
    // refused as guessing: mcp/secret_guess.ts).
    assertEquals((await mcp.ok("wait_for", { text: KEY.slice(0, 9), timeoutMs: 300 })).ok, false);
  } finally {
    await mcp.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true });
  }
});
