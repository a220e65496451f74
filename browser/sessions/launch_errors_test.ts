import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { BrowserNotFoundError } from "../../cdp/discovery.ts";
import { BrowserStartError } from "../../cdp/errors.ts";
import { BrowserInstallError } from "../../cdp/install_browser.ts";
import { ToolError } from "../tool_error.ts";
import { launchToolError } from "./launch_errors.ts";

function mapped(e: unknown): ToolError {
  const t = launchToolError(e);
  if (!(t instanceof ToolError)) throw new Error(`not a ToolError: ${t}`);
  return t;
}

Deno.test("launchToolError(): a browser missing libraries gets the apt-get line as next step", () => {
  const t = mapped(
    new BrowserStartError(
      'Cannot start Chromium "/c/chrome": it exited with code 127: /c/chrome: error while ' +
        "loading shared libraries: libgbm.so.1: cannot open shared object file",
    ),
  );
  assertEquals(t.code, "browser-unavailable");
  assertIncludes(t.hint, "apt-get install -y libgbm1");
  const i = mapped(new BrowserInstallError("x", { aptGet: "apt-get install -y libnss3" }));
  assertIncludes(i.hint, "apt-get install -y libnss3");
});

Deno.test("launchToolError(): no browser found says how to install one", () => {
  const t = mapped(new BrowserNotFoundError(["/usr/bin/chromium"]));
  assertEquals(t.code, "browser-unavailable");
  assertIncludes(t.message, "browxai install-browser");
  assertIncludes(t.hint, "browxai install-browser");
});
