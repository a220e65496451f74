/**
 * A headless Chromium's user agent without the "HeadlessChrome" token: what the same build
 * sends with a window. Passed as `--user-agent` at launch, which (unlike a CDP override
 * without metadata) keeps `navigator.userAgentData` and the `Sec-CH-UA` headers as they are.
 *
 * @module
 */

/** The platform part of Chrome's reduced user agent on this OS. */
function platformToken(os: typeof Deno.build.os): string {
  if (os === "darwin") return "Macintosh; Intel Mac OS X 10_15_7";
  if (os === "windows") return "Windows NT 10.0; Win64; x64";
  return "X11; Linux x86_64";
}

/**
 * Chrome's reduced user agent for a major version: `Mozilla/5.0 (X11; Linux x86_64)
 * AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36`.
 */
export function chromeUserAgent(major: number, os: typeof Deno.build.os = Deno.build.os): string {
  return `Mozilla/5.0 (${platformToken(os)}) AppleWebKit/537.36 (KHTML, like Gecko) ` +
    `Chrome/${major}.0.0.0 Safari/537.36`;
}

/**
 * The major version of a Chromium executable, from `PATH --version` ("Chromium
 * 156.0.8078.114 …"); undefined when it does not answer with one within 5 s.
 */
export async function chromiumMajor(executablePath: string): Promise<number | undefined> {
  try {
    const out = await new Deno.Command(executablePath, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(5000),
    }).output();
    const m = /\b(\d{2,4})\.\d+\.\d+\.\d+\b/.exec(new TextDecoder().decode(out.stdout));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
