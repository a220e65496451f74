/**
 * What an action acted on, for the audit: the resolved element's role and accessible name and
 * its frame's origin — not the arguments that named it (a 9 KB selector list ending in `#del`
 * says little of what was clicked). A ref's role and name are the registry's (no page call); a
 * selector's match is asked once (`roleNameOf`: its role and name in one call).
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
 * Notes `target` as what the current call acted on ({@link noteActedTarget}). Never throws: a
 * page that cannot answer leaves the line without a target. CDP: `Runtime.callFunctionOn`
 * (selector targets only).
 */
export async function noteActed(
  session: BrowserSession,
  page: Page,
  target: ResolvedTarget | undefined,
): Promise<void> {
  if (target?.kind !== "element") return;
  const frame = page.frames().find((f) => f.frameId === target.handle.frameId);
  const frameOrigin = frame ? originOf(frame.url, { opaque: "scheme" }) : undefined;
  const bare = target.ref !== undefined ? parseRef(target.ref) : undefined;
  const entry = bare !== undefined ? session.refs.get(bare) : undefined;
  let role = entry?.role, name = entry?.name;
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
