/**
 * Per-session artifacts (seed 000 "Per-session artifacts"): named text or
 * binary payloads an agent keeps while a session lives, as files in one
 * folder per session. Bounded: past either cap the oldest write goes.
 *
 * @module
 */
import { PathGuardError } from "../policy/path_guard.ts";
import { safeList, safeReadFile, safeRemove, type SafeTarget, safeWriteFile } from "./safe_fs.ts";

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

/**
 * The artifacts of one session, in one folder of the workspace (created on first write).
 * Every file operation goes through the path guard (`safe_fs.ts`): a link planted in the
 * folder, or the folder swapped for one, is refused, never followed; writes are atomic and
 * owner-only.
 */
export class ArtifactStore {
  readonly #target: SafeTarget;
  /** The folder, relative to the workspace. */
  readonly area: string;

  /**
   * @param workspace The workspace root.
   * @param area The session's folder relative to it, e.g. `.artifacts/i123-ab/default`.
   */
  constructor(workspace: string, area: string) {
    this.area = area;
    this.#target = { workspace, area };
  }

  /** Every artifact (regular files with one name), sorted by name. */
  async list(): Promise<ArtifactInfo[]> {
    const entries = await safeList(this.#target, ".");
    return entries.filter((e) => !e.name.startsWith(".")).map((e) => ({
      name: e.name,
      size: e.size,
      mtime: e.mtime.toISOString(),
    }));
  }

  /**
   * Writes (or overwrites) an artifact, then evicts the oldest writes until
   * both caps hold again.
   *
   * @returns what was written (`path`: its real path) and the names evicted.
   * @throws RangeError for a bad name or a payload over {@link ARTIFACT_MAX_BYTES};
   *   PathGuardError when the folder is a link.
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
    // Temp file + rename (safeWriteFile): a reader never sees half an artifact.
    const written = await safeWriteFile(this.#target, name, bytes);
    const evicted = await this.#evict(name);
    return {
      name,
      size: written.size,
      mtime: written.mtime.toISOString(),
      path: written.path,
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
      await safeRemove(this.#target, a.name).catch(() => {});
      count--;
      bytes -= a.size;
      evicted.push(a.name);
    }
    return evicted;
  }

  /**
   * An artifact's bytes and info, or undefined when there is none by that name.
   *
   * @throws PathGuardError when the name is a link (symlink or hard link), not a file.
   */
  async get(name: string): Promise<(ArtifactInfo & { bytes: Uint8Array }) | undefined> {
    checkArtifactName(name);
    try {
      const file = await safeReadFile(this.#target, name, ARTIFACT_MAX_BYTES);
      return { name, size: file.size, mtime: file.mtime.toISOString(), bytes: file.bytes };
    } catch (e) {
      if (e instanceof PathGuardError && e.reason === "missing") return undefined;
      throw e;
    }
  }

  /** Removes every artifact (the session closed); a link there is removed, not followed. */
  async wipe(): Promise<void> {
    await safeRemove({ workspace: this.#target.workspace }, this.area, { recursive: true })
      .catch(() => {});
  }
}
