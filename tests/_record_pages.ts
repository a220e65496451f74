/**
 * The pages the recording tests load, served on 127.0.0.1.
 *
 * @module
 */

/** A secret the HAR tests register (`KEY`). */
export const SECRET = "hunter2-s3cr3t-9Q";
/** An API key no secret store knows: left out of a HAR by its header's name. */
export const API_KEY = "ak-live-PLAIN-4242";

/** A 2×2 red PNG. */
const PNG_BYTES = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8AARAwMDAwMAA/wAf9rK5s6AAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

/**
 * Pages of the recording tests: `/net.html` (an image, a fetch carrying {@link SECRET} and
 * {@link API_KEY}, a POST), `/long.html`, `/img.png`, and a plain blue box elsewhere.
 */
export function startPages() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const html = (body: string) =>
      new Response(`<!doctype html>${body}`, { headers: { "content-type": "text/html" } });
    switch (url.pathname) {
      case "/img.png":
        return new Response(PNG_BYTES, { headers: { "content-type": "image/png" } });
      case "/api/data":
        return Response.json({ ok: true, echoed: url.searchParams.get("token") });
      case "/api/save":
        return Response.json({ saved: true });
      case "/net.html":
        return new Response(
          `<!doctype html><title>Net page</title><h1>Network</h1><img src="/img.png" id="pic">
<script>
fetch("/api/data?token=${SECRET}", { headers: { "X-Token": "${SECRET}", "X-Api-Key": "${API_KEY}" } })
  .then((r) => r.json())
  .then(() => fetch("/api/save?draft=yes", { method: "POST", body: "note=hello" }))
  .then(() => { document.title = "fetched"; });
</script>`,
          { headers: { "content-type": "text/html", "set-cookie": "sid=abc123cookie; Path=/" } },
        );
      case "/long.html":
        return html(
          `<title>Long "Report" / 2026</title><h1>Report</h1>${
            Array.from({ length: 120 }, (_, i) => `<p>Paragraph ${i} of the report.</p>`).join("")
          }`,
        );
      default:
        return html(`<title>Plain</title><body style="margin:0;background:#fff">
<div style="width:300px;height:200px;background:rgb(0,128,255)">box</div></body>`);
    }
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { url: (p: string) => origin + p, close: () => server.shutdown() };
}
