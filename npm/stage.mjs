// `prepack` of the npm package: builds the one-file bundle at the repository
// root (`deno task bundle`) and copies what the package ships into this
// folder: dist/browxai.js, ui/ (the web console's static files, found beside
// dist/ by mcp/static_root.ts) and README.md. The package lives in npm/, not
// at the root: a root package.json depending on `deno` would put the npm
// `deno` shim first on PATH inside every `deno task`.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
execFileSync(process.env.BROWX_DENO ?? "deno", ["task", "bundle"], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
});
for (const p of ["dist", "ui", "README.md"]) {
  rmSync(join(here, p), { recursive: true, force: true });
}
mkdirSync(join(here, "dist"));
cpSync(join(root, "dist", "browxai.js"), join(here, "dist", "browxai.js"));
if (existsSync(join(root, "ui"))) cpSync(join(root, "ui"), join(here, "ui"), { recursive: true });
cpSync(join(root, "README.md"), join(here, "README.md"));
