/**
 * Where one client's files live in the workspace (issue 11, "client namespaces").
 *
 * - An HTTP client (a `namespace`) has its own area `.clients/<namespace>/`: artifacts in
 *   `artifacts/<session>/`, auth states in `auth-states/`, persistent profiles in
 *   `profiles/<name>/`, downloads in `downloads/<session>/`, and the paths it gives `dump_storage_state` / `inject_storage_state`
 *   are relative to the area itself. Another client cannot name any of it; the area is
 *   removed when the client goes (its namespace is per connection, so nothing could find it
 *   again). With `BROWX_SHARED_AUTH_STATES=1` its auth states are the shared ones.
 * - A stdio server (no namespace) keeps auth states in `.auth-states/`, profiles in
 *   `profiles/`, downloads in `.downloads/` and dumps relative to the workspace, as before (a restarted server finds its
 *   logins), and artifacts in `.artifacts/<instance>/<session>/`: two servers on one
 *   workspace never evict or wipe each other's.
 *
 * @module
 */
import { RESERVED_AREAS } from "../../policy/path_guard.ts";

/** Folder of every HTTP client's area, relative to the workspace. */
export const CLIENTS_DIR = ".clients";
/** The shared auth states (stdio, or `BROWX_SHARED_AUTH_STATES=1`), relative to the workspace. */
export const SHARED_AUTH_DIR = ".auth-states";

/** Namespaces and instance ids: what a folder name may be. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The workspace areas of one client (all paths relative to the workspace, `/`-separated). */
export class WorkspaceAreas {
  /** The HTTP client's namespace; undefined for stdio. */
  readonly namespace: string | undefined;
  /** This server instance's id (artifacts of a stdio server). */
  readonly instance: string;

  /**
   * @param options.namespace An HTTP client's namespace (letters, digits, `_-`).
   * @param options.instance The server instance (default: a new random id).
   * @throws RangeError for an id that is not a plain folder name.
   */
  constructor(options: { namespace?: string | undefined; instance?: string } = {}) {
    this.namespace = options.namespace;
    this.instance = options.instance ?? `i${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    for (const id of [this.namespace, this.instance]) {
      if (id !== undefined && !ID.test(id)) {
        throw new RangeError(
          `Invalid namespace ${JSON.stringify(id)}: use 1-64 of A-Z a-z 0-9 _ -`,
        );
      }
    }
  }

  /** The client's own area: `.clients/<namespace>` (HTTP) or `""` (stdio: the workspace). */
  get own(): string {
    return this.namespace === undefined ? "" : `${CLIENTS_DIR}/${this.namespace}`;
  }

  /** The folder holding this client's per-session artifact folders. */
  get artifactsRoot(): string {
    return this.namespace === undefined ? `.artifacts/${this.instance}` : `${this.own}/artifacts`;
  }

  /** One session's artifact folder. */
  artifacts(session: string): string {
    return `${this.artifactsRoot}/${session}`;
  }

  /** The auth states folder (`shared`: the operator shares them, `BROWX_SHARED_AUTH_STATES`). */
  authStates(shared: boolean): string {
    return this.namespace === undefined || shared ? SHARED_AUTH_DIR : `${this.own}/auth-states`;
  }

  /** The downloads folder (`<it>/<session>/`, staging in `<it>/.incoming/`). */
  get downloads(): string {
    return this.namespace === undefined ? ".downloads" : `${this.own}/downloads`;
  }

  /** A persistent profile's folder. */
  profile(name: string): string {
    return this.namespace === undefined ? `profiles/${name}` : `${this.own}/profiles/${name}`;
  }

  /**
   * What the agent's own paths (dumps, injects, uploads) may not name, relative to the
   * workspace: {@link RESERVED_AREAS}, and inside a client's area its profiles, artifacts and
   * download staging.
   */
  get reserved(): string[] {
    return this.namespace === undefined ? [...RESERVED_AREAS] : [
      ...RESERVED_AREAS,
      `${this.own}/profiles`,
      `${this.own}/artifacts`,
      `${this.own}/downloads/.incoming`,
    ];
  }
}
