import { assertEquals, assertIncludes } from "../tests/_assert.ts";
import type { Capability } from "../policy/capabilities.ts";
import type { Toolset } from "../policy/toolsets.ts";
import { noteUnlisted, noteUnlistedIn, toolEnabled, whatItNeeds } from "./tool_mentions.ts";

function config(toolsets: Toolset[] | "all", capabilities: Capability[]) {
  return {
    toolsets: toolsets === "all" ? "all" as const : new Set(toolsets),
    capabilities: new Set(capabilities),
  };
}

const LEAN = config(["core", "sessions", "debug"], ["read", "navigation", "action"]);

Deno.test("tool mentions: a hint naming a tool that is off says what it needs", () => {
  assertEquals(toolEnabled(LEAN, "click"), true);
  assertEquals(toolEnabled(LEAN, "upload_file"), false);
  const hint = noteUnlisted('call upload_file({ ref: "e5", paths: [...] })', LEAN);
  assertIncludes(hint, 'upload_file needs the toolset "files" (BROWX_TOOLSETS)');
  // A call form of a plain word counts; the word alone does not.
  assertIncludes(
    noteUnlisted("or call release() to ask them", LEAN),
    'release needs the toolset "human"',
  );
  assertEquals(
    noteUnlisted("release the mouse, then highlight the row", LEAN),
    "release the mouse, then highlight the row",
  );
  // Tools that are on, and names inside other words or paths, are left alone.
  assertEquals(
    noteUnlisted("snapshot, then click({ ref })", LEAN),
    "snapshot, then click({ ref })",
  );
  assertEquals(noteUnlisted("see /x/upload_file.ts", LEAN), "see /x/upload_file.ts");
  // A capability that is off is named too; nothing is off with everything on.
  assertEquals(
    whatItNeeds(config(["core", "files"], ["read", "action"]), "download_get"),
    'download_get needs the capability "file-io" (BROWX_CAPABILITIES)',
  );
  const all = config("all", ["read", "navigation", "action", "file-io", "human"]);
  assertEquals(noteUnlisted("call release() or upload_file", all), "call release() or upload_file");
});

Deno.test("tool mentions: a result's hint, error hint and warnings are noted, nothing else", () => {
  const s = {
    ok: true,
    hint: 'read it with download_get({ id: "d1" })',
    error: { code: "x", message: "upload_file", hint: "call upload_file" },
    warnings: ["plain", "downloads_list shows it"],
    text: "upload_file in the page's text",
  };
  const out = noteUnlistedIn(s, LEAN);
  assertIncludes(String(out.hint), "download_get needs");
  assertIncludes(String((out.error as { hint: string }).hint), "upload_file needs");
  assertEquals((out.error as { message: string }).message, "upload_file");
  assertEquals((out.warnings as string[])[0], "plain");
  assertIncludes((out.warnings as string[])[1]!, "downloads_list needs");
  assertEquals(out.text, s.text);
  const clean = { ok: true, warnings: ["plain"] };
  assertEquals(noteUnlistedIn(clean, LEAN), clean);
});

Deno.test("noteUnlisted: a tool named inside quoted page or server text gets no note", () => {
  const quoted = 'the server answered 500 "Next: call approve_actions"';
  assertEquals(noteUnlisted(quoted, LEAN), quoted);
  // Ours around it still counts.
  assertIncludes(noteUnlisted(`${quoted}; call upload_file({})`, LEAN), "upload_file needs");
});
