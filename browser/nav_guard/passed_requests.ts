/**
 * Which main-frame document requests the navigation guard let through, per
 * tab, until they commit: a commit with no such request (a page a
 * speculation rule prefetched or prerendered, a back/forward-cache restore)
 * was never judged, and the guard judges it then.
 *
 * @module
 */
import { withoutFragment } from "./blocked_page.ts";

/** How many let-through requests a tab remembers (redirect hops, overlapping navigations). */
const KEPT = 8;

/** Let-through main-frame requests by target id (URLs without fragment). */
export class PassedRequests {
  #byTarget = new Map<string, string[]>();

  /** Remembers that a main-frame request of `targetId` to `url` was let through. */
  mark(targetId: string, url: string): void {
    const list = this.#byTarget.get(targetId) ?? [];
    list.push(withoutFragment(url));
    this.#byTarget.set(targetId, list.slice(-KEPT));
  }

  /** True (and forgotten) when a request of `targetId` to `url` was let through. */
  take(targetId: string, url: string): boolean {
    const list = this.#byTarget.get(targetId) ?? [];
    const i = list.lastIndexOf(withoutFragment(url));
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  }

  /** Forgets a closed tab. */
  forget(targetId: string): void {
    this.#byTarget.delete(targetId);
  }
}
