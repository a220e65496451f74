/**
 * ActionDescriptors (seed 000's plan/execute): an intent captured against the live page — a
 * verb, its arguments and the element it binds (an `eN` of the session's ref registry) — handed
 * back later to be dispatched. The session keeps what it issued, so a descriptor executes only
 * as it was planned, only in the session whose refs it names, and only before it expires.
 *
 * @module
 */
import { SessionSlot, type SessionSlots } from "../sessions/session_slots.ts";
import type { RefRegistry } from "../snapshot/refs.ts";

/** The verbs a descriptor may carry (single-target actions). */
export const VERBS = ["click", "fill", "hover", "press", "select"] as const;
/** One of {@link VERBS}. */
export type Verb = typeof VERBS[number];

/** Default time a descriptor stays executable, ms. */
export const DEFAULT_TTL_MS = 60_000;
/** Bounds of `ttlMs`, ms (1 s .. 30 min). */
export const TTL_BOUNDS = { min: 1000, max: 1_800_000 } as const;
/** Descriptors a session remembers at most (oldest forgotten first). */
export const MAX_DESCRIPTORS = 1000;

/** The audit trail of a descriptor: why plan chose its element. */
export interface Evidence {
  query: string;
  selectorHint: string | null;
  selectorTier: string | null;
  stability: string;
  role: string;
  name?: string | undefined;
  testId?: string | undefined;
  score: number;
  actionable: boolean;
  warnings: string[];
  alternatives: Array<{ ref: string; role: string; name: string; score: number }>;
}

/** What plan returns and execute takes (verbatim). */
export interface ActionDescriptor {
  /** Opaque id (a UUID). */
  id: string;
  /** The bound element: an `eN` of the issuing session. */
  ref: string;
  verb: Verb;
  /** The verb's own arguments (value for fill, key for press, one of value/label/index for select, button/clickCount/modifiers for click). */
  args: Record<string, unknown>;
  evidence: Evidence;
  /** Epoch ms past which execute refuses it. */
  expiresAt: number;
}

/** Why execute refuses a descriptor before anything runs. */
export type Refusal = { reason: "expired" | "ref-gone" | "invalid"; message: string; hint: string };

/** Clamps a requested TTL to {@link TTL_BOUNDS}; undefined: {@link DEFAULT_TTL_MS}. */
export function clampTtl(ttlMs: number | undefined): number {
  if (ttlMs === undefined || !Number.isFinite(ttlMs)) return DEFAULT_TTL_MS;
  return Math.min(TTL_BOUNDS.max, Math.max(TTL_BOUNDS.min, Math.round(ttlMs)));
}

/**
 * Checks a verb's arguments; returns a message naming what is wrong, or undefined. The tool
 * itself checks the rest when it runs (a key name, an option that exists).
 */
export function verbArgsProblem(verb: Verb, args: Record<string, unknown>): string | undefined {
  const allowed: Record<Verb, string[]> = {
    click: ["button", "clickCount", "modifiers", "submits", "download"],
    fill: ["value", "submit"],
    hover: [],
    press: ["key", "submits", "download"],
    select: ["value", "label", "index", "submits"],
  };
  const extra = Object.keys(args).filter((k) => !allowed[verb].includes(k));
  if (extra.length) {
    return `${verb} takes ${allowed[verb].join(", ") || "no arguments"}; not ${extra.join(", ")}`;
  }
  if (verb === "fill" && typeof args.value !== "string") return "fill needs value (a string)";
  if (verb === "press" && (typeof args.key !== "string" || !args.key)) {
    return 'press needs key, e.g. "Enter"';
  }
  if (verb === "select") {
    const given = ["value", "label", "index"].filter((k) => args[k] !== undefined);
    if (given.length !== 1) return "select needs exactly one of value, label, index";
  }
  return undefined;
}

/** The descriptors one session issued, by id. */
export class DescriptorStore {
  #issued = new Map<string, string>();

  /** Remembers a descriptor as issued (its exact serialization). */
  issue(d: ActionDescriptor): void {
    if (this.#issued.size >= MAX_DESCRIPTORS) {
      this.#issued.delete(this.#issued.keys().next().value!);
    }
    this.#issued.set(d.id, canonical(d));
  }

  /**
   * Why `d` must not run now, or undefined when it may: issued here and unchanged (else
   * `invalid`, or `ref-gone` for an id this session never issued: its ref names nothing here),
   * not expired, and its ref still in `refs` with the role it was planned on.
   */
  check(d: ActionDescriptor, refs: RefRegistry, now = Date.now()): Refusal | undefined {
    const issued = this.#issued.get(d.id);
    if (issued === undefined) {
      return {
        reason: "ref-gone",
        message:
          `Descriptor ${d.id} was not planned in this session (or was forgotten): its ref names nothing here`,
        hint: "plan again in this session",
      };
    }
    if (issued !== canonical(d)) {
      return {
        reason: "invalid",
        message: "The descriptor differs from the one plan returned (ref, verb, args or expiry)",
        hint: "pass the descriptor verbatim, or plan again with the new arguments",
      };
    }
    if (now > d.expiresAt) {
      return {
        reason: "expired",
        message: `The descriptor expired ${Math.round((now - d.expiresAt) / 1000)} s ago (${
          new Date(d.expiresAt).toISOString()
        })`,
        hint: "plan again (ttlMs sets how long a plan stays valid, up to 30 min)",
      };
    }
    const entry = refs.get(d.ref);
    if (!entry || entry.role !== d.evidence.role) {
      return {
        reason: "ref-gone",
        message: `Ref ${d.ref} (${d.evidence.role} "${d.evidence.name ?? ""}") is gone: ${
          entry ? `it is now a ${entry.role}` : "its document was replaced"
        }`,
        hint: "plan again: the page changed since",
      };
    }
    return undefined;
  }
}

/** The store of a session (made on first use; goes when the session closes). */
export function descriptorsOf(slots: SessionSlots): DescriptorStore {
  let store = slots.get(DESCRIPTORS);
  if (!store) slots.set(DESCRIPTORS, store = new DescriptorStore());
  return store;
}

const DESCRIPTORS = new SessionSlot<DescriptorStore>("plan descriptors");

/** A stable serialization of what execute must find unchanged. */
function canonical(d: ActionDescriptor): string {
  return JSON.stringify([d.ref, d.verb, sorted(d.args), d.expiresAt]);
}

function sorted(o: Record<string, unknown>): unknown[] {
  return Object.keys(o).sort().map((k) => [k, o[k]]);
}
