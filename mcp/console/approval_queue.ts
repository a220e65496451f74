/**
 * The web console as a human channel (issue 15, "Approvals"): each confirm question asked
 * while a console viewer is connected becomes an entry of the hub's `approvals` state slice —
 * the tool, its arguments as the audit records them (secrets masked, filled values redacted),
 * the site, the hook, the summary, whether "approve for this site" is allowed
 * (`policy/approvals.ts` `siteScope`), and the target element's ref and on-screen box — until
 * a person answers it or it is withdrawn (another channel answered first, the call was
 * cancelled, nobody answered in time).
 *
 * Viewer messages (live socket, through {@link ConsoleHub.handle}):
 * - `{ type: "approve", id, scope: "once" | "site" }` → `{ type: "approved", id, scope }`
 * - `{ type: "deny", id }` → `{ type: "denied", id }`
 *
 * An id that is not pending (answered, withdrawn, never asked), a missing id, or a `site`
 * scope where policy does not allow one is an error reply and answers nothing.
 *
 * @module
 */
import type { ConfirmRequest, HumanAnswer } from "../../policy/confirm.ts";
import { siteScope } from "../../policy/approvals.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { type Box, targetBox } from "../../browser/human/target_box.ts";
import type { HumanChannel } from "../human/channel.ts";
import type { ConsoleHub, ViewerMessage } from "./hub.ts";

/** One pending confirm as the console shows it (an entry of the `approvals` slice). */
export interface ApprovalEntry {
  /** `q1`, `q2`, … (per server). */
  id: string;
  /** The asking MCP client's console label (`stdio`, `c1`, …). */
  client: string;
  session?: string;
  tool: string;
  /** The call's arguments, secrets masked and filled values redacted (as in the audit). */
  args?: unknown;
  /** The confirm hook (`submit`, `site_visit`, `file_download`, …). */
  hook: string;
  /** One line: what is about to happen, where. */
  summary: string;
  /** The origin acted on. */
  origin?: string;
  /** "Approve for this site" is offered: the site (registrable domain) it would cover. */
  site?: string;
  /** Why "approve for this site" is not offered, when it is not. */
  siteRefused?: string;
  /**
   * The element the call acts on, when it names one: its ref (or selector) and, once found,
   * its box in the page's top-level viewport, CSS px (what the live frame shows).
   */
  target?: { ref?: string; selector?: string; box?: Box };
  /** ms since the epoch. */
  created: number;
}

/** How often a pending question's target box is looked for again, ms. */
const FOLLOW_MS = 500;

/** Longest summary an entry shows, characters. */
const SUMMARY_CHARS = 1000;

interface Pending {
  entry: ApprovalEntry;
  answer(a: HumanAnswer): void;
  /** Ends the question without an answer (the channel broke): the gate decides without it. */
  fail(reason: Error): void;
}

/**
 * How long pending questions outlive the last console viewer, ms: a reload reconnects within
 * it; past it nobody is there to answer, and the questions fail (the other channels, or a
 * refusal, decide) instead of waiting out the confirm timeout.
 */
export const VIEWER_GONE_MS = 5000;

/** The console's approval queue of one hub; see the module doc. */
export class ConsoleApprovals {
  #hub: ConsoleHub;
  #pending = new Map<string, Pending>();
  #next = 1;

  #goneTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(hub: ConsoleHub, options: { viewerGoneMs?: number } = {}) {
    this.#hub = hub;
    const goneMs = options.viewerGoneMs ?? VIEWER_GONE_MS;
    hub.addEventListener("change", (e) => {
      if ((e as CustomEvent<string>).detail !== "viewers") return;
      if (hub.viewerCount > 0) {
        clearTimeout(this.#goneTimer);
        this.#goneTimer = undefined;
      } else if (this.#pending.size && !this.#goneTimer) {
        this.#goneTimer = setTimeout(() => {
          this.#goneTimer = undefined;
          if (hub.viewerCount > 0) return;
          const reason = new Error("the last console viewer left before answering");
          for (const p of [...this.#pending.values()]) p.fail(reason);
        }, goneMs);
      }
    });
  }

