/**
 * What an action acted on, for the audit: the resolved element's role and accessible name and
 * its frame's origin — not the arguments that named it (a 9 KB selector list ending in `#del`
 * says little of what was clicked). A ref's role and name are the registry's (no page call); a
 * selector's match tells them with the actionability check's first page call (`readyBox`'s
 * `roleName`), or, for an action with no such check, is asked once (`roleNameOf`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { originOf } from "../../policy/hosts.ts";
import { callOnHandle } from "../injected/mod.ts";
import { noteActedTarget } from "../sessions/call_scope.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { parseRef } from "../snapshot/ref_syntax.ts";
import type { ResolvedTarget } from "./target.ts";

/** Longest accessible name the audit keeps, chars. */
const MAX_NAME = 200;

/**
 * True when noting `target` takes the page's answer: an element matched by a selector (a ref's
 * role and name are the registry's). Pass that answer as {@link noteActed}'s `roleName`.
 */
export function needsRoleName(
  session: BrowserSession,
  target: ResolvedTarget | undefined,
): boolean {
  if (target?.kind !== "element") return false;
  const entry = registryEntry(session, target.ref);
  return entry?.role === undefined || entry?.name === undefined;
}

/** The registry's entry of a ref target. */
function registryEntry(session: BrowserSession, ref: string | undefined) {
  const bare = ref !== undefined ? parseRef(ref) : undefined;
  return bare !== undefined ? session.refs.get(bare) : undefined;
}

/**
 * Notes `target` as what the current call acted on ({@link noteActedTarget}). Never throws: a
 * page that cannot answer leaves the line without a target. `options.roleName`: the element's
 * role and name as the page told them already (see {@link needsRoleName}). CDP:
 * `Runtime.callFunctionOn` (selector targets without `roleName` only).
 */
export async function noteActed(
  session: BrowserSession,
  page: Page,
  target: ResolvedTarget | undefined,
  options: { roleName?: readonly [string, string] } = {},
): Promise<void> {
  if (target?.kind !== "element") return;
  const frame = page.frames().find((f) => f.frameId === target.handle.frameId);
  const frameOrigin = frame ? originOf(frame.url, { opaque: "scheme" }) : undefined;
  const entry = registryEntry(session, target.ref);
  let role = entry?.role, name = entry?.name;
  if ((role === undefined || name === undefined) && options.roleName) {
    [role, name] = options.roleName;
  }
  if (role === undefined || name === undefined) {
    [role, name] = await callOnHandle(target.handle, "roleNameOf")
      .catch(() => [undefined, undefined]);
  }
  if (role === undefined || name === undefined) return;
  noteActedTarget({
    role,
    name: name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name,
    ...(target.ref !== undefined ? { ref: target.ref } : {}),
    ...(target.matches !== undefined ? { matches: target.matches } : {}),
    ...(frameOrigin ? { frameOrigin } : {}),
  });
}
