import { assertEquals, assertRejects } from "../../tests/_assert.ts";
import type { ConfirmRequest } from "../../policy/confirm.ts";
import type { HumanChannel } from "./channel.ts";
import { createConsent } from "./consent.ts";

const request: ConfirmRequest = { hook: "release", tool: "release", summary: "hand back" };

/** A channel answering `answer` after `ms` (or never: `undefined`), recording withdrawals. */
function channel(name: string, answer: boolean | undefined, ms = 0, seen: string[] = []) {
  return {
    name,
    available: () => true,
    ask: (_r: ConfirmRequest, signal: AbortSignal) =>
      new Promise<boolean>((resolve, reject) => {
        signal.addEventListener("abort", () => {
          seen.push(`${name} withdrawn`);
          reject(signal.reason);
        });
        if (answer !== undefined) setTimeout(() => resolve(answer), ms);
      }),
  } satisfies HumanChannel;
}

Deno.test("consent: no channel is the agent's word; the first answer wins, the others withdrawn", async () => {
  assertEquals(await createConsent([])(request), { granted: true, channel: "legacy" });
  const off = { ...channel("x", true), available: () => false };
  assertEquals(await createConsent([off])(request), { granted: true, channel: "legacy" });
  const seen: string[] = [];
  const consent = createConsent([channel("slow", true, 50, seen), channel("fast", false, 0, seen)]);
  assertEquals(await consent(request), { granted: false, channel: "fast", answered: true });
  // The slow channel's question is withdrawn once the fast one answered.
  assertEquals(seen.includes("slow withdrawn"), true);
});

Deno.test("consent: nobody answering in time is a no; the asking call cancelled rejects", async () => {
  const never = channel("elicitation", undefined);
  // Not a no: nobody answered (the release's refusal says so).
  assertEquals(await createConsent([never], { timeoutMs: 50 })(request), {
    granted: false,
    channel: "elicitation",
    answered: false,
  });
  const call = new AbortController();
  const asking = createConsent([never])(request, call.signal);
  call.abort(new Error("cancelled by the client"));
  const e = await assertRejects(() => asking, Error);
  assertEquals(e.message, "cancelled by the client");
});

Deno.test("consent: an open web console is asked alone; a client that says yes by itself is not asked", async () => {
  const seen: string[] = [];
  const autoYes = channel("elicitation", true, 0, seen);
  let elicited = 0;
  const counted = {
    ...autoYes,
    ask: (r: ConfirmRequest, s: AbortSignal) => (elicited++, autoYes.ask(r, s)),
  };
  const consent = createConsent([counted, channel("console", false, 20, seen)], {
    sole: ["console"],
  });
  assertEquals(await consent(request), { granted: false, channel: "console", answered: true });
  assertEquals(elicited, 0);
  // With nobody at the console, the client is asked as before.
  const away = { ...channel("console", false), available: () => false };
  assertEquals(await createConsent([counted, away], { sole: ["console"] })(request), {
    granted: true,
    channel: "elicitation",
    answered: true,
  });
});