  /** The pending entries, oldest first (the `approvals` slice). */
  list(): ApprovalEntry[] {
    return [...this.#pending.values()].map((p) => p.entry);
  }

  /**
   * The human channel of one MCP client: named `console`, available while at least one
   * console viewer is connected. Its `ask` adds an entry and resolves with the person's
   * answer; when its signal aborts the entry disappears and it rejects with the reason.
   *
   * @param client.label The client's console label.
   * @param client.sessions Its sessions (for the target's box; never opened).
   */
  channel(client: { label: string; sessions: SessionManager }): HumanChannel {
    return {
      name: "console",
      available: () => this.#hub.viewerCount > 0,
      ask: (request, signal) => this.#ask(client, request, signal),
    };
  }

  #ask(
    client: { label: string; sessions: SessionManager },
    request: ConfirmRequest,
    signal: AbortSignal,
  ): Promise<HumanAnswer> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = `q${this.#next++}`;
    const scope = siteScope(request);
    const t = request.target;
    const ref = t?.ref ?? t?.named;
    const entry: ApprovalEntry = {
      id,
      client: client.label,
      ...(request.session !== undefined ? { session: request.session } : {}),
      tool: request.tool,
      ...(request.args !== undefined ? { args: request.args } : {}),
      hook: request.hook,
      // The page's URL is in many summaries, and a page makes it a megabyte if it likes.
      summary: request.summary.length > SUMMARY_CHARS
        ? `${request.summary.slice(0, SUMMARY_CHARS)}…`
        : request.summary,
      ...(request.origin ? { origin: request.origin } : {}),
      ...(scope.allowed ? { site: scope.site } : { siteRefused: scope.why }),
      ...(ref !== undefined || t?.selector !== undefined
        ? {
          target: {
            ...(ref !== undefined ? { ref } : {}),
            ...(t?.selector !== undefined ? { selector: t.selector } : {}),
          },
        }
        : {}),
      created: Date.now(),
    };
    // Ends the target's follow-up when the question ends, however it ends.
    const ended = new AbortController();
    return new Promise<HumanAnswer>((resolve, reject) => {
      const done = () => {
        ended.abort();
        signal.removeEventListener("abort", onAbort);
        if (this.#pending.delete(id)) this.#hub.changed("approvals");
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        entry,
        answer: (a) => {
          done();
          resolve(a);
        },
        fail: (reason) => {
          done();
          reject(reason);
        },
      });
      this.#hub.changed("approvals");
      if (entry.target) {
        this.#locate(client.sessions, request, entry, AbortSignal.any([signal, ended.signal]));
      }
    });
  }

  /**
   * Finds the target's box in the background and shows it, then looks again every
   * {@link FOLLOW_MS} while the question is pending (never fails the question): the page may
   * move the target (or scroll) after it was found, and an outline left where it was would
   * point the person at another element.
   */
  #locate(
    sessions: SessionManager,
    request: ConfirmRequest,
    entry: ApprovalEntry,
    signal: AbortSignal,
  ): void {
    const id = request.session ?? "default";
    const session = sessions.list().find((s) => s.id === id && !s.closed);
    const target = request.target;
    if (!session || !target) return;
    const look = () => {
      if (signal.aborted || session.closed || !this.#pending.has(entry.id)) return;
      targetBox(session, target, signal).then((found) => {
        if (!this.#pending.has(entry.id)) return;
        const before = JSON.stringify(entry.target?.box ?? null);
        if (found && JSON.stringify(found.box) !== before) {
          entry.target = {
            ...entry.target,
            ...(found.ref ? { ref: found.ref } : {}),
            box: found.box,
          };
          this.#hub.changed("approvals");
        } else if (!found && entry.target?.box) {
          // Gone from view: no outline rather than a stale one.
          const { box: _gone, ...rest } = entry.target;
          entry.target = rest;
          this.#hub.changed("approvals");
        }
      }, () => {}).finally(() => {
        if (signal.aborted || !this.#pending.has(entry.id)) return;
        const timer = setTimeout(look, FOLLOW_MS);
        signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
      });
    };
    look();
  }

  /**
   * Answers pending entry `id`.
   *
   * @throws Error when `id` is not pending, or `answer` is `"site"` where the entry offers no
   *   "approve for this site".
   */
  answer(id: unknown, answer: HumanAnswer): void {
    const p = typeof id === "string" ? this.#pending.get(id) : undefined;
    if (!p) {
      throw new Error(
        typeof id === "string"
          ? `no pending approval "${id.slice(0, 40)}": it was answered or withdrawn, or never asked`
          : 'missing "id": name the pending approval to answer',
      );
    }
    if (answer === "site" && p.entry.site === undefined) {
      throw new Error(
        `approval "${p.entry.id}" cannot be approved for the site: ${p.entry.siteRefused}`,
      );
    }
    p.answer(answer);
  }
}

const installed = new WeakMap<ConsoleHub, ConsoleApprovals>();

/**
 * Installs the approval queue on `hub` (once per hub; later calls return the same queue):
 * the `approvals` state slice and the `approve` / `deny` viewer messages.
 */
export function installApprovals(hub: ConsoleHub): ConsoleApprovals {
  const existing = installed.get(hub);
  if (existing) return existing;
  const queue = new ConsoleApprovals(hub);
  installed.set(hub, queue);
  hub.addStateProvider("approvals", () => queue.list());
  hub.onMessage("approve", (m: ViewerMessage) => {
    const scope = m.scope ?? "once";
    if (scope !== "once" && scope !== "site") {
      throw new Error(`scope must be "once" or "site", not ${JSON.stringify(scope)}`);
    }
    queue.answer(m.id, scope === "site" ? "site" : true);
    return { type: "approved", id: m.id, scope };
  });
  hub.onMessage("deny", (m: ViewerMessage) => {
    queue.answer(m.id, false);
    return { type: "denied", id: m.id };
  });
  return queue;
}
