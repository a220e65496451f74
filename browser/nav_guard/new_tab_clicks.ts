/**
 * The guard's listener in browxai's utility world (`__browxai_utility`): it reports
 * each `submit` event (a form a script may send itself), and it refuses the
 * clicks that would open a link or send a form in a new tab or window.
 *
 * Why refuse them: a Ctrl/Meta/Shift click or a middle click (also
 * Ctrl+Enter / Shift+Enter on a focused link, which Chromium turns into such
 * a click) makes the browser process open the tab itself and start its first
 * request at once; Chromium does not hold that request for the debugger
 * (measured: the new tab attaches after its document was requested), so
 * neither the allowlist nor the form rules could judge it. The listener runs
 * first (capture phase on `window`, installed before any page script) and
 * cancels the click's default action; the page's own handlers still run.
 * So is Enter with a modifier in a form's field (implicit submission).
 * Alt is refused with them: Alt+click on a link downloads it, a request the
 * guard does not hold either. Since the browser target's own hold judges a tab the browser
 * opens itself before its first request goes (`unheld_requests.ts`), a trusted click (the
 * agent's, a person's) with Ctrl, Meta, Shift or the middle button on a link is let through:
 * its tab opens when the policy lets its URL through, and is left blank and closed otherwise.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { UTILITY_WORLD } from "../../cdp/page.ts";

/**
 * The isolated world of the listener, and its binding (callable from that world only): the
 * utility world, which every document has from its start anyway (`first_listeners.ts`), so a
 * document costs one isolated world, not two.
 */
const GUARD_WORLD = UTILITY_WORLD;
const GUARD_BINDING = "__browxaiSubmitted";

/** Prefix of a binding payload that reports a refused new-tab click; the rest is its URL. */
const NEW_TAB_REPORT = "newtab ";

/**
 * The listener's source (evaluated on every new document, in {@link GUARD_WORLD}). `holdLinks`:
 * links too (a policy limits where tabs go); forms are always held (undeclared submissions).
 */
const guardListener = (holdLinks: boolean) =>
  `(() => {
  const holdLinks = ${holdLinks};
  const report = (p) => { try { ${GUARD_BINDING}(p); } catch {} };
  addEventListener("submit", () => report(""), true);
  // Through the prototypes: a form's named controls shadow its members in every world
  // (<input name=closest> in a form inside a link made the listener throw, the tab open).
  const closest = Element.prototype.closest;
  const hasAttr = Element.prototype.hasAttribute;
  const actionOf = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, "action").get;
  const whereTo = (node, opens) => {
    if (!(node instanceof Element)) node = node && node.parentElement;
    if (!node) return undefined;
    const a = closest.call(node, "a[href], area[href]");
    if (a && (!holdLinks || opens)) return undefined;
    if (a) return String(a.href && a.href.baseVal !== undefined ? a.href.baseVal : a.href);
    const s = closest.call(node, "button, input");
    if (s && s.form && (s.type === "submit" || s.type === "image")) {
      return hasAttr.call(s, "formaction") ? s.formAction : actionOf.call(s.form);
    }
    return undefined;
  };
  const hold = (e) => {
    if (!(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button === 1)) return;
    // A person's (the agent's) click on a link opens its tab: the browser-level hold judges
    // that tab's first request (unheld_requests.ts). Alt still downloads, unheld; a page's
    // own synthetic click is refused as before.
    const opens = e.isTrusted && !e.altKey;
    const url = whereTo(e.composedPath()[0], opens);
    if (url === undefined) return;
    e.preventDefault();
    report(${JSON.stringify(NEW_TAB_REPORT)} + url);
  };
  addEventListener("click", hold, true);
  addEventListener("auxclick", hold, true);
  // Enter with a modifier in a form's field sends the form into a new window (no submit button
  // to click): an input element's implicit submission, refused the same way.
  addEventListener("keypress", (e) => {
    if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)) return;
    const field = e.composedPath()[0];
    if (!(field instanceof HTMLInputElement) || !field.form) return;
    e.preventDefault();
    report(${JSON.stringify(NEW_TAB_REPORT)} + actionOf.call(field.form));
  }, true);
})();`;

/**
 * Installs the listener on a page or frame target (call while it waits for
 * the debugger: every document gets it before its scripts run) and routes
 * its reports. A binding only our world can call: the page can neither fake
 * nor hide a report. With `deferScript`, the listener's document-start script is returned for
 * the caller to send with the utility world's own (one command per target, not two).
 *
 * CDP: `Runtime.addBinding`, `Page.addScriptToEvaluateOnNewDocument`
 * (`runImmediately`), `Runtime.bindingCalled`.
 */
export function installGuardListener(
  session: CdpSession,
  report: (err: unknown) => void,
  on: { submitted: () => void; newTab: (url: string) => void },
  options: { holdLinks: boolean; deferScript?: boolean | undefined },
): string | undefined {
  session.on("Runtime.bindingCalled", (e) => {
    if (e.name !== GUARD_BINDING) return;
    if (e.payload.startsWith(NEW_TAB_REPORT)) on.newTab(e.payload.slice(NEW_TAB_REPORT.length));
    else on.submitted();
  });
  session.send("Runtime.addBinding", { name: GUARD_BINDING, executionContextName: GUARD_WORLD })
    .catch(report);
  const source = guardListener(options.holdLinks);
  if (options.deferScript) return source;
  session.send("Page.addScriptToEvaluateOnNewDocument", {
    source,
    worldName: GUARD_WORLD,
    runImmediately: true,
  }).catch(report);
  return undefined;
}
