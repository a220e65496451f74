/**
 * A fake CDP wire for unit tests of the CDP client: a {@link CdpTransport} built on the real
 * call registry (`cdp/replies.ts`), whose commands the test answers (or an `answer` function
 * answers), and whose events and close the test makes.
 *
 * @module
 */
import { PendingCalls } from "../cdp/replies.ts";
import type { CdpTransport } from "../cdp/transport.ts";

/** What the fake browser answers: a result or a protocol error. */
export type FakeReply =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string } };

/** One command that reached the wire. */
export interface SentCommand {
  id: number;
  method: string;
  params: object | undefined;
  sessionId: string | undefined;
  /** Answers it, as the browser would (a reply to a forgotten call is dropped). */
  reply(reply: FakeReply): void;
  /** Its write fails, as a broken wire's would. */
  fail(error: Error): void;
}

/**
 * Makes the fake. `answer`, when given, answers every command it returns a reply for, on
 * a later microtask (after `send` returned, like a wire); the others wait until the test answers them.
 */
export function fakeTransport(answer?: (command: SentCommand) => FakeReply | undefined) {
  const calls = new PendingCalls();
  const sent: SentCommand[] = [];
  let closeCalls = 0;
  const transport: CdpTransport = {
    onEvent: undefined,
    onClose: undefined,
    send(method, params, options) {
      return calls.call(method, params, options, (text, failed) => {
        const { id } = JSON.parse(text) as { id: number };
        const command: SentCommand = {
          id,
          method,
          params,
          sessionId: options.sessionId,
          reply: (reply) => void calls.deliver(JSON.stringify({ id, ...reply }), transport.onEvent),
          fail: failed,
        };
        sent.push(command);
        const auto = answer?.(command);
        if (auto) queueMicrotask(() => command.reply(auto));
      });
    },
    failSession: (sessionId, error) => calls.failSession(sessionId, error),
    close(reason) {
      closeCalls++;
      calls.close(reason ?? "fake wire closed");
      return Promise.resolve();
    },
  };
  return {
    transport,
    /** The registry: `calls.size` is how many calls wait. */
    calls,
    sent,
    get closeCalls() {
      return closeCalls;
    },
    /** Delivers an event as the wire would. */
    emit(method: string, params: unknown, sessionId?: string) {
      calls.deliver(JSON.stringify({ method, params, sessionId }), transport.onEvent);
    },
    /** The wire closes under the connection. */
    drop(reason: string) {
      calls.close(reason);
      transport.onClose?.(reason);
    },
    /** The last command sent, or a failure naming what was sent. */
    last(): SentCommand {
      const s = sent.at(-1);
      if (!s) throw new Error("no command was sent");
      return s;
    },
  };
}
