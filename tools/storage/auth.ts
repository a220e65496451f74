/**
 * `auth_save`, `auth_load`, `auth_list`, `auth_delete`: named storage states (storage
 * layer 3) at `$BROWX_WORKSPACE/.auth-states/<name>.json`, written and applied with layer 1
 * (`storage_state.ts`). Names are letters, digits and `._-` (no leading dot); every path
 * goes through the workspace path guard. A saved file keeps the real cookie values.
 *
 * @module
 */
import { z } from "zod";
import type { StorageState } from "../../storage/storage_state.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../errors.ts";
import { sessionField } from "../fields.ts";
import {
  dumpSession,
  injectSession,
  readStateFile,
  workspacePath,
  writeJson,
} from "./storage_state.ts";

/** Folder of the named states, relative to the workspace. */
export const AUTH_DIR = ".auth-states";

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
const nameField = z.string().describe("Letters, digits, ._-");

/**
 * The file of a named state, inside the workspace.
 *
 * @throws ToolError invalid-argument for a name outside letters, digits, `._-`.
 */
export async function authPath(ctx: ToolContext, name: string): Promise<string> {
  if (!NAME.test(name)) {
    throw new ToolError(
      "invalid-argument",
      `Invalid auth state name ${JSON.stringify(name.slice(0, 100))}: use letters, digits, ._- ` +
        "(no leading dot, at most 100)",
      'pick a plain name like "github-admin"',
    );
  }
  return await workspacePath(ctx, `${AUTH_DIR}/${name}.json`);
}

/**
 * A saved state by name.
 *
 * @throws ToolError not-found when there is none.
 */
export async function loadAuthState(ctx: ToolContext, name: string): Promise<StorageState> {
  const abs = await authPath(ctx, name);
  try {
    await Deno.stat(abs);
  } catch {
    throw new ToolError(
      "not-found",
      `No auth state "${name}"`,
      "call auth_list for the saved names, or auth_save to save one",
    );
  }
  return await readStateFile(abs, name);
}

/** The `auth_save` tool. */
export const authSaveTool = defineTool({
  name: "auth_save",
  title: "Save auth state",
  description: "Save the session's storage state under a name.",
  capability: "action",
  toolset: "storage",
  annotations: { idempotentHint: true },
  inputSchema: z.object({ name: nameField, session: sessionField }),
  async handler(ctx, args) {
    const abs = await authPath(ctx, args.name);
    const state = await dumpSession(await ctx.sessions.get(args.session ?? "default"));
    await writeJson(abs, state);
    return {
      structured: {
        ok: true,
        name: args.name,
        cookies: state.cookies.length,
        origins: state.origins.length,
      },
    };
  },
});

/** The `auth_load` tool. */
export const authLoadTool = defineTool({
  name: "auth_load",
  title: "Load auth state",
  description: "Replace the session's storage state with a saved one.",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({ name: nameField, session: sessionField }),
  async handler(ctx, args) {
    const state = await loadAuthState(ctx, args.name);
    const s = await ctx.sessions.get(args.session ?? "default");
    return {
      structured: { ok: true, name: args.name, ...await injectSession(s, state, "replace") },
    };
  },
});

/** The `auth_list` tool. */
export const authListTool = defineTool({
  name: "auth_list",
  title: "List auth states",
  description: "List saved auth state names.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({}),
  async handler(ctx) {
    const dir = await workspacePath(ctx, AUTH_DIR);
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        const name = e.name.replace(/\.json$/, "");
        if (e.isFile && e.name.endsWith(".json") && NAME.test(name)) names.push(name);
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    names.sort();
    return { structured: { count: names.length, names } };
  },
});

/** The `auth_delete` tool. */
export const authDeleteTool = defineTool({
  name: "auth_delete",
  title: "Delete auth state",
  description: "Delete a saved auth state.",
  capability: "action",
  toolset: "storage",
  annotations: { idempotentHint: true },
  inputSchema: z.object({ name: nameField }),
  async handler(ctx, args) {
    const abs = await authPath(ctx, args.name);
    let existed = true;
    await Deno.remove(abs).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      existed = false;
    });
    return { structured: { ok: true, existed } };
  },
});
