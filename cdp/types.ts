/**
 * CDP command and event types derived from `devtools-protocol`'s
 * ProtocolMapping (type-only import: nothing of it reaches the bundle).
 *
 * @module
 */
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping.d.ts";
export type { Protocol } from "devtools-protocol/types/protocol.d.ts";

/** Every CDP command name, e.g. `"Page.navigate"`. */
export type CdpMethod = keyof ProtocolMapping.Commands;
/** Parameters of a command (`undefined`-able when the command takes none). */
export type CdpParams<M extends CdpMethod> = ProtocolMapping.Commands[M]["paramsType"][0];
/** The result object of a command. */
export type CdpResult<M extends CdpMethod> = ProtocolMapping.Commands[M]["returnType"];
/** Every CDP event name, e.g. `"Page.loadEventFired"`. */
export type CdpEventName = keyof ProtocolMapping.Events;
/** The payload of an event. */
export type CdpEvent<E extends CdpEventName> = ProtocolMapping.Events[E][0];
/**
 * The arguments of a listener of every event: `[...Head, method, params, ...Rest]`, one tuple
 * per event, so a `switch (method)` narrows `params` to that event's payload. A listener
 * written as a function literal must declare every parameter (or take `...[method, params]`):
 * TypeScript narrows dependent parameters only then.
 */
export type CdpEventArgs<Rest extends unknown[] = [], Head extends unknown[] = []> = {
  [E in CdpEventName]: [...Head, method: E, params: CdpEvent<E>, ...Rest];
}[CdpEventName];
