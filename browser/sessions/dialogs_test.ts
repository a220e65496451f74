import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import { type DialogRecord, SessionDialogs, undeliveredNote } from "./dialogs.ts";

/**
 * A session whose `Page.handleJavaScriptDialog` fails as Chromium's does for a dialog that
 * opened while another frame's showed (the real case: tests/dialog_policy_test.ts "overlap").
 */
function lostSession(): { session: CdpSession; answered: Promise<void> } {
  let done!: () => void;
  const answered = new Promise<void>((r) => done = r);
  const session = {
    send: () => {
      queueMicrotask(done);
      return Promise.reject(new Error("Protocol error: No dialog is showing"));
    },
  } as unknown as CdpSession;
  return { session, answered };
}

const prompt = (frameId: string) => ({
  url: "http://a.test/",
  frameId,
  message: "Enter your PIN",
  type: "prompt" as const,
  hasBrowserHandler: true,
  defaultPrompt: "",
});

Deno.test("SessionDialogs: an answer Chromium lost leaves the dialog open, told and noted", async () => {
  const d = new SessionDialogs();
  const changed: DialogRecord[] = [];
  d.onChange = (r) => changed.push(r);
  d.arm({ accept: true, text: "4711" }, "TAB");
  const { session, answered } = lostSession();
  const r = d.answer("TAB", prompt("TAB"), session);
  assertEquals([r.handledAs, r.armed], ["accepted", true]);
  await answered;
  await Promise.resolve();
  assertEquals([r.handledAs, r.undelivered, changed.length], ["open", true, 1]);
  assertIncludes(d.blockedNote("TAB")!, "Chromium cannot answer");
  assertIncludes(undeliveredNote(r), "blocks the page");
  // Another dialog (or a reload) closes it: the page saw it dismissed; the frame is free.
  d.closed({ frameId: "TAB", result: false, userInput: "" });
  assertEquals([r.handledAs, changed.length, d.blockedNote("TAB")], ["dismissed", 2, undefined]);
  assertIncludes(undeliveredNote(r), "the page saw it dismissed");
});

Deno.test("SessionDialogs: closed before the answer came, as answered: nothing to tell", async () => {
  const d = new SessionDialogs();
  const { session, answered } = lostSession();
  const r = d.answer("TAB", { ...prompt("F1"), type: "confirm" }, session);
  d.closed({ frameId: "F1", result: false, userInput: "" });
  await answered;
  await Promise.resolve();
  assertEquals([r.handledAs, r.undelivered, d.blockedNote("F1")], [
    "dismissed",
    undefined,
    undefined,
  ]);
});
