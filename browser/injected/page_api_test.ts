import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { INSTALL_SOURCE, preludeFor } from "./mod.ts";
import { installedNames, LAZY, lazyOf } from "./library_parts.ts";
import { PAGE_API_NAMES } from "./page_api_names.ts";

/** Each on-demand group's own names: what its source installs, less the groups it needs. */
function groupNames(): Map<string, string[]> {
  const all = new Map(LAZY.map((g) => [g.flag, installedNames(g.source)]));
  const own = new Map<string, string[]>();
  for (const g of LAZY) {
    const needed = new Set(
      g.flags.filter((f) => f !== g.flag).flatMap((f) => {
        const n = LAZY.find((h) => h.flag === f)!;
        assertTrue(n.flags.every((x) => g.flags.includes(x)), `${g.flag}: needs ${f}'s needs`);
        return all.get(f)!;
      }),
    );
    own.set(g.flag, all.get(g.flag)!.filter((n) => !needed.has(n)));
  }
  return own;
}

Deno.test("page api: every name of PageApi is installed by the library, and nothing else", () => {
  assertTrue(
    !/\bapi\[/.test(INSTALL_SOURCE + LAZY.map((g) => g.source).join("")),
    "a part installs a member by computed name",
  );
  const core = installedNames(INSTALL_SOURCE);
  const groups = groupNames();
  assertTrue(
    core.length > 40 && [...groups.values()].every((g) => g.length > 0),
    `too few names found: ${core} / ${JSON.stringify([...groups])}`,
  );
  const all = [core, ...groups.values()];
  assertEquals(all.flat().sort(), [...PAGE_API_NAMES].sort(), "each name installed once");
});

Deno.test("page api: a call of an on-demand part's method installs its parts first", () => {
  // mod.ts tells on-demand methods by name; one named otherwise would find no library.
  const owner = new Map<string, string>();
  for (const [flag, names] of groupNames()) for (const n of names) owner.set(n, flag);
  for (const name of PAGE_API_NAMES) {
    const prelude = preludeFor(name);
    const flag = owner.get(name);
    assertEquals(prelude !== "", flag !== undefined, `${name}: prelude`);
    assertEquals(lazyOf(name)?.flag, flag, name);
    if (flag) assertTrue(prelude.includes(`Object.defineProperty(api, "${flag}"`), name);
  }
});

Deno.test("page api: a snapshot needs only the core; acting parts are not in it", () => {
  const core = installedNames(INSTALL_SOURCE);
  for (const m of ["snapshotWithGeneration", "snapshot", "readText", "isSecret", "element"]) {
    assertTrue(core.includes(m), m);
  }
  for (const m of ["probe", "hitTest", "coverScan", "formWatchSubmit"]) {
    assertTrue(!core.includes(m), m);
  }
});

Deno.test("page api: a fill that sends a form gets the forms' watch, not the form tools' writing", () => {
  const sent = installedNames(lazyOf("formWatchSubmit")!.source);
  for (const m of ["formsArmedPublic", "formsSendTo", "formSubmitState", "probe"]) {
    assertTrue(sent.includes(m), m);
  }
  for (const m of ["formSetField", "sanitizeHtml", "formEditorWrite"]) {
    assertTrue(!sent.includes(m), m);
  }
});
