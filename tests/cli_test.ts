import { assertEquals, assertIncludes, assertThrows, assertTrue } from "./_assert.ts";
import { ROOT, startStdio } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { parseCli, UsageError } from "../main.ts";

async function run(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts"), ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("cli: --help prints usage on stdout and exits 0", async () => {
  const r = await run(["--help"]);
  assertEquals(r.code, 0);
  assertIncludes(r.stdout, "Usage: browxai");
  // Every variable of README's configuration table is listed, so --help stays in step with it.
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const table = readme.split("\n").filter((l) => l.startsWith("| `") && l.includes("BROWX_"));
  const names = new Set(table.flatMap((l) => l.split("|")[1]!.match(/BROWX_[A-Z_]+/g) ?? []));
  for (const name of ["BROWX_SECRETS", "BROWX_ALLOWED_ORIGINS", "BROWX_CONFIRM_REQUIRED"]) {
    assertTrue(names.has(name), `README's table lists ${name}`);
  }
  for (const name of names) assertIncludes(r.stdout, name);
  assertIncludes(r.stdout, "CHROME_PATH");
});

Deno.test("cli: --version prints the version", async () => {
  const r = await run(["--version"]);
  assertEquals(r.code, 0);
  assertIncludes(r.stdout, "browxai 0.");
});

Deno.test("cli: unknown flags and bad values exit 2 with a one-line error and usage", async () => {
  const cases: [string[], Record<string, string>, string][] = [
    [["--bogus"], {}, "Unknown option '--bogus'"],
    [["--http", "--port", "99999"], {}, 'Invalid --port "99999"'],
    [["--http", "--port", "abc"], {}, 'Invalid --port "abc"'],
    [["--port", "80"], {}, "--host and --port need --http"],
    [["--cdp-endpoint", "nonsense"], {}, 'Invalid --cdp-endpoint "nonsense"'],
    [[], { BROWX_CAPABILITIES: "read,fly" }, 'Unknown capability "fly"'],
    [[], { BROWX_TOOLSETS: "core,nope" }, 'Unknown toolset "nope"'],
    [
      [],
      { BROWX_DEVTOOLS_CONFIRM: "yes" },
      'Invalid BROWX_DEVTOOLS_CONFIRM "yes": expected 1 or 0',
    ],
    [[], { BROWX_DEVTOOLS_CONFIRM: "2" }, 'Invalid BROWX_DEVTOOLS_CONFIRM "2"'],
    [[], { BROWX_CONFIRM_ELICITATION: "no" }, 'Invalid BROWX_CONFIRM_ELICITATION "no"'],
    [["stray"], {}, "Unexpected argument 'stray'"],
    [["--console=99999"], {}, 'Invalid --console "99999"'],
    [["--http", "--console", "9999"], {}, "--console is for stdio mode"],
    [["--console", "x"], {}, "Unexpected argument 'x'"],
    [[], { BROWX_CONSOLE: "yes" }, 'Invalid BROWX_CONSOLE "yes"'],
    // A wildcard over IP addresses would allow 127.0.0.1 and 10.0.0.1 alike; over a public
    // suffix, every site under it.
    [[], { BROWX_ALLOWED_ORIGINS: "*.0.0.1" }, '"*.0.0.1": a wildcard needs a domain name'],
    [[], { BROWX_ALLOWED_ORIGINS: "127.0.0.1,*.com" }, '"*.com": a wildcard needs at least'],
    [[], { BROWX_ALLOWED_ORIGINS: "*.co.uk" }, "Invalid BROWX_ALLOWED_ORIGINS"],
    [[], { BROWX_ALLOWED_ORIGINS: "*.github.io" }, '"*.github.io": a wildcard needs'],
  ];
  for (const [args, env, message] of cases) {
    const r = await run(args, env);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assertEquals(r.stdout, "", "nothing on stdout");
    const first = r.stderr.split("\n")[0]!;
    assertIncludes(first, message);
    assertIncludes(r.stderr, "Usage: browxai");
  }
});

