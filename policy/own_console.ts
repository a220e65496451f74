/**
 * browxai's own web console, as the agent's browser may meet it: a person who opened the
 * console in the browser the agent drives (an attached browser: their own; a headful one)
 * has its cookie there, so a tab showing it answers the agent's confirm questions, takes
 * over and hands back, for whoever clicks in it. The agent must neither read it nor act in
 * it, nor navigate there.
 *
 * @module
 */
import { isLoopback } from "./hosts.ts";

/** A listener serving the console: the address it is bound to and its port. */
export interface ConsoleListenerAddress {
  host: string;
  port: number;
}

/**
 * True when `url` is served by one of `listeners` (browxai's own console or `--http`
 * listener): an http(s) or ws(s) URL on its port whose host is a loopback name, the bound
 * host, or any host when bound to every interface.
 */
export function isOwnConsoleUrl(
  url: string,
  listeners: readonly ConsoleListenerAddress[] | undefined,
): boolean {
  if (!listeners?.length) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!/^(https?|wss?):$/.test(u.protocol)) return false;
  const port = Number(u.port || (u.protocol === "https:" || u.protocol === "wss:" ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return listeners.some((l) => {
    if (l.port !== port) return false;
    const bound = l.host.replace(/^\[|\]$/g, "").toLowerCase();
    return isLoopback(host) || host === bound || bound === "0.0.0.0" || bound === "::";
  });
}
