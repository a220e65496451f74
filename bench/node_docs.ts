/**
 * The Node.js API docs from Debian's `nodejs-doc` package, as large real pages: fetched with
 * `apt-get download` into `bench/.cache/` and unpacked with `dpkg-deb -x`. The package is never
 * installed (installing it would replace the machine's Node.js).
 *
 * @module
 */
import { dirname, fromFileUrl, join } from "../tests/_paths.ts";

/** The bench's cache folder (gitignored). */
export const CACHE_DIR: string = join(dirname(fromFileUrl(import.meta.url)), ".cache");
const UNPACKED = join(CACHE_DIR, "nodejs-doc");
/** Where the API pages land once unpacked. */
export const NODE_API_DIR: string = join(UNPACKED, "usr", "share", "doc", "nodejs", "api");

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function run(cmd: string, args: string[], cwd: string): Promise<Deno.CommandOutput> {
  return await new Deno.Command(cmd, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
}

function tail(out: Deno.CommandOutput): string {
  return new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
}

/**
 * Returns the folder holding `fs.html`, `all.html` and `assets/`, downloading and unpacking
 * `nodejs-doc` the first time (`apt-get download`, retried once after `apt-get update`).
 *
 * @throws Error naming the failed command (no apt, no network, …).
 */
export async function ensureNodeDocs(): Promise<string> {
  if (await exists(join(NODE_API_DIR, "all.html"))) return NODE_API_DIR;
  await Deno.mkdir(CACHE_DIR, { recursive: true });
  const debs = () =>
    [...Deno.readDirSync(CACHE_DIR)].filter((e) => /^nodejs-doc_.*\.deb$/.test(e.name));
  if (!debs().length) {
    let out = await run("apt-get", ["download", "nodejs-doc"], CACHE_DIR);
    if (!out.success) {
      await run("apt-get", ["update"], CACHE_DIR);
      out = await run("apt-get", ["download", "nodejs-doc"], CACHE_DIR);
    }
    if (!out.success) throw new Error(`apt-get download nodejs-doc failed: ${tail(out)}`);
  }
  const deb = debs().map((e) => e.name).sort().at(-1)!;
  const out = await run("dpkg-deb", ["-x", deb, UNPACKED], CACHE_DIR);
  if (!out.success) throw new Error(`dpkg-deb -x ${deb} failed: ${tail(out)}`);
  if (!(await exists(join(NODE_API_DIR, "all.html")))) {
    throw new Error(`nodejs-doc unpacked, but ${NODE_API_DIR}/all.html is missing`);
  }
  return NODE_API_DIR;
}
