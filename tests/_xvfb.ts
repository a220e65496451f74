/**
 * A virtual display for tests of shown (headful) browsers on a machine without a screen: Xvfb
 * (`apt-get install -y xvfb`; `.ci/run` installs it). Tests that need one skip, saying why,
 * when Xvfb is not installed.
 *
 * @module
 */

/** A running Xvfb: its `DISPLAY` value, and a way to stop it. */
export interface VirtualDisplay {
  /** `:N`, for a child's `DISPLAY`. */
  display: string;
  close(): Promise<void>;
}

/** The Xvfb executable, when installed. */
export function xvfbPath(): string | undefined {
  for (const p of ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why a headful test is skipped here, or undefined when it can run. */
export const NO_DISPLAY_REASON: string | undefined = xvfbPath()
  ? undefined
  : "Xvfb is not installed (apt-get install -y xvfb): headful browsers cannot be tested here";

/**
 * Starts Xvfb on a free display number (`-displayfd`: Xvfb picks it and prints it).
 *
 * @throws Error when Xvfb is not installed or does not start within 10 s.
 */
export async function startXvfb(): Promise<VirtualDisplay> {
  const path = xvfbPath();
  if (!path) throw new Error(NO_DISPLAY_REASON);
  const child = new Deno.Command(path, {
    args: ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("Xvfb exited before it printed its display");
      text += new TextDecoder().decode(value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  // Nothing more is read from its stdout.
  child.stdout.cancel().catch(() => {});
  return {
    display: `:${text.trim()}`,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch {
        // gone already
      }
      await child.status;
    },
  };
}
