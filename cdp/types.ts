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
