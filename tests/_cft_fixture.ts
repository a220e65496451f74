/**
 * A local Chrome for Testing mirror for the install tests: serves archives in
 * CfT's layout (`/<build>/linux64/chrome-headless-shell-linux64.zip`) from
 * 127.0.0.1, built by the test with `zip`. The archive's "browser" is a small
 * launcher script named like the CfT binary that execs the machine's Chromium
 * with its arguments (so the zip stays tiny), plus a random filler file so
 * the download comes in several chunks (progress).
 *
 * @module
 */
import { findChromium } from "../cdp/discovery.ts";
import { PINNED_BUILD } from "../cdp/install_browser.ts";
import { join } from "./_paths.ts";

/** What the mirror serves for the archive. */
export type ArchiveMode = "ok" | "truncated" | "corrupt" | "missing-libs";

/** A running mirror. */
export interface CftMirror {
  /** Base URL for `BROWX_BROWSER_MIRROR`. */
  url: string;
  /** Archive requests seen so far. */
  archiveRequests: number;
  /** What the archive request gets (switchable between installs). */
  mode: ArchiveMode;
  /** When set, an archive response waits for this promise first. */
  hold: Promise<void> | undefined;
  /** When set, served as `<archive>.sha256`. */
  sha256: string | undefined;
  /** The good archive's bytes. */
  archive: Uint8Array;
  close(): Promise<void>;
}

/** The archive path of the pinned headless-shell build on linux64. */
export const ARCHIVE_PATH = `/${PINNED_BUILD}/linux64/chrome-headless-shell-linux64.zip`;

async function zipOf(script: string, fillerBytes: number): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "browxai-cft-" });
  try {
    const folder = join(dir, "chrome-headless-shell-linux64");
    await Deno.mkdir(folder);
    const exe = join(folder, "chrome-headless-shell");
    await Deno.writeTextFile(exe, script);
    await Deno.chmod(exe, 0o755);
    const filler = new Uint8Array(fillerBytes);
    for (let i = 0; i < filler.length; i += 65536) {
      crypto.getRandomValues(filler.subarray(i, Math.min(i + 65536, filler.length)));
    }
    await Deno.writeFile(join(folder, "filler.bin"), filler);
    const out = await new Deno.Command("zip", {
      args: ["-qr", "a.zip", "chrome-headless-shell-linux64"],
      cwd: dir,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`zip failed: ${new TextDecoder().decode(out.stderr)}`);
    return await Deno.readFile(join(dir, "a.zip"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Starts the mirror; its good archive launches the Chromium discovery finds on this machine. */
export async function startCftMirror(): Promise<CftMirror> {
  const chromium = findChromium().path;
  const archive = await zipOf(`#!/bin/sh\nexec "${chromium}" "$@"\n`, 2_000_000);
  const missingLibs = await zipOf(
    "#!/bin/sh\necho 'chrome-headless-shell: error while loading shared libraries: libnss3.so: " +
      "cannot open shared object file: No such file or directory' >&2\nexit 127\n",
    1000,
  );
  const corrupt = new Uint8Array(archive.length);
  crypto.getRandomValues(corrupt.subarray(0, 65536));
  const ac = new AbortController();
  const mirror: CftMirror = {
    url: "",
    archiveRequests: 0,
    mode: "ok",
    hold: undefined,
    sha256: undefined,
    archive,
    close: async () => {
      ac.abort();
      await server.finished;
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (path === `${ARCHIVE_PATH}.sha256`) {
        return mirror.sha256
          ? new Response(`${mirror.sha256}  chrome-headless-shell-linux64.zip\n`)
          : new Response("not found", { status: 404 });
      }
      if (path !== ARCHIVE_PATH) return new Response("not found", { status: 404 });
      mirror.archiveRequests++;
      if (mirror.hold) await mirror.hold;
      const body = mirror.mode === "truncated"
        ? archive.slice(0, archive.length >> 1)
        : mirror.mode === "corrupt"
        ? corrupt
        : mirror.mode === "missing-libs"
        ? missingLibs
        : archive;
      return new Response(body as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/zip" },
      });
    },
  );
  mirror.url = `http://127.0.0.1:${server.addr.port}`;
  return mirror;
}

/** The SHA-256 of bytes, lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every entry of a folder, recursively, as paths relative to it (sorted). */
export function listTree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      out.push(rel);
      if (e.isDirectory) out.push(...listTree(join(dir, e.name), rel));
    }
  } catch { /* missing: empty */ }
  return out.sort();
}
