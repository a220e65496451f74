import { assertEquals } from "../../tests/_assert.ts";
import { fakePage, fakeSession } from "../../tests/_fake_session.ts";
import type { Page } from "../../cdp/page.ts";
import { ActionWindow } from "./action_window.ts";
import type { PageTimers } from "../sessions/page_timers.ts";

const OPTIONS = { action: "click", declaredDownload: false, submits: false };

function setUp() {
  const page = fakePage("http://127.0.0.1:8000/a.html");
  const fake = fakeSession(page);
  return {
    page,
    fake,
    open: () => ActionWindow.open(fake.session, page as unknown as Page, OPTIONS),
  };
}

Deno.test("action window: opening installs the recorder, the dialogs' and the guard's windows", async () => {
  const { fake, open } = setUp();
  {
    await using _w = await open();
    // The downloads gate's listener and the recorder's.
    assertEquals(fake.listeners.size, 2);
    assertEquals(fake.dialogWindows, [true]);
    assertEquals(fake.guardCalls, ["begin"]);
    // What happens meanwhile is the window's, not news for the next result.
    assertEquals(fake.between.held, true);
  }
  // Leaving the scope removed exactly what it added.
  assertEquals(fake.between.held, false);
  assertEquals(fake.listeners.size, 0);
  assertEquals(fake.dialogWindows, [true, false]);
  assertEquals(fake.guardCalls, ["begin", "end"]);
});

Deno.test("action window: a failure on the way out still removes everything", async () => {
  const { fake, open } = setUp();
  const thrown = await (async () => {
    await using _w = await open();
    throw new Error("perform failed");
  })().catch((e: Error) => e.message);
  assertEquals(thrown, "perform failed");
  assertEquals(fake.listeners.size, 0);
  assertEquals(fake.dialogWindows, [true, false]);
  assertEquals(fake.guardCalls, ["begin", "end"]);
});

Deno.test("action window: close collects the outcome; dispose after it removes nothing twice", async () => {
  const { page, fake, open } = setUp();
  {
    await using w = await open();
    page.url = "http://127.0.0.1:8000/b.html";
    fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: page.url } });
    const outcome = await w.close(Date.now() + 5000);
    assertEquals(outcome.recording.navigation.kind, "full_load");
    assertEquals(outcome.downloads, { downloads: [], blocked: [] });
    assertEquals(outcome.warnings, []);
    assertEquals([outcome.downloadError, outcome.blocked], [undefined, undefined]);
    // Closed: the live hooks are gone before the result is built.
    assertEquals(fake.between.held, false);
    assertEquals(fake.listeners.size, 0);
    assertEquals(fake.dialogWindows, [true, false]);
    assertEquals(fake.guardCalls, ["begin", "end"]);
  }
  assertEquals(fake.dialogWindows, [true, false]);
  assertEquals(fake.guardCalls, ["begin", "end"]);
});

Deno.test("action window: a page still loading at the deadline is a warning", async () => {
  const { page, fake, open } = setUp();
  await using w = await open();
  fake.emit(page, "Page.frameStartedLoading", { frameId: page.mainFrameId });
  const outcome = await w.close(Date.now() + 100);
  assertEquals(outcome.warnings, ["the page was still loading when the result was taken"]);
  assertEquals(outcome.recording.stillLoading, true);
});

Deno.test("action window: an abandoned call stops a navigation still loading in the tab, only then", async () => {
  // A Ctrl-click asks for its navigation in a new tab: this tab does not load, nothing to stop.
  const cases = [[true, "currentTab"], [false, "currentTab"], [true, "newTab"]] as const;
  for (const [aborted, disposition] of cases) {
    const sent: string[] = [];
    const page = Object.assign(fakePage("http://127.0.0.1:8000/a.html"), {
      session: { send: (method: string) => (sent.push(method), Promise.resolve({})) },
    });
    const fake = fakeSession(page);
    const ac = new AbortController();
    {
      await using _w = await ActionWindow.open(fake.session, page as unknown as Page, {
        ...OPTIONS,
        signal: ac.signal,
      });
      // The click started a navigation whose server never answers.
      fake.emit(page, "Page.frameRequestedNavigation", { frameId: page.mainFrameId, disposition });
      if (aborted) ac.abort(new Error("cancelled by the client"));
    }
    const stops = aborted && disposition === "currentTab";
    assertEquals(sent, stops ? ["Page.stopLoading"] : [], `aborted: ${aborted}, ${disposition}`);
  }
});

Deno.test("action window: onQuiet goes with each timer question; closedOnQuiet when the last said none", async () => {
  const { page, fake } = setUp();
  // A timer watch whose action set one timer, due 30 ms after the first question.
  const answers: Array<number | undefined> = [30, undefined];
  const asked: string[] = [];
  const timers = {
    nextDue: () => {
      asked.push("due");
      return Promise.resolve(answers.shift());
    },
    disarm: () => {},
  } as unknown as PageTimers;
  {
    await using w = await ActionWindow.open(fake.session, page as unknown as Page, {
      ...OPTIONS,
      timers: { frames: [page.mainFrameId], ms: 5000, armed: Promise.resolve(timers) },
    });
    const outcome = await w.close(Date.now() + 5000, undefined, {
      onQuiet: () => asked.push("quiet"),
    });
    assertEquals(asked, ["quiet", "due", "quiet", "due"]);
    assertEquals([outcome.settled, outcome.closedOnQuiet], [true, true]);
  }
  // A timer still due when the time is up: the window did not close on a quiet answer.
  const late = {
    nextDue: () => Promise.resolve(10_000),
    disarm: () => {},
  } as unknown as PageTimers;
  {
    await using w = await ActionWindow.open(fake.session, page as unknown as Page, {
      ...OPTIONS,
      timers: { frames: [page.mainFrameId], ms: 5000, armed: Promise.resolve(late) },
    });
    const outcome = await w.close(Date.now() + 300, undefined, { onQuiet: () => {} });
    assertEquals([outcome.settled, outcome.closedOnQuiet], [false, false]);
  }
});

Deno.test("action window: the quiet counts from the input's answer; a navigation after it is waited for", async () => {
  // A quiet longer than the deadline leaves: only one counted from the input can be over.
  const quietMs = 60_000;
  const asked: string[] = [];
  const timers = {
    nextDue: () => (asked.push("due"), Promise.resolve(undefined)),
    disarm: () => {},
  } as unknown as PageTimers;
  const { page, fake } = setUp();
  const open = () =>
    ActionWindow.open(fake.session, page as unknown as Page, {
      ...OPTIONS,
      quietMs,
      timers: { frames: [page.mainFrameId], ms: 5000, armed: Promise.resolve(timers) },
    });
  {
    await using w = await open();
    const outcome = await w.close(Date.now() + 2000, undefined, {
      inputAnsweredAt: Date.now() - quietMs,
    });
    assertEquals([outcome.settled, outcome.closedOnQuiet], [true, true]);
    // The timer watch was asked all the same.
    assertEquals(asked, ["due"]);
  }
  {
    await using w = await open();
    const inputAnsweredAt = Date.now() - quietMs;
    // The click's handler navigated the page after the input was answered.
    page.url = "http://127.0.0.1:8000/b.html";
    fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: page.url } });
    const outcome = await w.close(Date.now() + 200, undefined, { inputAnsweredAt });
    assertEquals(outcome.settled, false);
    assertEquals(outcome.recording.navigation.kind, "full_load");
  }
});
