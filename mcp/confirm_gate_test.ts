/**
 * The confirm gate's race between human channels (fake channels, no browser): every available
 * channel is asked at once, the first answer wins, the others are withdrawn (their signal
 * aborts), a failing channel decides nothing while another still asks, and "approve for this
 * site" is remembered per session until the session is forgotten.
 */
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { ApprovalStore } from "../policy/approvals.ts";
import type { ConfirmRequest, HumanAnswer } from "../policy/confirm.ts";
import { ToolError } from "../browser/tool_error.ts";
import { createConfirm, NO_CHANNEL_HINT } from "./confirm_gate.ts";
import type { HumanChannel } from "./human/channel.ts";

/** A channel a test answers by hand; records how its question ended. */
class FakeChannel implements HumanChannel {
  readonly name: string;
  isAvailable = true;
  asked = 0;
  /** The reason its signal aborted with, once withdrawn. */
  withdrawn: unknown;
  #answer?: (a: HumanAnswer) => void;
  #fail?: (e: Error) => void;

  constructor(name: string) {
    this.name = name;
  }

  available(): boolean {
    return this.isAvailable;
  }

  ask(_request: ConfirmRequest, signal: AbortSignal): Promise<HumanAnswer> {
    this.asked++;
    return new Promise((resolve, reject) => {
      this.#answer = resolve;
      this.#fail = reject;
      signal.addEventListener("abort", () => {
        this.withdrawn = signal.reason;
        reject(signal.reason);
      }, { once: true });
    });
  }

  answer(a: HumanAnswer): void {
    this.#answer!(a);
  }

  fail(message: string): void {
    this.#fail!(new Error(message));
  }
}

const SUBMIT: ConfirmRequest = {
  hook: "submit",
  tool: "click",
  session: "default",
  summary: "send the form",
  origin: "https://shop.example.com",
};

function gate(channels: HumanChannel[], approvals = new ApprovalStore(), timeoutMs = 60_000) {
  return createConfirm(
    { confirmRequired: new Set(["submit", "publish"]), confirmTimeoutMs: timeoutMs },
    { approvals, channels },
  );
}

/** Waits until every channel was asked (asks start in a microtask). */
async function asked(...channels: FakeChannel[]): Promise<void> {
  for (let i = 0; i < 50 && channels.some((c) => c.asked === 0); i++) {
    await new Promise((r) => setTimeout(r, 0));
  }
  assertTrue(channels.every((c) => c.asked === 1), "every available channel is asked once");
}

Deno.test("confirm gate: every channel is asked at once; the first answer wins, the others are withdrawn", async () => {
  const a = new FakeChannel("elicitation");
  const b = new FakeChannel("devtools");
  const c = new FakeChannel("console");
  const pending = gate([a, b, c])(SUBMIT);
  await asked(a, b, c);
  c.answer(true);
  assertEquals(await pending, { decision: "approved", by: "console" });
  assertTrue(a.withdrawn instanceof Error, "elicitation withdrawn");
  assertTrue(b.withdrawn instanceof Error, "devtools withdrawn");
  assertEquals(c.withdrawn instanceof Error, true, "the winner's signal ends too (nothing left)");
});

Deno.test("confirm gate: a no wins like a yes and says who said it", async () => {
  const a = new FakeChannel("elicitation");
  const c = new FakeChannel("console");
  const pending = gate([a, c])(SUBMIT);
  await asked(a, c);
  a.answer(false);
  const e = await assertRejects(() => pending, ToolError);
  assertEquals(e.code, "blocked-by-policy");
  assertIncludes(e.message, "the human said no (through elicitation)");
  assertEquals((e.details.policy as { by?: string }).by, "elicitation");
  assertTrue(c.withdrawn !== undefined, "the console's entry is withdrawn");
});

Deno.test("confirm gate: with self-approval on, a human's no is not met with approve_actions", async () => {
  const a = new FakeChannel("elicitation");
  const pending = createConfirm(
    { confirmRequired: new Set(["submit"]), capabilities: new Set(["self-approval"]) },
    { approvals: new ApprovalStore(), channels: [a] },
  )(SUBMIT);
  await asked(a);
  a.answer(false);
  const e = await assertRejects(() => pending, ToolError);
  assertIncludes(e.message, "the human said no");
  assertTrue(!e.hint.includes("approve_actions"), e.hint);
  // Nobody to ask at all: the agent's own approve_actions is named first.
  const none = createConfirm(
    { confirmRequired: new Set(["submit"]), capabilities: new Set(["self-approval"]) },
    { approvals: new ApprovalStore(), channels: [] },
  );
  const e2 = await assertRejects(() => none(SUBMIT), ToolError);
  assertIncludes(e2.hint, 'self-approval is on: call approve_actions({ scopes: ["submit"] })');
});

