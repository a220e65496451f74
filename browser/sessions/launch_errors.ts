/**
 * What a failed browser launch or attach means to the agent: the error mapped to a
 * {@link ToolError} with the next step (install a browser, the apt-get line for missing
 * libraries, the profile in use, a bad endpoint).
 *
 * @module
 */
import { BrowserNotFoundError } from "../../cdp/discovery.ts";
import { BrowserStartError } from "../../cdp/errors.ts";
import { BrowserInstallError } from "../../cdp/install_browser.ts";
import { ProfileInUseError } from "../../cdp/launcher.ts";
import { aptInstallLine, missingSonames } from "../../cdp/missing_libs.ts";
import { ToolError } from "../tool_error.ts";

/** Maps launch/attach failures to errors the agent can act on. */
export function launchToolError(e: unknown): unknown {
  if (e instanceof ToolError) return e;
  if (e instanceof BrowserNotFoundError) {
    return new ToolError(
      "browser-unavailable",
      e.message,
      'run "browxai install-browser", install Chromium, or set BROWX_BROWSER',
    );
  }
  if (e instanceof BrowserInstallError) {
    return new ToolError(
      "browser-unavailable",
      e.message,
      e.aptGet
        ? `ask the operator to run: ${e.aptGet}; then call again`
        : "check BROWX_BROWSER_MIRROR and the network, or install Chromium; then call again",
    );
  }
  if (e instanceof BrowserStartError) {
    // A browser that lacks system libraries: the loader named one; say what installs it.
    const { line } = aptInstallLine(missingSonames(e.message));
    if (line) {
      return new ToolError(
        "browser-unavailable",
        e.message,
        `ask the operator to run (as root): ${line}; then call again`,
      );
    }
    // A browser of our own: no endpoint involved, the executable is what to look at.
    return new ToolError(
      "browser-unavailable",
      e.message,
      "check the browser browxai runs: pass a Chromium/Chrome executable with --browser PATH " +
        "(or BROWX_BROWSER, CHROME_PATH), or install chromium; then call again",
    );
  }
  if (e instanceof ProfileInUseError) {
    return new ToolError(
      "refused",
      e.message,
      "close it where it is open (close_session in the other browxai server, or quit that " +
        "browser), then call open_session again; or use another session name",
    );
  }
  if (e instanceof TypeError || (e instanceof Error && e.name === "CdpError")) {
    return new ToolError(
      "invalid-argument",
      e.message,
      "check the endpoint and that the browser runs",
    );
  }
  return e;
}