Deno.test("cli: bad numeric BROWX_* values, an empty or unusable workspace, empty capabilities exit 2", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ BROWX_HTTP_MAX_CLIENTS: "-1" }, 'Invalid BROWX_HTTP_MAX_CLIENTS "-1": expected an integer'],
    [{ BROWX_HTTP_MAX_CLIENTS: "abc" }, 'Invalid BROWX_HTTP_MAX_CLIENTS "abc"'],
    [{ BROWX_HTTP_MAX_CLIENTS: "0" }, "1-10000"],
    [
      { BROWX_HTTP_BODY_TIMEOUT_MS: "3000000000" },
      'Invalid BROWX_HTTP_BODY_TIMEOUT_MS "3000000000"',
    ],
    [{ BROWX_HTTP_BODY_TIMEOUT_MS: "-5" }, "100-86400000"],
    [{ BROWX_HTTP_IDLE_MS: "1" }, 'Invalid BROWX_HTTP_IDLE_MS "1"'],
    [{ BROWX_HTTP_INIT_TTL_MS: "1.5" }, 'Invalid BROWX_HTTP_INIT_TTL_MS "1.5"'],
    [{ BROWX_HTTP_HEAD_TIMEOUT_MS: "" }, 'Invalid BROWX_HTTP_HEAD_TIMEOUT_MS ""'],
    [{ BROWX_MAX_SESSIONS: "0" }, 'Invalid BROWX_MAX_SESSIONS "0": expected an integer'],
    [{ BROWX_SESSION_IDLE_MS: "5" }, 'Invalid BROWX_SESSION_IDLE_MS "5"'],
    [{ BROWX_WORKSPACE: "" }, "Invalid BROWX_WORKSPACE: empty"],
    [
      { BROWX_WORKSPACE: "/dev/null" },
      'Invalid workspace (--workspace or BROWX_WORKSPACE) "/dev/null"',
    ],
    [{ BROWX_WORKSPACE: "/dev/null/sub" }, "Invalid workspace"],
    [{ BROWX_CAPABILITIES: "" }, "Invalid BROWX_CAPABILITIES: empty"],
  ];
  const cwd = await Deno.makeTempDir({ prefix: "browxai-cli-" });
  try {
    for (const [env, message] of cases) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", join(ROOT, "main.ts"), "--http", "--port", "0"],
        env: { BROWX_WORKSPACE: join(cwd, "ws"), ...env },
        cwd,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const err = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 2, `${JSON.stringify(env)}: ${err}`);
      assertIncludes(err.split("\n")[0]!, message);
      assertTrue(!err.includes("    at "), `a stack trace: ${err}`);
    }
    // Nothing was written into the working directory (an empty workspace once meant the cwd).
    const left = [];
    for await (const e of Deno.readDir(cwd)) left.push(e.name);
    assertEquals(left.filter((n) => n !== "ws"), []);
  } finally {
    await Deno.remove(cwd, { recursive: true }).catch(() => {});
  }
});

Deno.test("cli: --console takes an optional port (alone: a free one), BROWX_CONSOLE too; --http refuses the flag, ignores the variable", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assertEquals(parseCli([], env({})).consolePort, undefined);
  assertEquals(parseCli(["--console"], env({})).consolePort, 0);
  assertEquals(parseCli(["--console", "8123"], env({})).consolePort, 8123);
  assertEquals(parseCli(["--console=8124"], env({})).consolePort, 8124);
  assertEquals(parseCli(["--console", "--headful"], env({})).consolePort, 0);
  assertEquals(parseCli([], env({ BROWX_CONSOLE: "0" })).consolePort, 0);
  assertEquals(parseCli([], env({ BROWX_CONSOLE: "9000" })).consolePort, 9000);
  assertThrows(() => parseCli(["--http", "--console"], env({})), UsageError);
  const http = parseCli(["--http"], env({ BROWX_CONSOLE: "9000" }));
  assertEquals(http.consolePort, undefined);
  assertTrue(http.warnings.some((w) => w.includes("with --http the console is on the HTTP port")));
});

Deno.test("cli: --config with an unknown key exits 2 naming it; --help lists the peer flags", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-cli-" });
  try {
    const file = join(dir, "browxai.json");
    await Deno.writeTextFile(file, JSON.stringify({ viewportSize: "800x600", viewprt: "1x1" }));
    const r = await run(["--config", file], { BROWX_WORKSPACE: join(dir, "ws") });
    assertEquals(r.code, 2, r.stderr);
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr.split("\n")[0]!, `Unknown key in --config "${file}": "viewprt"`);
    const help = await run(["--help"]);
    for (
      const flag of [
        "--headless",
        "--viewport-size",
        "--user-data-dir",
        "--isolated",
        "--storage-state",
        "--allowed-origins",
        "--blocked-origins",
        "--ignore-https-errors",
        "--proxy-server",
        "--proxy-bypass",
        "--device",
        "--init-script",
        "--shared-browser-context",
        "--config",
        "--automation-tells",
      ]
    ) assertIncludes(help.stdout, flag);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: a --config file over a stricter environment is told on stderr; prototype keys exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-cli-" });
  try {
    const file = join(dir, "browxai.json");
    for (const key of ["__proto__", "constructor", "toString"]) {
      await Deno.writeTextFile(file, `{"${key}":"x"}`);
      const r = await run(["--config", file], { BROWX_WORKSPACE: join(dir, "ws") });
      assertEquals(r.code, 2, r.stderr);
      assertIncludes(r.stderr.split("\n")[0]!, `Unknown key in --config "${file}": "${key}"`);
      assertTrue(!r.stderr.includes("TypeError"), r.stderr);
    }
    // The red team's file: more capabilities, no origin list, no confirm hooks.
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        BROWX_CAPABILITIES: ["read", "navigation", "action", "eval", "self-approval"],
        BROWX_ALLOWED_ORIGINS: "",
        BROWX_CONFIRM_REQUIRED: "",
      }),
    );
    const mcp = await startStdio({
      args: ["--config", file],
      env: {
        BROWX_CAPABILITIES: "read",
        BROWX_ALLOWED_ORIGINS: "example.com",
        BROWX_CONFIRM_REQUIRED: "submit,file_upload",
      },
    });
    try {
      await mcp.client.listTools();
      const err = mcp.stderr();
      for (
        const name of ["BROWX_CAPABILITIES", "BROWX_ALLOWED_ORIGINS", "BROWX_CONFIRM_REQUIRED"]
      ) {
        assertIncludes(err, `--config overrides ${name} from the environment`);
      }
      assertIncludes(err, '"example.com" -> ""');
    } finally {
      await mcp.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
