/**
 * The attacks on secrets masking, performed over MCP stdio against real
 * Chromium: guessing a filled secret through filters, waits and selectors
 * and attribute-value selectors and URL globs (right and wrong guesses must
 * answer alike; text_search too; reading it off a screenshot is secrets_screenshot_test.ts's),
 * filling an origin-bound secret on another origin
 * (refused), and catastrophic or oversized regular expressions (refused or cut
 * at a work budget; another session's call is not held up).
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

const KEY = "Zq7-hunter-Wv3x";
const BOUND = "B0und-S3cret-Val";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("secrets: oracles give no signal, bound secrets stay home", async (t) => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-oracle-ws-" });
  // Two origins on 127.0.0.1: the fixture pair's second server listens there too.
  const home = fx.origin;
  const away = fx.crossOrigin.replace("localhost", "127.0.0.1");
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `KEY=${KEY}\nBOUND@${home}=${BOUND}\n`, { mode: 0o600 });
  let mcp: McpHarness | undefined;
  try {
    mcp = await startStdio({
      workspace: ws,
      env: {
        BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
        BROWX_SECRETS: secrets,
        BROWX_TOOLSETS: "all",
      },
    });
    const m = mcp;
    const page = fx.url("secret-oracle.html");
    await m.ok("navigate", { url: page, snapshot: "none" });
    await m.ok("fill", { selector: "#key", value: "{{secret:KEY}}", snapshot: "none" });
    await eventually(
      async () => {
        const r = await m.ok("network_read", { pattern: "api/echo" });
        return (r.entries as unknown[]).length > 0;
      },
      10_000,
      "the page's request with the value",
    );

    await t.step("the filters see masked text: the mask matches, guesses never do", async () => {
      const shown = await m.ok("console_read", { pattern: "key is \\[secret:KEY\\]" });
      assertEquals((shown.entries as unknown[]).length, 1, "the masked text is what is filtered");
      assertTrue((await m.ok("wait_for", { text: "Your key" })).ok, "plain text still matches");
      assertTrue((await m.ok("wait_for", { selector: "text=Secret oracle" })).ok);
    });

    await t.step(
      "a cut never keeps a secret's prefix: result fields, console entries, URLs",
      async () => {
        // The page repeats the value after padding, so each cap falls inside it.
        await m.ok("eval_js", {
          expression: `(() => { const v = document.getElementById("key").value;
          console.log("x".repeat(3994) + v); console.log("w".repeat(16380) + v);
          fetch("/api/echo?" + "a".repeat(4090) + "=" + encodeURIComponent(v)); return 1; })()`,
        });
        await eventually(
          async () => {
            const r = await m.ok("network_read", { pattern: "aaaa" });
            return (r.entries as unknown[]).length > 0;
          },
          10_000,
          "the padded request",
        );
        const field = await m.ok("console_read", { pattern: "^xxxx" });
        const text = JSON.stringify(field);
        assertTrue(!text.includes("Zq7"), text.slice(3990, 4100));
        assertIncludes(text, "[secre");
        for (
          const [tool, right, wrong] of [
            ["console_read", "wZq7", "wXx9"],
            ["console_read", "wZ", "wX"],
            ["network_read", "a=Zq7", "a=Xx9"],
            ["network_read", "a=Z", "a=X"],
          ] as const
        ) {
          const r = await m.ok(tool, { pattern: right });
          const w = await m.ok(tool, { pattern: wrong });
          assertEquals((r.entries as unknown[]).length, (w.entries as unknown[]).length, right);
          assertTrue(!JSON.stringify(r).includes("Zq7"), right);
        }
        // An action's element facts: an editor's text (cut at 200) and a button's (cut at 80).
        await m.ok("eval_js", {
          expression: `(() => { const v = document.getElementById("key").value;
            const ed = document.createElement("div"); ed.id = "cut-ed"; ed.contentEditable = "true";
            ed.textContent = "e".repeat(190) + v; document.body.append(ed);
            const b = document.createElement("button"); b.id = "cut-b";
            b.textContent = "b".repeat(70) + v; document.body.append(b); return 1; })()`,
        });
        for (const id of ["cut-ed", "cut-b"]) {
          const r = await m.ok("click", { selector: `#${id}`, snapshot: "none" });
          const el = JSON.stringify(r.element);
          assertTrue(!el.includes("Zq7") && el.includes(id === "cut-ed" ? "eee" : "bbb"), el);
        }
        await m.ok("eval_js", {
          expression: `["cut-ed", "cut-b"].forEach((id) => document.getElementById(id).remove())`,
        });
        // Cuts made in the page: a snapshot's long text run (split into lines at 4000 chars)
        // and read_form's field value (cut at 1000).
        await m.ok("eval_js", {
          expression: `(() => { const v = document.getElementById("key").value;
            const p = document.createElement("p"); p.id = "cut-p"; p.textContent = "x".repeat(3995) + v;
            const f = document.createElement("form"); f.id = "cut-f";
            const t = document.createElement("textarea"); t.name = "t"; t.value = "t".repeat(995) + v;
            f.append(t); document.body.append(p, f); return 1; })()`,
        });
        const snap = JSON.stringify(await m.ok("snapshot", {}));
        assertTrue(!snap.includes("Zq7") && !snap.includes("unter-Wv3x"), "snapshot: no part");
        assertIncludes(snap, "[secret:KEY]");
        const form = JSON.stringify(await m.ok("read_form", { root: "#cut-f" }));
        assertTrue(!form.includes("Zq7") && form.includes("tttt…"), form.slice(-200));
        await m.ok("eval_js", {
          expression: `["cut-p", "cut-f"].forEach((id) => document.getElementById(id).remove())`,
        });
      },
    );

    await t.step(
      "guessing through console, network, wait_for and text= gets no signal",
      async () => {
        const outcome = async (guess: string) => {
          const strip = (s: R) => {
            const { waitedMs: _w, snapshotDelta, ...rest } = s;
            // The page shown with the answer holds no part of the secret. Its form is not
            // compared: on a loaded machine a short wait's before-picture may run out of its
            // budget, and the page comes whole instead of as a delta (timing, not the guess).
            const shown = JSON.stringify(snapshotDelta ?? "");
            assertTrue(!shown.includes("Zq7") && !shown.includes("hunter"), shown);
            return rest;
          };
          const click = await m.call("click", {
            selector: `text=${guess}`,
            // Long enough that a loaded machine still ends in "not found", not in the deadline.
            timeoutMs: 1000,
            snapshot: "none",
          });
          return JSON.stringify({
            console: (await m.ok("console_read", { pattern: `key is ${escapeRe(guess)}` })).entries,
            network: (await m.ok("network_read", { pattern: `k=${escapeRe(guess)}` })).entries,
            waitText: strip(await m.ok("wait_for", { text: guess, timeoutMs: 300 })),
            waitHidden: strip(
              await m.ok("wait_for", { text: guess, state: "hidden", timeoutMs: 300 }),
            ),
            waitSelector: strip(
              await m.ok("wait_for", { selector: `text=${guess}`, timeoutMs: 300 }),
            ),
            search: (await m.ok("text_search", { query: guess })).total,
            searchPattern: (await m.ok("text_search", { query: escapeRe(guess), regex: true }))
              .total,
            click: click.isError
              ? (click.structuredContent?.error as { code?: string } | undefined)?.code
              : "clicked",
          });
        };
        // Parts only: a whole value in clear is refused as guessing
        // (secret_guess.ts; tests/secrets_guess_test.ts).
        const right = [KEY.slice(0, 5), KEY.slice(-6)];
        const wrong = ["Zq7-x", "er-Wv3"];
        for (const [i, guess] of right.entries()) {
          assertEquals(await outcome(guess), await outcome(wrong[i]!), `guess "${guess}"`);
        }
        const sample = JSON.parse(await outcome(KEY.slice(0, 5)));
        assertEquals(sample.console, [], "no console entry for the value");
        assertEquals(sample.waitText.ok, false);
        assertEquals(sample.click, "not-found");
        assertEquals(sample.search, 0, "text_search searches the masked text");
        const mask = await m.ok("text_search", { query: "[secret:KEY]" });
        assertTrue((mask.total as number) > 0, JSON.stringify(mask));
      },
    );

    await t.step("a placeholder in a wait or a filter is refused", async () => {
      for (
        const [tool, args] of [
          ["wait_for", { text: "{{secret:KEY}}", timeoutMs: 300 }],
          ["console_read", { pattern: "{{secret:KEY}}" }],
          ["wait_for", { selector: "text={{secret:KEY}}", timeoutMs: 300 }],
        ] as const
      ) {
        const r = await m.call(tool, args);
        assertTrue(r.isError, `${tool} ${JSON.stringify(args)} is refused`);
        assertIncludes(textOf(r), "{{secret:");
      }
    });

    await t.step("a bound secret fills on its origin only", async () => {
      await m.ok("navigate", { url: page, snapshot: "none" });
      await m.ok("fill", { selector: "#key", value: "{{secret:BOUND}}", snapshot: "none" });
      await m.ok("navigate", { url: `${away}/secret-oracle.html`, snapshot: "none" });
      for (
        const [tool, args] of [
          ["fill", { selector: "#key", value: "{{secret:BOUND}}" }],
          ["fill_form", { fields: [{ selector: "#key", value: "{{secret:BOUND}}" }] }],
          ["batch", {
            calls: [{ tool: "fill", args: { selector: "#key", value: "{{secret:BOUND}}" } }],
          }],
        ] as const
      ) {
        const r = await m.call(tool, args);
        assertTrue(r.isError, `${tool} on ${away} is refused`);
        assertIncludes(textOf(r), home, `${tool} names the allowed origin`);
      }
      await m.ok("click", { selector: "#key", snapshot: "none" });
      const typed = await m.call("type", { text: "{{secret:BOUND}}" });
      assertTrue(typed.isError, "type into a field of another origin is refused");
      assertIncludes(textOf(typed), `may be filled only on ${home}`);
      const cookie = await m.call("cookies_set", {
        name: "c",
        value: "{{secret:BOUND}}",
        url: home,
      });
      assertTrue(cookie.isError, "a tool that cannot check its origin refuses a bound secret");
      assertIncludes(textOf(cookie), "cannot check the origin it fills");
      const value = await m.ok("eval_js", { expression: `document.getElementById("key").value` });
      assertEquals(value.value, "", "nothing reached the page");
      await m.ok("fill", { selector: "#key", value: "{{secret:KEY}}", snapshot: "none" });
    });

    await t.step(
      "a bound secret is refused in a cross-origin frame of its own origin's page",
      async () => {
        const cross = fx.crossUrl("/frame-child.html");
        await m.ok("navigate", {
          url: fx.url(`iframes.html?cross=${encodeURIComponent(cross)}`),
          snapshot: "none",
        });
        const refs = await eventually(
          async () => {
            const snap = textOf(await m.call("snapshot", {}));
            const found = [...snap.matchAll(/textbox "Inner input" \[ref=(e\d+)\]/g)].map((x) =>
              x[1]!
            );
            return found.length === 2 ? found : null;
          },
          10_000,
          "both frames' inputs in the snapshot",
        );
        await m.ok("fill", { ref: refs[0], value: "{{secret:BOUND}}", snapshot: "none" });
        const r = await m.call("fill", { ref: refs[1], value: "{{secret:BOUND}}" });
        assertTrue(r.isError, "the cross-origin frame is refused");
        assertIncludes(textOf(r), fx.crossOrigin);
        assertIncludes(textOf(r), `may be filled only on ${home}`);
      },
    );

    await t.step("attribute-value selectors and URL globs give no signal", async () => {
      await m.ok("navigate", { url: fx.url("secret-attr.html"), snapshot: "none" });
      await m.ok("fill", { selector: "#k", value: "{{secret:KEY}}", snapshot: "none" });
      await eventually(
        async () => {
          const r = await m.ok("eval_js", { expression: `location.hash.length > 1` });
          return r.value === true;
        },
        10_000,
        "the value in the fragment",
      );
      const strip = (r: ToolResult) => {
        const { waitedMs: _w, ...rest } = (r.structuredContent ?? {}) as R;
        return JSON.stringify({
          isError: r.isError ?? false,
          ...rest,
          text: r.isError ? textOf(r) : "",
        });
      };
      const outcome = async (guess: string) =>
        [
          strip(await m.call("wait_for", { selector: `#k[data-v^="${guess}"]`, timeoutMs: 300 })),
          strip(await m.call("wait_for", { selector: `input[value^=${guess}]`, timeoutMs: 300 })),
          strip(
            await m.call("wait_for", { selector: `:not([data-v*="${guess}"])`, timeoutMs: 300 }),
          ),
          strip(
            await m.call("click", {
              selector: `#k[data-\\76 $="${guess}"]`,
              timeoutMs: 300,
              snapshot: "none",
            }),
          ),
          strip(await m.call("wait_for", { url: `**#${guess}**`, timeoutMs: 300 })),
          // A CSS comment inside the brackets, and a secret after 5000 padding characters.
          strip(
            await m.call("wait_for", { selector: `#k[data-v/**/^="${guess}"]`, timeoutMs: 300 }),
          ),
          strip(await m.call("wait_for", { selector: `[/**/value^=${guess}]`, timeoutMs: 300 })),
          strip(await m.call("hover", { selector: `#k[value^/**/=${guess}]`, snapshot: "none" })),
          strip(
            await m.call("wait_for", { selector: `#big[data-s*="${guess}"]`, timeoutMs: 300 }),
          ),
          strip(await m.call("wait_for", { selector: `[data-h*="${guess}"]`, timeoutMs: 300 })),
        ].join("\n");
      const right = [KEY.slice(0, 3), KEY.slice(-4), KEY.slice(0, -1)];
      const wrong = ["Xx9", "Wv3y", "Zq7-hunter-Wv4"];
      for (const [i, guess] of right.entries()) {
        const r = await outcome(guess);
        assertEquals(
          r.replaceAll(guess, "G"),
          (await outcome(wrong[i]!)).replaceAll(wrong[i]!, "G"),
          guess,
        );
        assertTrue(!r.includes(KEY), r);
      }
      const refused = await m.call("wait_for", { selector: `#k[data-v^="x"]`, timeoutMs: 300 });
      assertTrue(refused.isError, "a value test on an attribute that holds a secret is refused");
      assertIncludes(textOf(refused), 'attribute "data-v"');
      const commented = await m.call("wait_for", { selector: `#k[data-v/**/^="x"]` });
      assertIncludes(textOf(commented), 'attribute "data-v"');
      const odd = await m.call("wait_for", { selector: `#k[data-v^/**/="x"]` });
      assertIncludes(textOf(odd), "must read plainly");
      const padded = await m.call("wait_for", { selector: `#big[data-s*="x"]` });
      assertIncludes(textOf(padded), 'attribute "data-s"');
      const huge = await m.call("wait_for", { selector: `[data-h*="x"]` });
      assertIncludes(textOf(huge), "too many or too long to check");
      // Selectors the page resolves itself (read_form's root) are checked the same way.
      const form = await m.call("read_form", { root: `body:has([value^="${KEY.slice(0, 3)}"])` });
      assertTrue(form.isError, textOf(form));
      assertIncludes(textOf(form), 'attribute "value"');
      // Attributes without a secret still select, and the masked URL matches its mask.
      assertTrue((await m.ok("wait_for", { selector: 'input[aria-label="Other"]' })).ok);
      assertTrue((await m.ok("wait_for", { selector: "#k[data-v]" })).ok);
      assertTrue((await m.ok("wait_for", { url: "**#[secret:KEY]" })).ok, "the mask matches");
    });

    await t.step("a catastrophic pattern answers, and other sessions are not held", async () => {
      await m.ok("navigate", { url: page, snapshot: "none" });
      await m.ok("click", { selector: "#long", snapshot: "none" });
      await m.ok("open_session", { session: "other" });
      const [evil, other] = await Promise.all([
        m.call("console_read", { pattern: "(a+)+$" }),
        m.call("console_read", { session: "other" }),
      ]);
      assertTrue(!evil.isError && !other.isError, textOf(evil) + textOf(other));
      assertEquals(evil.structuredContent!.entries, [], "no message ends in a");
      const glob = await m.ok("wait_for", {
        url: "**a**a**a**a**a**a**a**a**a**a**a**a**b",
        timeoutMs: 200,
      });
      assertEquals(glob.ok, false);
      // The red team's RE2 patterns: 360,000 and 10,000 instructions (11 s and 2.4 s of
      // blocked event loop) are refused and say what to do.
      const alt = "(?:" + Array.from({ length: 180 }, () => "x{0,1000}").join("|") + ")y";
      for (const pattern of [alt, ".{1000}".repeat(10) + "b"]) {
        const big = await m.call("console_read", { pattern });
        assertTrue(big.isError, "an oversized program is refused");
        assertIncludes(textOf(big), "RE2 instructions");
        assertIncludes(textOf(big), "use * or + instead of large counts");
      }
      // An accepted costly one (2,000 instructions over a 4,001-character message) stops at the
      // work budget and says so, while another session's call answers.
      const [costly, beside] = await Promise.all([
        m.call("console_read", { pattern: "a{0,1000}!" }),
        m.call("list_sessions", {}),
      ]);
      assertTrue(!costly.isError && !beside.isError, textOf(costly) + textOf(beside));
      assertEquals(costly.structuredContent!.truncatedScan, true, textOf(costly));
      const backref = await m.call("console_read", { pattern: "(a)\\1" });
      assertTrue(backref.isError);
      assertIncludes(textOf(backref), "backreferences");
    });
  } finally {
    await mcp?.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
