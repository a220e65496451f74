import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { INSTALL_SOURCE, preludeFor } from "./mod.ts";
import { PAGE_API_NAMES } from "./page_api_names.ts";

/** The names a library source installs: every `api.name = …` (the parts' only way to add one). */
function installed(source: string): string[] {
  const names = [...source.matchAll(/\bapi\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

// The on-demand groups' sources, as the prelude of one of their methods sends them.
const GROUPS: Record<string, string> = {
  forms: preludeFor("formDescribe"),
  inspect: preludeFor("inspectTree"),
  find: preludeFor("findScan"),
};

Deno.test("page api: every name of PageApi is installed by the library, and nothing else", () => {
  const sources = Object.values(GROUPS);
  assertTrue(
    !/\bapi\[/.test(INSTALL_SOURCE + sources.join("")),
    "a part installs a member by computed name",
  );
  const core = installed(INSTALL_SOURCE);
  const groups = Object.fromEntries(Object.entries(GROUPS).map(([k, s]) => [k, installed(s)]));
  assertTrue(
    core.length > 40 && Object.values(groups).every((g) => g.length > 5),
    `too few names found: ${core} / ${JSON.stringify(groups)}`,
  );
  const all = [core, ...Object.values(groups)];
  assertEquals(all.flat().sort(), [...PAGE_API_NAMES].sort(), "each name installed once");
});

Deno.test("page api: a call of an on-demand part's method installs its parts first", () => {
  // mod.ts tells on-demand methods by name; one named otherwise would find no library.
  const owner = new Map<string, string>();
  for (const [k, s] of Object.entries(GROUPS)) for (const n of installed(s)) owner.set(n, k);
  for (const name of PAGE_API_NAMES) {
    const prelude = preludeFor(name);
    const group = owner.get(name);
    assertEquals(prelude !== "", group !== undefined, `${name}: prelude`);
    if (group) assertEquals(prelude, GROUPS[group], name);
  }
});
