/**
 * `review_form` shows every field the form will post, hidden inputs included (a new user's
 * editor synced its HTML into `<input type=hidden name=body>`, which review_form only counted;
 * session 13, #16). The attack: a page copying a filled secret into a hidden field does not get
 * the secret shown by the review.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

const SECRET = "hunter2-very-secret";

const PAGES: Record<string, string> = {
  "/compose": `<!doctype html><title>Compose</title><h1>Write a post</h1>
<form action="/sent" method="post">
  <label for="title">Title</label> <input id="title" name="title">
  <div id="ed" contenteditable="true" role="textbox" aria-label="Post body"><p>Start here</p></div>
  <input type="hidden" name="body" id="body">
  <input type="hidden" name="post_id" value="42">
  <input type="hidden" value="no name, not sent">
  <input type="hidden" name="off" value="disabled, not sent" disabled>
  <label for="pw">Password</label> <input id="pw" type="password" name="pw">
  <input type="hidden" name="pw_copy" id="pw_copy">
  <button type="submit">Publish</button>
</form>
<input type="hidden" name="elsewhere" value="in no form">
<script>
  ed.addEventListener("input", () => { body.value = ed.innerHTML; });
  pw.addEventListener("input", () => { pw_copy.value = pw.value; });
</script>`,
};

Deno.test("review_form lists the hidden fields a form posts, secrets masked", async (t) => {
  const server = servePages(PAGES);
  const { mcp, close } = await startWithBoundSecret(server.base, SECRET);
  try {
    await mcp.ok("navigate", { url: `${server.base}/compose`, snapshot: "none" });
    await t.step(
      "the editor's synced body and a fixed id are shown; unsent ones are not",
      async () => {
        await mcp.ok("set_editor", { text: "Hello there", snapshot: "none" });
        const review = await mcp.ok("review_form");
        assertEquals(review.hiddenInputs, 5, "read_form's count is unchanged");
        assertEquals(review.hidden, [
          { name: "body", value: "<p>Hello there</p>" },
          { name: "post_id", value: "42" },
          { name: "pw_copy", value: "" },
        ]);
      },
    );
    await t.step("attack: a secret the page copies into a hidden field stays masked", async () => {
      await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
      const review = await mcp.ok("review_form");
      const copy = (review.hidden as R[]).find((h) => h.name === "pw_copy")!;
      assertTrue(!JSON.stringify(review).includes(SECRET), "the secret is not in the review");
      assertTrue(String(copy.value).includes("PW"), `masked as the secret: ${copy.value}`);
    });
    await t.step("read_form does not list them (review_form is the full view)", async () => {
      const read = await mcp.ok("read_form");
      assertEquals("hidden" in read, false);
    });
  } finally {
    await close();
    await server.close();
  }
});
