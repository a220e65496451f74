/**
 * What a `fill` of a plain text field costs the tab's CDP session: the commands it sends, by
 * method. Checking what the page's handlers left in the field (`checkElement`) reads the
 * result's element probe, no command of its own: the count stays what it was before the
 * check (measured on the commit before it, `snapshot: "none"`: 14, of them 5 Runtime.evaluate,
 * 5 Runtime.callFunctionOn, 2 Page.setInterceptFileChooserDialog, 1 Input.insertText, 1
 * Runtime.releaseObject). A fill with `submit` reads the field before Enter with one command
 * answered before Enter's task turn (21 before, 22 now: none more in sequence). A `type`
 * reads where its keys went once, after the last key (3 characters: 12 before, 13 now), while
 * the page's quiet is waited for anyway. The audit's note of what a selector hit (its role and
 * name, `acted_target.ts`) costs no command: the actionability check's first page call reads
 * them (a ref's are the registry's).
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";
import { servePages } from "./_util.ts";

/** Commands a fill of a plain field sent before the check of what the field holds. */
const FILL_COMMANDS_BEFORE = 14;
/** Commands a fill with `submit` sent before it read the field before Enter. */
const SUBMIT_COMMANDS_BEFORE = 21;
/** Commands a `type` of 3 characters sent before it read where its keys went. */
const TYPE_COMMANDS_BEFORE = 12;

Deno.test("fill and type: the checks of where the value went cost a plain fill no command", async () => {
  const pages = servePages({
    "/": `<!doctype html><title>Plain</title><main><label>Name <input id=f></label>
      <form onsubmit="event.preventDefault(); document.title = 'Sent'">
      <label>Query <input id=q name=q></label><button>Go</button></form></main>`,
  });
  const mcp = await startInProcess({});
  try {
    let r = await mcp.call("navigate", { url: pages.base + "/", snapshot: "none" });
    assertEquals(r.isError, undefined);
    // The first fill installs the acting library: the count is a later fill's.
    r = await mcp.call("fill", { selector: "#f", value: "first", snapshot: "none" });
    assertEquals(r.isError, undefined);

    const page = await (await mcp.sessions.get()).page();
    const sent: string[] = [];
    const session = page.session as unknown as { send: (...a: unknown[]) => Promise<unknown> };
    const send = session.send.bind(session);
    session.send = (...a: unknown[]) => {
      sent.push(String(a[0]));
      return send(...a);
    };
    r = await mcp.call("fill", { selector: "#f", value: "hello", snapshot: "none" });
    assertEquals(r.isError, undefined);
    assertEquals((r.structuredContent?.element as { value?: string }).value, "hello");
    const byMethod = () => {
      const out: Record<string, number> = {};
      for (const m of sent) out[m] = (out[m] ?? 0) + 1;
      return JSON.stringify(out);
    };
    console.log(`fill of a plain field: ${sent.length} commands ${byMethod()}`);
    assertTrue(
      sent.length <= FILL_COMMANDS_BEFORE,
      `${sent.length} commands (was ${FILL_COMMANDS_BEFORE}): ${byMethod()}`,
    );

    // The fill left the focus in the field: type goes there.
    sent.length = 0;
    r = await mcp.call("type", { text: "abc", snapshot: "none" });
    assertEquals(r.isError, undefined);
    console.log(`type of 3 characters: ${sent.length} commands ${byMethod()}`);
    assertTrue(
      sent.length <= TYPE_COMMANDS_BEFORE + 1,
      `${sent.length} commands (was ${TYPE_COMMANDS_BEFORE}): ${byMethod()}`,
    );

    // submit: what the field holds is read before Enter, answered before Enter's task turn.
    r = await mcp.call("fill", { selector: "#q", value: "first", submit: true, snapshot: "none" });
    // The page's handler cancels the submission and sends nothing: not sent (s17).
    assertEquals(r.structuredContent?.submitted, false, JSON.stringify(r.structuredContent));
    sent.length = 0;
    r = await mcp.call("fill", { selector: "#q", value: "hello", submit: true, snapshot: "none" });
    assertEquals(r.structuredContent?.submitted, false);
    console.log(`fill with submit: ${sent.length} commands ${byMethod()}`);
    // One more on a loaded machine: the wait for what Enter did polls the page once more
    // when the page is slow to answer (seen in a full run: 23, callFunctionOn 11).
    assertTrue(
      sent.length <= SUBMIT_COMMANDS_BEFORE + 2,
      `${sent.length} commands (was ${SUBMIT_COMMANDS_BEFORE}): ${byMethod()}`,
    );
  } finally {
    await mcp.close();
    await pages.close();
  }
});
