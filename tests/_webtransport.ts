/**
 * A WebTransport server on 127.0.0.1 for the secret guard's tests: a fresh P-256 certificate
 * (made with openssl, valid 10 days: Chromium takes a pinned `serverCertificateHashes`
 * certificate of at most 14) and `tests/fixtures/webtransport_server.ts` in its own process.
 */
import { join } from "node:path";
import { assertEquals } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { eventually } from "./_util.ts";

/** The running server. */
export interface WebTransportServer {
  /** `https://127.0.0.1:<port>` (UDP). */
  origin: string;
  /** The certificate's SHA-256 (hex), for the page's `serverCertificateHashes`. */
  hash: string;
  /** What the server printed: `SESSION <url>` and `DATAGRAM <text>` lines. */
  lines: string[];
  close(): Promise<void>;
}

async function openssl(args: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const out = await new Deno.Command("openssl", { args, stdout: "piped", stderr: "piped" })
    .output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return out.stdout;
}

/** Starts the server (its certificate in a temp dir removed by `close`). */
export async function startWebTransport(): Promise<WebTransportServer> {
  const dir = await Deno.makeTempDir({ prefix: "browxai-test-wt-" });
  const cert = join(dir, "cert.pem"), key = join(dir, "key.pem");
  // deno-fmt-ignore
  await openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
    "-nodes", "-days", "10", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", key, "-out", cert]);
  const der = await openssl(["x509", "-in", cert, "-outform", "DER"]);
  const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", der))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-net=127.0.0.1",
      "--unstable-net",
      join(ROOT, "tests/fixtures/webtransport_server.ts"),
      cert,
      key,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines: string[] = [];
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
    }
  })();
  const port = await eventually(
    () => lines.find((l) => l.startsWith("PORT "))?.slice(5),
    20_000,
    "the WebTransport server's port",
  );
  return {
    origin: `https://127.0.0.1:${port}`,
    hash,
    lines,
    close: async () => {
      child.kill();
      await child.status;
      await reading;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
