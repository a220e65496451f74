/**
 * Layering check: reads the imports of every source file in the layered folders and reports
 * the ones that break the dependency rules of DESIGN.md ("Layers").
 *
 * Rules (a layer is a top-level folder, or `main.ts`):
 *
 * | layer      | may import (project files)                              | external specifiers            |
 * | ---------- | ------------------------------------------------------- | ------------------------------ |
 * | `cdp/`     | `cdp/`                                                  | any but zod and the MCP SDK    |
 * | `policy/`  | `policy/`                                               | `node:` built-ins and `tldts`  |
 * | `storage/` | `storage/`, `cdp/`, `policy/`                           | any but zod and the MCP SDK    |
 * | `browser/` | `browser/`, `storage/`, `policy/`, `cdp/`               | any but zod and the MCP SDK    |
 * | `tools/`   | `tools/`, `browser/`, `storage/`, `policy/`, `cdp/`     | any but the MCP SDK            |
 * | `mcp/`     | `mcp/`, `tools/`, `browser/`, `storage/`, `policy/`, `cdp/`, `ui/` | any                 |
 * | `ui/`      | `ui/`                                                   | any                            |
 * | `cli/`     | `cli/`, `mcp/`, `tools/`, `browser/`, `storage/`, `policy/`, `cdp/`, `ui/` | any      |
 * | `main.ts`  | anything                                                | any                            |
 *
 * `cli/` holds `main.ts`'s helpers (the flag table, the config file): main's layer, below it.
 *
 * So arrows only point down: `main.ts → cli/ → mcp/ → tools/ → browser/ → (storage/, policy/, cdp/)`,
 * `mcp/ → browser/`, `storage/ → (policy/, cdp/)`.
 *
 * Besides the folder rules, no two project files may import each other in a cycle, type-only
 * imports included (`findCycles`, import_cycles.ts): a cycle hides which of its files is the lower
 * one. And no two source files of `cdp/`, `policy/`, `storage/`, `browser/`, `tools/`, `mcp/` and
 * `main.ts` may share a base name, `mod.ts` excepted (`findDuplicateNames`):
 * `tools/storage/cookies.ts` beside `storage/cookies.ts` makes a reader (and an import) guess which
 * layer is meant.
 *
 * Unit tests beside the code (`*_test.ts`) may also import `tests/` (the shared assertions and
 * fixtures). `jsr:` specifiers are refused everywhere in those layers (JSR is unreachable), and
 * so is any relative import that leaves the project root. Files elsewhere (`tests/`, `bench/`,
 * `scratch/`, …) are not checked.
 *
 * Imports are found with regular expressions over the source with its comments blanked out:
 * `import … from "x"`, `import type … from "x"`, `import "x"`, `export … from "x"` (each
 * starting a line or following a `;`), and `import("x")` with a string literal. Computed
 * dynamic imports are not seen.
 *
 * Run: `deno run --allow-read tests/check_layering.ts [rootDir]` (default: the project root,
 * the parent of this file's folder). Exit status 0 when clean; otherwise 1, with one line per
 * violation on stderr: `path:line: layer may not import "specifier" (resolves to target)`.
 *
 * @module
 */
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { findImports, type ImportRef } from "./import_scanner.ts";
import { findCycles, type ImportEdge } from "./import_cycles.ts";

export { findImports, type ImportRef, stripComments } from "./import_scanner.ts";

/** One import that breaks a layering rule. */
export interface Violation {
  /** Importing file, relative to the root, with `/` separators (e.g. `cdp/browser.ts`). */
  file: string;
  /** 1-based line of the import statement. */
  line: number;
  /** Layer of the importing file: `cdp`, `policy`, `storage`, `browser`, `tools`, `mcp`, `ui` or `main.ts`. */
  layer: string;
  /** The specifier exactly as written (e.g. `../tools/mod.ts`, `npm:zod`). */
  specifier: string;
  /**
   * What the specifier resolves to: a root-relative path for project files
   * (e.g. `tools/mod.ts`), `outside the project` for paths above the root, or the
   * specifier itself for external ones.
   */
  target: string;
  /** Human-readable reason, one line. */
  message: string;
}

