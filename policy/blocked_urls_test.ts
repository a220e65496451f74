import { assertEquals } from "../tests/_assert.ts";
import { blockedFetchPatterns, blockedUrlPatterns } from "./blocked_urls.ts";
import { matchesPattern, parseAllowedOrigins } from "./sites.ts";

Deno.test("blockedUrlPatterns: one pattern per scheme, as the entry is parsed", () => {
  const list = parseAllowedOrigins(
    "localhost,*.ads.example.com,https://x.test:8443,[::1],file://*",
  );
  assertEquals(blockedUrlPatterns(list), [
    "http://localhost:*/*",
    "http://localhost.:*/*",
    "https://localhost:*/*",
    "https://localhost.:*/*",
    "http://*.ads.example.com:*/*",
    "http://*.ads.example.com.:*/*",
    "https://*.ads.example.com:*/*",
    "https://*.ads.example.com.:*/*",
    "https://x.test:8443/*",
    "https://x.test.:8443/*",
    "http://[\\:\\:1]:*/*",
    "https://[\\:\\:1]:*/*",
  ]);
});

Deno.test("blockedUrlPatterns: a URLPattern matches exactly what the policy matcher does", () => {
  const list = parseAllowedOrigins(
    "localhost,*.ads.example.com,https://x.test:443,[::1]:8080,169.254.169.254,[::ffff:10.0.0.1]",
  );
  const urls = [
    "http://localhost/",
    "http://localhost:5173/x?y=1#z",
    "https://localhost:1/",
    "ws://localhost/",
    "http://localhost.:8802/x",
    "http://a.ads.example.com./",
    "http://localhost.evil.test/",
    "http://ads.example.com/",
    "http://a.b.ads.example.com:81/i.png",
    "http://evil.test/a.ads.example.com/",
    "https://x.test/",
    "https://x.test:8443/",
    "http://x.test/",
    "http://[::1]:8080/",
    "http://[::1]/",
    "http://127.0.0.1/",
    // An IPv4 address reached as its IPv4-mapped IPv6 literal is that address, either way.
    "http://169.254.169.254/latest",
    "http://[::ffff:169.254.169.254]/latest",
    "http://[::ffff:a9fe:a9fe]:80/",
    "http://10.0.0.1/",
    "http://[::ffff:a00:1]/",
    "http://[::ffff:a00:2]/",
  ];
  const patterns = blockedUrlPatterns(list).map((p) => new URLPattern(p));
  for (const url of urls) {
    assertEquals(
      patterns.some((p) => p.test(url)),
      list.some((p) => matchesPattern(url, p)),
      url,
    );
  }
});

/** Whether a `Fetch.RequestPattern` glob (`*` any run, `?` one character) matches `url`. */
function globMatches(glob: string, url: string): boolean {
  const re = glob.replace(
    /\\(.)|([*?])|([^\\*?]+)/g,
    (_, esc, wild, lit) =>
      esc
        ? esc.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        : wild
        ? (wild === "*" ? ".*" : ".")
        : lit.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
  );
  return new RegExp(`^${re}$`).test(url);
}

Deno.test("blockedFetchPatterns: the Fetch globs match every URL the policy blocks", () => {
  const list = parseAllowedOrigins(
    "localhost,*.ads.example.com,https://x.test:443,[::1]:8080,169.254.169.254,127.0.0.1:9000",
  );
  const globs = blockedFetchPatterns(list);
  assertEquals(globs.includes("https://x.test/*"), true, "the default port is left unwritten");
  const urls = [
    "http://localhost/",
    "http://localhost:8080/a?b",
    "https://localhost./x",
    "http://a.ads.example.com/x",
    "https://x.test/p",
    "http://[::1]:8080/",
    "http://169.254.169.254/latest",
    "http://[::ffff:a9fe:a9fe]/latest",
    "http://127.0.0.1:9000/k",
    "http://127.0.0.1:9001/k",
    "https://x.test:8443/p",
    "http://example.com/",
  ];
  for (const url of urls) {
    const blocked = list.some((p) => matchesPattern(url, p));
    if (blocked) assertEquals(globs.some((g) => globMatches(g, url)), true, url);
  }
  assertEquals(globs.some((g) => globMatches(g, "http://example.com/")), false);
});
