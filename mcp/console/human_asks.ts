/**
 * What the agents hand people, as the web console shows it: the `asks` state slice (each
 * `ask_human` task until a person marks it done) and the `highlights` slice (outlines drawn
 * over the live view with their notes, while the tab still shows the page they were drawn on),
 * and the `ask-done` viewer message.
 *
 * Viewer message: `{ type: "ask-done", id }` → `{ type: "ask-done", id }`; the ask becomes
 * `done`, the asking client gets a log notification (`notifications/message`, data
 * `{ event: "ask-done", session, ask, instruction }`), and the session's next result carries it
 * once (`sinceLastCall.asksDone`). An id that is not a pending ask is an error reply.
 *
 * @module
 */
import { markAskDone } from "../../browser/human/asks.ts";
import type { HumanAsk, HumanHighlight } from "../../browser/sessions/human_state.ts";
import type { ConsoleHub, ViewerMessage } from "./hub.ts";

/** An ask in the `asks` slice: the session's ask, with where it was asked. */
export interface AskView extends HumanAsk {
  client: string;
  session: string;
}

/** A highlight in the `highlights` slice. */
export interface HighlightView extends HumanHighlight {
  client: string;
  session: string;
}

/** Highlights shown per session (the newest). */
export const HIGHLIGHTS_SHOWN = 5;
/** Done asks shown per session (the newest), beside every pending one. */
export const DONE_ASKS_SHOWN = 5;

const installed = new WeakSet<ConsoleHub>();

/**
 * Installs the `asks` and `highlights` slices and the `ask-done` message on `hub` (once per
 * hub; later calls do nothing).
 */
export function installHumanAsks(hub: ConsoleHub): void {
  if (installed.has(hub)) return;
  installed.add(hub);
  hub.addStateProvider("asks", () =>
    hub.sessions().flatMap(({ key, session }) => {
      const asks = session.human.asks;
      const done = asks.filter((a) => a.status === "done").slice(-DONE_ASKS_SHOWN);
      const url = session.activePage?.url;
      return asks.filter((a) => a.status === "awaiting_user" || done.includes(a))
        .map((a): AskView => {
          // The element's box only while the tab still shows the page it was asked on.
          const { box, ...rest } = a;
          const shown = box && (a.url === undefined || a.url === url) ? { box } : {};
          return { ...rest, ...shown, client: key.client, session: key.session };
        });
    }));
  // Outlines of the page the tab shows now (one from a page it left would point at nothing).
  hub.addStateProvider("highlights", () =>
    hub.sessions().flatMap(({ key, session }) => {
      const url = session.activePage?.url;
      return session.human.highlights.filter((h) => h.url === undefined || h.url === url)
        .slice(-HIGHLIGHTS_SHOWN).map((h): HighlightView => ({
          ...h,
          client: key.client,
          session: key.session,
        }));
    }));
  hub.onMessage("ask-done", (m: ViewerMessage) => {
    if (typeof m.id !== "string") throw new Error('missing "id": name the ask that is done');
    for (const { key, session } of hub.sessions()) {
      const ask = markAskDone(session, m.id);
      if (!ask) continue;
      hub.changed("asks");
      hub.client(key.client)?.notify("info", {
        event: "ask-done",
        session: key.session,
        ask: ask.id,
        instruction: ask.instruction,
      });
      return { type: "ask-done", id: ask.id };
    }
    throw new Error(`no pending ask "${m.id.slice(0, 40)}": it is done already, or never asked`);
  });
}