/** Layer name → project layers it may import (besides external specifiers). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  cdp: ["cdp"],
  policy: ["policy"],
  storage: ["storage", "cdp", "policy"],
  browser: ["browser", "storage", "policy", "cdp"],
  tools: ["tools", "browser", "storage", "policy", "cdp"],
  mcp: ["mcp", "tools", "browser", "storage", "policy", "cdp", "ui"],
  ui: ["ui"],
  cli: ["cli", "mcp", "tools", "browser", "storage", "policy", "cdp", "ui"],
};

/** Layers whose external imports are limited to `node:` built-ins and these packages. */
const EXTERNAL_ONLY: Readonly<Record<string, readonly string[]>> = {
  policy: ["tldts"],
};

/** External packages a layer may not import (the MCP face and the tool schemas stay above). */
const EXTERNAL_BANNED: Readonly<Record<string, readonly string[]>> = {
  cdp: ["zod", "@modelcontextprotocol/sdk"],
  storage: ["zod", "@modelcontextprotocol/sdk"],
  browser: ["zod", "@modelcontextprotocol/sdk"],
  tools: ["@modelcontextprotocol/sdk"],
};

/** The package a bare or `npm:` specifier names (`npm:zod@4/x` → `zod`), else `undefined`. */
function packageOf(specifier: string): string | undefined {
  if (/^(?:node|https?|data|jsr):/.test(specifier)) return undefined;
  const bare = specifier.replace(/^npm:\/?/, "");
  const parts = bare.split("/");
  const name = bare.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : parts[0]!;
  return name.replace(/(.)@.*$/, "$1");
}

const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs"]);
const SKIP_DIRS = new Set(["node_modules", "dist", ".git"]);

/** Layer of a root-relative path (`/`-separated), or `undefined` when it is not checked. */
function layerOf(rel: string): string | undefined {
  if (rel === "main.ts") return "main.ts";
  const top = rel.split("/")[0]!;
  return top in ALLOWED && rel.includes("/") ? top : undefined;
}

function isTestFile(rel: string): boolean {
  return /(?:_test|\.test)\.[mc]?[jt]sx?$/.test(rel);
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) yield* walk(path);
    } else if (e.isFile && SOURCE_EXTENSIONS.has(extname(e.name))) {
      yield path;
    }
  }
}

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

/**
 * Checks one import of one file against the rules.
 *
 * @returns A violation, or `undefined` when the import is allowed.
 */
function checkImport(
  root: string,
  file: string,
  layer: string,
  ref: ImportRef,
): Violation | undefined {
  const rel = toPosix(relative(root, file));
  const { specifier, line } = ref;
  const make = (target: string, message: string): Violation => ({
    file: rel,
    line,
    layer,
    specifier,
    target,
    message,
  });
  if (specifier.startsWith("jsr:")) {
    return make(specifier, `jsr: imports are not allowed (JSR is unreachable)`);
  }
  let targetPath: string | undefined;
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    targetPath = resolve(dirname(file), specifier);
  } else if (specifier.startsWith("file:")) {
    targetPath = fileURLToPath(specifier);
  } else if (specifier.startsWith("/")) {
    targetPath = specifier;
  }
  if (targetPath === undefined) {
    // External: node:, npm:, bare (import map), https:.
    if (layer === "main.ts") return undefined;
    const pkg = packageOf(specifier);
    const only = EXTERNAL_ONLY[layer];
    if (only !== undefined && !specifier.startsWith("node:") && !only.includes(pkg ?? "")) {
      const also = only.map((o) => `"${o}"`).join(", ");
      return make(
        specifier,
        `${layer}/ may import only its own files, node: built-ins and ${also}`,
      );
    }
    if (pkg !== undefined && (EXTERNAL_BANNED[layer] ?? []).includes(pkg)) {
      return make(specifier, `${layer}/ may not import "${pkg}" (it belongs to a higher layer)`);
    }
    return undefined;
  }
  const target = toPosix(relative(root, targetPath));
  if (target === ".." || target.startsWith("../") || /^[a-z]:/i.test(target)) {
    return make("outside the project", `imports a file outside the project`);
  }
  if (layer === "main.ts") return undefined;
  const targetTop = target.includes("/") ? target.split("/")[0]! : target;
  const allowed = ALLOWED[layer] ?? [];
  if (allowed.includes(targetTop)) return undefined;
  if (targetTop === "tests" && isTestFile(rel)) return undefined;
  const list = allowed.map((l) => `${l}/`).join(", ");
  return make(target, `${layer}/ may import only ${list}`);
}

