import { assertEquals, assertIncludes } from "../tests/_assert.ts";
import {
  checkWorkspacePath,
  PathGuardError,
  type PathRefusal,
  RESERVED_AREAS,
} from "./path_guard.ts";

const check = {
  root: "/home/u/.browxai",
  realRoot: "/data/u/browxai",
  reserved: [...RESERVED_AREAS, "/home/u/.browxai/secrets.env"],
};

const CASES: [name: string, path: string, expect: string[] | PathRefusal][] = [
  ["relative file", "a.txt", ["a.txt"]],
  ["nested file", "sub/b.txt", ["sub", "b.txt"]],
  ["dot segments", "./sub/./b.txt", ["sub", "b.txt"]],
  ["absolute inside", "/home/u/.browxai/a.txt", ["a.txt"]],
  ["absolute inside, by the real root", "/data/u/browxai/a.txt", ["a.txt"]],
  ["the workspace itself", ".", []],
  ["a name starting with two dots", "..foo", ["..foo"]],
  ["empty", "", "empty"],
  ["blank", "   ", "empty"],
  ["NUL byte", "a.txt\0.png", "nul-byte"],
  ["a newline", "x\ny.png", "invalid"],
  ["a carriage return in a folder", "a\r/b.txt", "invalid"],
  ["a tab", "a\tb.txt", "invalid"],
  ["an escape", "a\u001b[31m.txt", "invalid"],
  ["DEL", "a\u007f.txt", "invalid"],
  ["a C1 control", "a\u0085.txt", "invalid"],
  ["a line separator", "a\u2028b.txt", "invalid"],
  ["ordinary non-ASCII is fine", "résumé – 日本.txt", ["résumé – 日本.txt"]],
  ["parent escape", "../out/secret.txt", "dot-dot"],
  ["escape after a subdir", "sub/../../out", "dot-dot"],
  ["backslash escape", "sub\\..\\..\\x", "dot-dot"],
  ["absolute outside", "/etc/passwd", "outside-workspace"],
  ["a sibling sharing the prefix", "/home/u/.browxai-other/x", "outside-workspace"],
  ["the audit log", "audit/2026-12-01.jsonl", "reserved"],
  ["the audit folder", "audit", "reserved"],
  ["the audit log, absolute", "/data/u/browxai/audit/x.jsonl", "reserved"],
  ["a profile", "profiles/work/Default/Cookies", "reserved"],
  ["download staging", ".downloads/.incoming/s/guid", "reserved"],
  ["another server's artifacts", ".artifacts/i1-ab/default/a.txt", "reserved"],
  ["another client's area", ".clients/abc/auth-states/login.json", "reserved"],
  ["the secrets file", "secrets.env", "reserved"],
  ["a file beside the audit folder", "auditor.txt", ["auditor.txt"]],
  ["the --http token", "http-token", "reserved"],
  ["the --http token, absolute", "/home/u/.browxai/http-token", "reserved"],
  ["the token's temp sibling", "http-token.1b2c.tmp", "reserved"],
  ["the secrets file's temp sibling", "secrets.env.x.tmp", "reserved"],
  // Case-insensitive file systems (macOS, Windows) open these as the reserved files.
  ["the audit log in capitals", "AUDIT/2026-12-03.jsonl", "reserved"],
  ["the audit log, mixed case", "Audit/2026-12-03.jsonl", "reserved"],
  ["the secrets file in capitals", "SECRETS.ENV", "reserved"],
  ["the --http token in capitals", "HTTP-TOKEN", "reserved"],
  ["the token's temp sibling in capitals", "HTTP-TOKEN.1B2C.TMP", "reserved"],
  ["another client's area, mixed case", ".Clients/x/auth-states/a.json", "reserved"],
  ["a profile, capitalised", "Profiles/p/Default/Cookies", "reserved"],
  ["download staging, mixed case", ".Downloads/.INCOMING/g", "reserved"],
  ["Windows drops trailing dots and spaces", "audit. /x.jsonl", "reserved"],
  ["Windows drops trailing dots", "secrets.env...", "reserved"],
  ["an NTFS stream of the token", "http-token::$DATA", "reserved"],
  ["a decomposed (NFD) name", "secrets.env".normalize("NFD"), "reserved"],
  ["the Kelvin sign folds to k", "http-to\u212Aen", "reserved"],
  ["a file named like the token elsewhere", "sub/http-token", ["sub", "http-token"]],
  ["a file starting with the token's name", "http-token.txt", ["http-token.txt"]],
  ["a 5000-character name", "files/" + "a".repeat(5000), "invalid"],
  ["a 5000-character path", "a/".repeat(2500), "invalid"],
  ["a 260-byte name", "new/" + "é".repeat(130), "invalid"],
  ["a 255-byte name is fine", "c".repeat(255), ["c".repeat(255)]],
];

Deno.test("checkWorkspacePath: hostile and ordinary paths, by their text", async (t) => {
  for (const [name, path, expect] of CASES) {
    await t.step(name, () => {
      let got: string[] | PathGuardError;
      try {
        got = checkWorkspacePath(check, path);
      } catch (e) {
        if (!(e instanceof PathGuardError)) throw e;
        got = e;
      }
      if (Array.isArray(expect)) {
        assertEquals(got, expect, `${name}: ${String(got)}`);
      } else {
        const e = got as PathGuardError;
        assertEquals(e instanceof PathGuardError, true, `${name} should be refused: ${got}`);
        assertEquals(e.reason, expect, `${name}: ${e.message}`);
        assertEquals(e.path, path);
        // Says what to do, and where files may live.
        assertIncludes(e.message, expect === "empty" ? "give" : "workspace");
      }
    });
  }
});

Deno.test("checkWorkspacePath: an allowed area inside a reserved one", () => {
  const inClients = {
    ...check,
    reserved: [".clients", ".clients/me/profiles"],
    allowed: [".clients/me"],
  };
  assertEquals(checkWorkspacePath(inClients, ".clients/me/downloads/s/a.pdf"), [
    ".clients",
    "me",
    "downloads",
    "s",
    "a.pdf",
  ]);
  for (
    const path of [
      ".clients/other/x",
      ".clients/me/profiles/p/Cookies",
      ".clients",
      ".clients/meme/x",
    ]
  ) {
    let reason = "";
    try {
      checkWorkspacePath(inClients, path);
    } catch (e) {
      reason = (e as PathGuardError).reason;
    }
    assertEquals(reason, "reserved", path);
  }
});

Deno.test("checkWorkspacePath: a control character is named in the refusal", () => {
  for (
    const [path, said] of [
      ["shots/x\ny.png", "control character (U+000A, a newline)"],
      ["a\u2028b", "control character (U+2028)"],
    ] as const
  ) {
    let message = "";
    try {
      checkWorkspacePath(check, path);
    } catch (e) {
      message = (e as PathGuardError).message;
    }
    assertIncludes(message, said);
    assertIncludes(message, "without line breaks");
  }
});
