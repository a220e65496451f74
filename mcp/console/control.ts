/**
 * The console's control part (issue 15): a person takes over a session and hands it back,
 * drives its page with their own mouse, wheel and keys while they have control, and picks
 * elements for the agent. Installed on the hub with {@link installControl}.
 *
 * Viewer messages (live socket; `session` is `{ client, session }` as the hub's state names it):
 * - `takeover` `{ session, reason? }` → `{ type: "control", session, control }`: the person has
 *   control; the agent's mutations answer `human-has-control`. The MCP client is told (a log
 *   notification), and the session's next result carries `sinceLastCall.control`.
 * - `handback` `{ session }` → `{ type: "control", … }`: control back to the agent, told likewise.
 * - `input` `{ session, event }` (see `browser/human/person_input.ts`): replayed into the
 *   session's active tab, in order; only while the person has control. No reply unless it failed.
 * - `pick-hover` `{ session, x, y }` → `{ type: "pick-hint", session, x, y, hit, tag?, id?,
 *   classes?, bounds? }` (CSS px of the page).
 * - `pick` `{ session, x, y }` → `{ type: "picked", session, pick }`: the element becomes a
 *   `pN` ref; the MCP client gets a log notification naming it, and `picked()` lists it.
 *
 * State slice `control`: `{ sessions: [{ client, session, by, reason?, since, picks }] }`
 * (the last 5 picks of each session).
 *
 * Errors are `{ type: "error", error }` replies (the hub's): an unknown session, a bad
 * point or event, input while the agent has control, nothing at a picked point.
 *
 * @module
 */
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { checkPoint, pickAt, pickHint } from "../../browser/human/pick.ts";
import { dispatchPersonEvent, parsePersonEvent } from "../../browser/human/person_input.ts";
import type { ConsoleClient, ConsoleHub, SessionKey, ViewerMessage } from "./hub.ts";
import { type LapseOptions, watchTakeoverLapse } from "./control_lapse.ts";

/** What {@link installControl} installed: the handlers' queue of input, per session. */
export interface ControlPart {
  /** Resolves once every input event sent so far has been replayed (tests). */
  idle(): Promise<void>;
  /** Stops watching for takeovers nobody watches (its timer). */
  close(): void;
}

/**
 * Input events of one session waiting for the page at most (a person's mouse moves at 60 a
 * second: several seconds of a page that does not answer).
 */
export const MAX_QUEUED_INPUT = 500;

/** Picks of a session the state slice shows. */
const PICKS_SHOWN = 5;

/** The `{ client, session }` of a message, checked. */
function keyOf(message: ViewerMessage): SessionKey {
  const s = message.session as Partial<SessionKey> | undefined;
  if (
    !s || typeof s !== "object" || typeof s.client !== "string" || typeof s.session !== "string"
  ) {
    throw new Error('"session" must be { client, session }');
  }
  return { client: s.client, session: s.session };
}

/**
 * Installs the control part's message handlers and state slice on `hub`. With `options.lapse`,
 * a takeover nobody can see any more ends by itself (`control_lapse.ts`).
 */
