/**
 * Test set-up: makes sure a Chromium is there before the suite runs. On a
 * Debian/Ubuntu machine where we are root, installs Debian's `chromium`;
 * elsewhere says what to install. Never installs anything else.
 *
 * @module
 */
import { BrowserNotFoundError, findChromium } from "../cdp/discovery.ts";

async function run(cmd: string, args: string[]): Promise<boolean> {
  const status = await new Deno.Command(cmd, {
    args,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
    env: { DEBIAN_FRONTEND: "noninteractive" },
  }).spawn().status;
  return status.success;
}

function hasAptGet(): boolean {
  try {
    return Deno.statSync("/usr/bin/apt-get").isFile;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  try {
    const found = findChromium();
    console.error(`browxai tests: using ${found.path} (${found.source})`);
  } catch (e) {
    if (!(e instanceof BrowserNotFoundError)) throw e;
    if (Deno.build.os === "linux" && hasAptGet() && Deno.uid() === 0) {
      console.error("browxai tests: no Chromium found; installing Debian's chromium");
      const ok = await run("apt-get", ["update"]) &&
        await run("apt-get", [
          "install",
          "-y",
          "--no-install-recommends",
          "chromium",
          "fonts-liberation",
        ]);
      if (!ok) {
        console.error("browxai tests: apt-get install chromium failed");
        Deno.exit(1);
      }
      console.error(`browxai tests: using ${findChromium().path}`);
    } else {
      console.error(`browxai tests: ${e.message}`);
      Deno.exit(1);
    }
  }
}
