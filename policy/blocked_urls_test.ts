import { assertEquals } from "../tests/_assert.ts";
import { blockedFetchPatterns, blockedUrlPatterns } from "./blocked_urls.ts";
import { matchesPattern, parseAllowedOrigins } from "./sites.ts";

Deno.test("blockedUrlPatterns: one pattern per scheme, as the entry is parsed", () => {
  const list = parseAllowedOrigins(
    "intranet,*.ads.example.com,https://x.test:8443,[fd00::1],file://*",
  );
  assertEquals(blockedUrlPatterns(list), [
    "http://intranet:*/*",
    "http://intranet.:*/*",
    "https://intranet:*/*",
    "https://intranet.:*/*",
    "http://*.ads.example.com:*/*",
    "http://*.ads.example.com.:*/*",
    "https://*.ads.example.com:*/*",
    "https://*.ads.example.com.:*/*",
    "https://x.test:8443/*",
    "https://x.test.:8443/*",
    "http://[fd00\\:\\:1]:*/*",
    "https://[fd00\\:\\:1]:*/*",
  ]);
});

Deno.test("blockedUrlPatterns: a loopback entry blocks every loopback name on its port", () => {
  const hosts = [
    "localhost",
    "localhost.",
    "*.localhost",
    "*.localhost.",
    "127.0.0.1",
    "[\\:\\:ffff\\:7f00\\:1]",
    "0.0.0.0",
    "[\\:\\:ffff\\:0\\:0]",
    "[\\:\\:1]",
    "[\\:\\:]",
  ];
  for (const entry of ["127.0.0.1:9000", "localhost:9000", "x.localhost:9000", "[::1]:9000"]) {
    const got = blockedUrlPatterns(parseAllowedOrigins(`http://${entry}`));
    for (const h of hosts) assertEquals(got.includes(`http://${h}:9000/*`), true, `${entry} ${h}`);
    assertEquals(got.some((p) => p.startsWith("https:") || !p.includes(":9000/")), false, entry);
  }
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
    // Loopback aliases of the loopback entries (127.0.0.2 and the like: the Fetch globs only).
    "http://x.localhost:3/",
    "http://a.b.localhost.:4/",
    "http://0.0.0.0/",
    "http://[::]:8080/",
    "http://[::ffff:7f00:1]:9/",
    "http://[::ffff:0:0]/",
    "http://localhostx/",
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
      list.some((p) => matchesPattern(url, p, { loopbackAliases: true })),
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
    // The same listeners by other names (red team s17 F5).
    "http://localhost:9000/k",
    "http://x.localhost.:9000/k",
    "http://0.0.0.0:9000/k",
    "http://127.0.0.2:9000/k",
    "http://127.255.0.9:9000/k",
    "http://[::ffff:7f00:2]:9000/k",
    "http://[::]:9000/k",
    "https://x.test:8443/p",
    "http://example.com/",
  ];
  for (const url of urls) {
    const blocked = list.some((p) => matchesPattern(url, p, { loopbackAliases: true }));
    if (blocked) assertEquals(globs.some((g) => globMatches(g, url)), true, url);
  }
  assertEquals(globs.some((g) => globMatches(g, "http://example.com/")), false);
});

Deno.test("a loopback entry: its port by every loopback name, no other port or host", () => {
  const list = parseAllowedOrigins("127.0.0.1:9000");
  const globs = blockedFetchPatterns(list);
  const blocked = (url: string) =>
    list.some((p) => matchesPattern(url, p, { loopbackAliases: true }));
  for (
    const url of [
      "http://127.0.0.1:9000/",
      "http://localhost:9000/",
      "http://x.localhost:9000/",
      "http://localhost.:9000/",
      "http://0.0.0.0:9000/",
      "http://127.0.0.2:9000/",
      "http://127.1:9000/",
      "http://0x7f.1:9000/",
      "http://[::1]:9000/",
      "http://[::]:9000/",
      "http://[::ffff:127.0.0.3]:9000/",
      "https://localhost:9000/",
    ]
  ) {
    const canonical = new URL(url).href;
    assertEquals(blocked(canonical), true, url);
    assertEquals(globs.some((g) => globMatches(g, canonical)), true, url);
  }
  for (const url of ["http://localhost:9001/", "http://127.0.0.1/", "http://10.0.0.1:9000/"]) {
    assertEquals(blocked(url), false, url);
  }
  // The allowlist admits only the spelling listed: an alias may be another listener.
  assertEquals(list.some((p) => matchesPattern("http://localhost:9000/", p)), false);
  assertEquals(list.some((p) => matchesPattern("http://127.0.0.1:9000/", p)), true);
});