/**
 * Scans the layered folders (`cdp/`, `policy/`, `storage/`, `browser/`, `tools/`, `mcp/`,
 * `ui/`, `cli/`) and `main.ts` under `rootDir` and returns every import that breaks the rules in the
 * module doc, one violation per import cycle (at the import that starts it), and one per base
 * name two files share ({@link findDuplicateNames}).
 * Missing folders are skipped. Hidden folders, `node_modules/` and `dist/` are not read.
 *
 * @param rootDir Project root (absolute or relative to the working directory).
 * @returns Violations sorted by file, then line; empty when the layering holds.
 * @throws Deno.errors.PermissionDenied without read permission on `rootDir`; other
 *   file-system errors except NotFound.
 */
export async function checkLayering(rootDir: string): Promise<Violation[]> {
  const root = resolve(rootDir);
  const files: string[] = [];
  for (const top of Object.keys(ALLOWED)) {
    for await (const f of walk(join(root, top))) files.push(f);
  }
  try {
    if ((await Deno.stat(join(root, "main.ts"))).isFile) files.push(join(root, "main.ts"));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const violations: Violation[] = [];
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const rel = toPosix(relative(root, file));
    const layer = layerOf(rel);
    if (layer === undefined) continue;
    const source = await Deno.readTextFile(file);
    const edges: ImportEdge[] = [];
    for (const ref of findImports(source)) {
      const v = checkImport(root, file, layer, ref);
      if (v) violations.push(v);
      if (ref.specifier.startsWith("./") || ref.specifier.startsWith("../")) {
        edges.push({
          ...ref,
          target: toPosix(relative(root, resolve(dirname(file), ref.specifier))),
        });
      }
    }
    graph.set(rel, edges);
  }
  violations.push(...findDuplicateNames([...graph.keys()]));
  for (const cycle of findCycles(graph)) {
    const [from, edge] = cycle[0]!;
    const path = [...cycle.map(([f]) => f), from].join(" → ");
    violations.push({
      file: from,
      line: edge.line,
      layer: layerOf(from) ?? "",
      specifier: edge.specifier,
      target: edge.target,
      message: `import cycle (${cycle.length} files): ${path}`,
    });
  }
  violations.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return violations;
}

/** The layers whose files may not share a base name (`ui/` holds page-side files of its own). */
const UNIQUE_NAME_LAYERS = new Set([
  "cli",
  "cdp",
  "policy",
  "storage",
  "browser",
  "tools",
  "mcp",
  "main.ts",
]);

/** The one base name many layers' files may share: each folder's index. */
const REPEATABLE_NAMES = new Set(["mod.ts"]);

/**
 * Finds the base names (`cookies.ts`) that more than one source file of the layers in
 * {@link UNIQUE_NAME_LAYERS} uses, unit tests (`*_test.ts`) and `mod.ts` left out.
 *
 * @param files Root-relative paths with `/` separators; files of other folders are ignored.
 * @returns One violation per shared base name, at line 1 of the first of its files in sort
 *   order, naming them all; sorted by file. Empty when every base name is used once.
 */
export function findDuplicateNames(files: readonly string[]): Violation[] {
  const byName = new Map<string, string[]>();
  for (const file of [...files].sort()) {
    const layer = layerOf(file);
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (layer === undefined || !UNIQUE_NAME_LAYERS.has(layer)) continue;
    if (isTestFile(file) || REPEATABLE_NAMES.has(name)) continue;
    byName.set(name, [...byName.get(name) ?? [], file]);
  }
  const violations: Violation[] = [];
  for (const [name, same] of byName) {
    if (same.length < 2) continue;
    violations.push({
      file: same[0]!,
      line: 1,
      layer: layerOf(same[0]!)!,
      specifier: name,
      target: name,
      message: `base name shared by ${same.length} files (${same.join(", ")}); only ` +
        `${[...REPEATABLE_NAMES].join(", ")} may repeat: rename one after what it holds`,
    });
  }
  return violations.sort((a, b) => a.file.localeCompare(b.file));
}

/** Formats a violation as one line: `file:line: message: "specifier" (→ target)`. */
export function formatViolation(v: Violation): string {
  const arrow = v.target === v.specifier ? "" : ` (resolves to ${v.target})`;
  return `${v.file}:${v.line}: ${v.message}: "${v.specifier}"${arrow}`;
}

if (import.meta.main) {
  const root = Deno.args[0] ?? resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const violations = await checkLayering(root);
  for (const v of violations) console.error(formatViolation(v));
  if (violations.length > 0) Deno.exit(1);
}
