/**
 * Per-session artifacts (seed 000 "Per-session artifacts"): named text or
 * binary payloads an agent keeps while a session lives, as files in one
 * folder per session. Bounded: past either cap the oldest write goes.
 *
 * @module
 */
import { join } from "node:path";

/** Most artifacts one session keeps. */
export const ARTIFACT_MAX_ENTRIES = 200;
/** Most bytes one session's artifacts take together (50 MiB); also the largest single artifact. */
export const ARTIFACT_MAX_BYTES = 50 * 1024 * 1024;

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Checks an artifact name: letters, digits, `.`, `_`, `-` only, at most 128
 * characters, no leading dot, no `..`.
 *
 * @throws RangeError saying what is allowed.
 */
export function checkArtifactName(name: string): void {
  if (!NAME.test(name) || name.includes("..")) {
    throw new RangeError(
      `Invalid artifact name ${JSON.stringify(name.slice(0, 200))}: use 1-128 letters, digits, ` +
        '".", "_" or "-", not starting with "." and without ".." (e.g. "report-1.json")',
    );
  }
}

/** One stored artifact. `mtime`: ISO time of its last write. */
export interface ArtifactInfo {
  name: string;
  /** Bytes. */
  size: number;
  mtime: string;
}

/** The artifacts of one session, in `dir` (created on first write). */
export class ArtifactStore {
  readonly dir: string;

  /** @param dir The session's folder (already checked to lie in the workspace). */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Every artifact, sorted by name. */
  async list(): Promise<ArtifactInfo[]> {
    const out: ArtifactInfo[] = [];
    try {
      for await (const e of Deno.readDir(this.dir)) {
        if (!e.isFile) continue;
        const st = await Deno.stat(join(this.dir, e.name)).catch(() => undefined);
        if (st) {
          out.push({ name: e.name, size: st.size, mtime: (st.mtime ?? new Date(0)).toISOString() });
        }
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  }

  /**
   * Writes (or overwrites) an artifact, then evicts the oldest writes until
   * both caps hold again.
   *
   * @returns what was written and the names evicted.
   * @throws RangeError for a bad name or a payload over {@link ARTIFACT_MAX_BYTES}.
   */
  async save(
    name: string,
    bytes: Uint8Array,
  ): Promise<ArtifactInfo & { path: string; evicted: string[] }> {
    checkArtifactName(name);
    if (bytes.length > ARTIFACT_MAX_BYTES) {
      throw new RangeError(
        `Artifact "${name}" is ${bytes.length} bytes; one session keeps at most ${ARTIFACT_MAX_BYTES}`,
      );
    }
    await Deno.mkdir(this.dir, { recursive: true });
    const path = join(this.dir, name);
    // Write beside, then rename: a reader never sees half an artifact.
    const tmp = join(this.dir, `.${name}.${crypto.randomUUID()}.tmp`);
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
    const evicted = await this.#evict(name);
    const st = await Deno.stat(path);
    return {
      name,
      size: st.size,
      mtime: (st.mtime ?? new Date()).toISOString(),
      path,
      evicted,
    };
  }

  async #evict(keep: string): Promise<string[]> {
    const all = (await this.list()).sort((a, b) =>
      a.mtime < b.mtime ? -1 : a.mtime > b.mtime ? 1 : 0
    );
    let count = all.length;
    let bytes = all.reduce((n, a) => n + a.size, 0);
    const evicted: string[] = [];
    for (const a of all) {
      if (count <= ARTIFACT_MAX_ENTRIES && bytes <= ARTIFACT_MAX_BYTES) break;
      if (a.name === keep) continue;
      await Deno.remove(join(this.dir, a.name)).catch(() => {});
      count--;
      bytes -= a.size;
      evicted.push(a.name);
    }
    return evicted;
  }

  /** An artifact's bytes and info, or undefined when there is none by that name. */
  async get(name: string): Promise<(ArtifactInfo & { bytes: Uint8Array }) | undefined> {
    checkArtifactName(name);
    const path = join(this.dir, name);
    try {
      const [bytes, st] = await Promise.all([Deno.readFile(path), Deno.stat(path)]);
      return { name, size: st.size, mtime: (st.mtime ?? new Date(0)).toISOString(), bytes };
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return undefined;
      throw e;
    }
  }

  /** Removes every artifact (the session closed). */
  async wipe(): Promise<void> {
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