export function installControl(
  hub: ConsoleHub,
  options: { lapse?: LapseOptions | undefined } = {},
): ControlPart {
  const stopLapse = options.lapse ? watchTakeoverLapse(hub, options.lapse) : () => {};
  const queues = new WeakMap<BrowserSession, Promise<void>>();
  const pending = new Set<Promise<void>>();
  /** Events of each session sent and not yet replayed. */
  const backlog = new WeakMap<BrowserSession, number>();

  const find = (message: ViewerMessage): {
    key: SessionKey;
    session: BrowserSession;
    client: ConsoleClient;
  } => {
    const key = keyOf(message);
    const session = hub.session(key);
    const client = hub.client(key.client);
    if (!session || !client) {
      throw new Error(`unknown session "${key.session}" of client "${key.client}"`);
    }
    return { key, session, client };
  };

  const controlReply = (key: SessionKey, session: BrowserSession) => ({
    type: "control",
    session: key,
    control: session.human.control,
  });

  hub.onMessage("takeover", (message) => {
    const { key, session, client } = find(message);
    const reason = typeof message.reason === "string" && message.reason.trim()
      ? message.reason.trim().slice(0, 200)
      : "taken over in the console";
    if (!session.human.humanHasControl) {
      session.human.setControl("human", reason);
      session.between.control("human", reason);
      client.audit?.({ session: key.session, action: "takeover", reason });
      client.notify("warning", {
        message: `A person took control of session "${key.session}" in the web console: ` +
          "your mutations answer human-has-control until they hand back; reads still work",
        session: key.session,
        control: "human",
      });
      hub.changed("control");
    }
    return controlReply(key, session);
  });

  hub.onMessage("handback", (message) => {
    const { key, session, client } = find(message);
    if (session.human.humanHasControl) {
      session.human.setControl("agent");
      session.between.control("agent");
      client.audit?.({ session: key.session, action: "handback" });
      client.notify("info", {
        message: `The person handed session "${key.session}" back: you have control again`,
        session: key.session,
        control: "agent",
      });
      hub.changed("control");
    }
    return controlReply(key, session);
  });

  hub.onMessage("input", async (message) => {
    const { key, session } = find(message);
    const event = parsePersonEvent(message.event);
    if (!session.human.humanHasControl) {
      throw new Error(`the agent has control of session "${key.session}": take over first`);
    }
    const page = session.activePage;
    if (!page || page.isClosed) throw new Error(`session "${key.session}" has no open tab`);
    // A page that takes no input (busy, or stuck on purpose) must not make the server hold
    // every event a viewer sends: past the cap new ones are dropped, and the viewer told.
    const waiting = backlog.get(session) ?? 0;
    if (waiting >= MAX_QUEUED_INPUT) {
      throw new Error(
        `the page of session "${key.session}" is not taking input (${waiting} events wait): ` +
          "input dropped; try again when it answers",
      );
    }
    backlog.set(session, waiting + 1);
    // In the order sent: a key's down, its up, the next key (handlers otherwise interleave).
    // Control is looked at again when the event's turn comes: a busy page holds the queue,
    // and what the person sent before handing back must not reach the page under the agent.
    const run = (queues.get(session) ?? Promise.resolve()).then(() => {
      if (!session.human.humanHasControl) {
        throw new Error(`session "${key.session}" was handed back: input dropped`);
      }
      return dispatchPersonEvent(page, event);
    });
    const settled = run.catch(() => {}).finally(() =>
      backlog.set(session, (backlog.get(session) ?? 1) - 1)
    );
    queues.set(session, settled);
    pending.add(settled);
    settled.finally(() => pending.delete(settled));
    await run;
  });

  hub.onMessage("pick-hover", async (message) => {
    const { key, session } = find(message);
    const { x, y } = checkPoint(message.x, message.y);
    return { type: "pick-hint", session: key, x, y, ...await pickHint(session, x, y) };
  });

  hub.onMessage("pick", async (message) => {
    const { key, session, client } = find(message);
    const { x, y } = checkPoint(message.x, message.y);
    const pick = await pickAt(session, x, y);
    client.notify("info", {
      message: `The person picked ${pick.ref} (${pick.role}${
        pick.name ? ` "${pick.name.slice(0, 80)}"` : ""
      }) in session "${key.session}": use ref "${pick.ref}" like an eN; picked() lists picks`,
      session: key.session,
      ...pick,
    });
    hub.changed("control");
    return { type: "picked", session: key, pick };
  });

  hub.addStateProvider("control", () => ({
    sessions: hub.sessions().map(({ key, session }) => ({
      ...key,
      ...session.human.control,
      picks: session.human.picks.slice(-PICKS_SHOWN),
    })),
  }));

  return {
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    close: stopLapse,
  };
}
