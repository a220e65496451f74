/**
 * Lists the requests a Chromium started with browxai's switches sends on its own, with no page
 * open: it is pointed at a local proxy that records each request line (and a POST's JSON
 * body, which names the component asked for) and refuses it.
 *
 * Usage: `deno run -A scripts/background_requests.ts [seconds=60] [chromium path]`
 * Prints one line per request, `<s since launch> <request line>`, or `(none)`.
 *
 * @module
 */
import { chromiumArgs } from "../cdp/chromium_args.ts";

const seconds = Number(Deno.args[0] ?? 60);
const executable = Deno.args[1] ?? Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium";
const seen: string[] = [];
const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
const t0 = Date.now();
(async () => {
  for await (const conn of listener) {
    (async () => {
      const buf = new Uint8Array(8192);
      const n = await conn.read(buf).catch(() => null);
      if (n) {
        const lines = new TextDecoder().decode(buf.subarray(0, n)).split("\r\n");
        const body = lines.find((l) => l.startsWith("{"))?.slice(0, 400) ?? "";
        seen.push(`${((Date.now() - t0) / 1000).toFixed(1)}s ${lines[0]} ${body}`.trimEnd());
      }
      conn.close();
    })();
  }
})();
const profile = await Deno.makeTempDir({ prefix: "browxai-bg-" });
const args = chromiumArgs({ userDataDir: profile, args: [`--proxy-server=127.0.0.1:${port}`] })
  .map((a) => a === "--remote-debugging-pipe" ? "--remote-debugging-port=0" : a);
const child = new Deno.Command(executable, {
  args: [...args, "about:blank"],
  stdout: "null",
  stderr: "null",
}).spawn();
// The point is to watch a set time span: there is no condition to wait on.
await new Promise((r) => setTimeout(r, seconds * 1000));
child.kill("SIGKILL");
await child.status;
await Deno.remove(profile, { recursive: true }).catch(() => {});
console.log(seen.join("\n") || "(none)");
Deno.exit(0);
