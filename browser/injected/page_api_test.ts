import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { INSTALL_SOURCE, preludeFor } from "./mod.ts";
import { PAGE_API_NAMES } from "./page_api.ts";

/** The names a library source installs: every `api.name = …` (the parts' only way to add one). */
function installed(source: string): string[] {
  const names = [...source.matchAll(/\bapi\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

// The on-demand parts' sources, as the prelude of one of their methods sends them.
const FORMS = preludeFor("formDescribe");
const INSPECT = preludeFor("inspectTree");

Deno.test("page api: every name of PageApi is installed by the library, and nothing else", () => {
  assertTrue(
    !/\bapi\[/.test(INSTALL_SOURCE + FORMS + INSPECT),
    "a part installs a member by computed name",
  );
  const core = installed(INSTALL_SOURCE);
  const forms = installed(FORMS);
  const inspect = installed(INSPECT);
  assertTrue(
    core.length > 40 && forms.length > 15 && inspect.length > 5,
    `too few names found: ${core} / ${forms} / ${inspect}`,
  );
  assertEquals([...core, ...forms, ...inspect].sort(), [...PAGE_API_NAMES].sort());
  assertEquals(
    core.filter((n) => forms.includes(n) || inspect.includes(n)),
    [],
    "a name installed by two parts",
  );
  assertEquals(forms.filter((n) => inspect.includes(n)), [], "a name installed by two parts");
});

Deno.test("page api: a call of an on-demand part's method installs its parts first", () => {
  // mod.ts tells on-demand methods by name; one named otherwise would find no library.
  const forms = new Set(installed(FORMS));
  const inspect = new Set(installed(INSPECT));
  for (const name of PAGE_API_NAMES) {
    const prelude = preludeFor(name);
    assertEquals(prelude !== "", forms.has(name) || inspect.has(name), `${name}: prelude`);
    if (forms.has(name)) assertEquals(prelude, preludeFor("formDescribe"), name);
    if (inspect.has(name)) assertEquals(prelude, INSPECT, name);
  }
});
