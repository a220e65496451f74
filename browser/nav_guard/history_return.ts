/**
 * Undoing a history move the guard could not hold: a page restored from the
 * back/forward cache (the page's own `history.back()`, Alt+Left) makes no
 * request, so the guard moves the tab back to the entry it came from.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { sameUrl } from "./blocked_page.ts";
import { poll } from "../poll.ts";

/** How long the tab may take to come back before the guard gives up, ms. */
const RETURN_MS = 8_000;
/** How long one history move may take to land before it is asked again, ms. */
const MOVE_LANDS_MS = 1_500;
/** Poll interval while waiting, ms. */
const POLL_MS = 50;

/**
 * Moves a tab from the refused entry (`refused`) back to the next-door entry
 * showing `back`, and resolves once its main frame shows `back` again (or
 * after {@link RETURN_MS}, or when the tab went elsewhere meanwhile).
 *
 * What the frame shows (`shows()`, kept from `Page.frameNavigated`) is the
 * truth; the history list may lag behind a restore, so a move is made only
 * once the list shows the refused entry as current (a move made earlier is
 * relative to the wrong entry, or dropped), and asked again when it did not
 * land in {@link MOVE_LANDS_MS}.
 *
 * CDP: `Page.getNavigationHistory`, `Page.navigateToHistoryEntry`.
 *
 * @throws ProtocolError / TargetClosedError from CDP (the tab closed).
 */
export async function returnTo(
  session: CdpSession,
  places: { back: string; refused: string; shows: () => string },
): Promise<void> {
  const { back, refused, shows } = places;
  let movedAt = 0;
  /** The entry last moved to: while the list shows it, the move is landing. */
  let movedTo: number | undefined;
  await poll(async () => {
    const now = shows();
    // Back; or the page went on elsewhere (its own navigation, judged on its own).
    if (sameUrl(now, back) || !sameUrl(now, refused)) return true;
    // Right after a commit with no request (a prefetched page shown), the tab's session may
    // answer "Not attached to an active page" for a moment: ask again.
    const history = await session.send("Page.getNavigationHistory").catch((e: unknown) => {
      if (/not attached to an active page/i.test(String(e))) return undefined;
      throw e;
    });
    if (!history) return false;
    const { currentIndex, entries } = history;
    const current = entries[currentIndex];
    if (
      current && current.id !== movedTo && sameUrl(current.url, refused) &&
      Date.now() - movedAt >= MOVE_LANDS_MS
    ) {
      const entry = [entries[currentIndex + 1], entries[currentIndex - 1]].find((x) =>
        x !== undefined && sameUrl(x.url, back)
      );
      if (!entry) return true;
      await session.send("Page.navigateToHistoryEntry", { entryId: entry.id });
      movedAt = Date.now();
      movedTo = entry.id;
    }
    return false;
  }, { timeoutMs: RETURN_MS, intervalMs: POLL_MS, maxIntervalMs: POLL_MS });
}
