/**
 * Path helpers for tests (node:path and node:url; std is on JSR).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export { dirname, join };

/** A file URL to a path. */
export function fromFileUrl(url: string): string {
  return fileURLToPath(url);
}
