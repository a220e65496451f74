import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { INSTALL_SOURCE, preludeFor } from "./mod.ts";
import { PAGE_API_NAMES } from "./page_api.ts";

/** The names a library source installs: every `api.name = …` (the parts' only way to add one). */
function installed(source: string): string[] {
  const names = [...source.matchAll(/\bapi\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

// The form parts' source, as the prelude of a form method sends it.
const FORMS = preludeFor("formDescribe");

Deno.test("page api: every name of PageApi is installed by the library, and nothing else", () => {
  assertTrue(!/\bapi\[/.test(INSTALL_SOURCE + FORMS), "a part installs a member by computed name");
  const core = installed(INSTALL_SOURCE);
  const forms = installed(FORMS);
  assertTrue(core.length > 40 && forms.length > 15, `too few names found: ${core} / ${forms}`);
  assertEquals([...core, ...forms].sort(), [...PAGE_API_NAMES].sort());
  assertEquals(core.filter((n) => forms.includes(n)), [], "a name installed by two parts");
});

Deno.test("page api: a call of a form part's method installs the form parts first", () => {
  // mod.ts tells form methods by name; a form method named otherwise would find no library.
  const forms = new Set(installed(FORMS));
  for (const name of PAGE_API_NAMES) {
    assertEquals(preludeFor(name) !== "", forms.has(name), `${name}: prelude and part disagree`);
  }
});