Deno.test("confirm gate: a failing channel decides nothing while another still asks", async () => {
  const a = new FakeChannel("elicitation");
  const c = new FakeChannel("console");
  const pending = gate([a, c])(SUBMIT);
  await asked(a, c);
  a.fail("the client went away");
  // Still waiting on the console.
  const state = await Promise.race([
    pending.then(() => "settled", () => "settled"),
    // A task boundary: the failure's reactions (microtasks) have all run by then.
    new Promise((r) => setTimeout(() => r("waiting"), 0)),
  ]);
  assertEquals(state, "waiting");
  c.answer(true);
  assertEquals(await pending, { decision: "approved", by: "console" });
});

Deno.test("confirm gate: every channel failing refuses with each one's reason", async () => {
  const a = new FakeChannel("elicitation");
  const b = new FakeChannel("devtools");
  const pending = gate([a, b])(SUBMIT);
  await asked(a, b);
  a.fail("the client went away");
  b.fail("the tab closed");
  const e = await assertRejects(() => pending, ToolError);
  assertEquals(e.code, "blocked-by-policy");
  assertIncludes(e.message, "asking through elicitation failed: the client went away");
  assertIncludes(e.message, "asking through devtools failed: the tab closed");
});

Deno.test("confirm gate: only available channels are asked; none available is refused at once", async () => {
  const a = new FakeChannel("elicitation");
  const c = new FakeChannel("console");
  a.isAvailable = false;
  const pending = gate([a, c])(SUBMIT);
  await asked(c);
  assertEquals(a.asked, 0);
  c.answer(true);
  await pending;
  c.isAvailable = false;
  const e = await assertRejects(() => gate([a, c])(SUBMIT), ToolError);
  assertIncludes(e.hint, NO_CHANNEL_HINT);
  assertIncludes(NO_CHANNEL_HINT, "--console");
});

Deno.test("confirm gate: nobody answering in time names every channel asked", async () => {
  const a = new FakeChannel("elicitation");
  const c = new FakeChannel("console");
  const e = await assertRejects(() => gate([a, c], new ApprovalStore(), 30)(SUBMIT), ToolError);
  assertIncludes(e.message, "nobody answered through elicitation and console");
  assertTrue(a.withdrawn !== undefined && c.withdrawn !== undefined, "both withdrawn");
});

Deno.test("confirm gate: the asking call's cancel withdraws every question and rejects with its reason", async () => {
  const a = new FakeChannel("elicitation");
  const c = new FakeChannel("console");
  const ac = new AbortController();
  const pending = gate([a, c])(SUBMIT, ac.signal);
  await asked(a, c);
  ac.abort(new Error("cancelled by the client"));
  const e = await assertRejects(() => pending, Error);
  assertEquals(e.message, "cancelled by the client");
  assertTrue(a.withdrawn !== undefined && c.withdrawn !== undefined, "both withdrawn");
});

Deno.test("confirm gate: approve for this site covers the same hook, session and site until the session is forgotten", async () => {
  const approvals = new ApprovalStore();
  const c = new FakeChannel("console");
  const confirm = gate([c], approvals);
  const first = confirm(SUBMIT);
  await asked(c);
  c.answer("site");
  assertEquals(await first, { decision: "approved", by: "console", scope: "site" });
  // Another page of the same site, same session: not asked again.
  assertEquals(
    await confirm({ ...SUBMIT, origin: "https://www.example.com" }),
    { decision: "pre-approved", by: "site" },
  );
  assertEquals(c.asked, 1);
  // Another session, another site, another hook: asked.
  for (const other of [{ session: "work" }, { origin: "https://other.test" }]) {
    const p = confirm({ ...SUBMIT, ...other });
    await new Promise((r) => setTimeout(r, 0));
    c.answer(false);
    await assertRejects(() => p, ToolError);
  }
  assertEquals(c.asked, 3);
  // The session closed: what it earned is gone.
  approvals.forgetSession("default");
  const again = confirm(SUBMIT);
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(c.asked, 4, "asked again after the session was forgotten");
  c.answer(true);
  await again;
});

Deno.test("confirm gate: a site answer where policy does not allow one counts as once", async () => {
  const approvals = new ApprovalStore();
  const c = new FakeChannel("console");
  const confirm = gate([c], approvals);
  const p = confirm({ ...SUBMIT, hook: "publish" });
  await asked(c);
  c.answer("site");
  assertEquals(await p, { decision: "approved", by: "console" });
  const again = confirm({ ...SUBMIT, hook: "publish" });
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(c.asked, 2, "publish is asked every time");
  c.answer(true);
  await again;
});
