/**
 * The `covered` error of a cover an agent cannot tell from its description: the element's
 * own card's stretched link (a link whose box or `::after` spans the card, so a person's
 * click lands on it too) and a transparent layer that shows nothing but takes the pointer
 * (see the page-side `CoverFacts`), and a sticky header or fixed banner no scroll of the element
 * cleared. The error says what the cover is and the way out; the
 * cover's ref, when it has one, is named once the action knows the tab's refs
 * ({@link nameCoverRef}).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { CoverFacts } from "../injected/page_types.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { ToolError } from "../tool_error.ts";

/** Where a cover lives, for {@link nameCoverRef}: its frame and the page-side facts. */
interface CoverSite {
  frameId: string;
  by: string;
  cover: CoverFacts;
}

/** Covered errors whose cover may have a ref (kept off the error's details: internal). */
const sites = new WeakMap<ToolError, CoverSite>();

/** What to do instead of a pointer click on the covered element itself. */
const BY_FOCUS = "press Enter (Space for a checkbox) on it (its ref or selector): focus " +
  "reaches it without the pointer";

/**
 * The `covered` error (stage `before`) for a cover of a known kind; `ref` is the cover's ref
 * when known. `frameId` (the element's frame) lets {@link nameCoverRef} find that ref later.
 */
export function coverKindError(
  by: string,
  cover: CoverFacts,
  where: { frameId?: string | undefined; ref?: string | undefined },
): ToolError {
  const { ref } = where;
  const named = ref ? `${by} [ref=${ref}]` : by;
  const error = cover.kind === "stretched"
    ? new ToolError(
      "covered",
      `The element is covered by ${named}, its card's stretched link: ${
        cover.pseudo ? `the link's ${cover.pseudo}` : "the link's box"
      } spans the card (${cover.card}), so a click on the element lands on that link, for a person too`,
      `to follow the link, click ${ref ?? "the link itself"}; to use this element, ${BY_FOCUS}`,
      { coveredBy: by, cover: "stretched-link", ...(ref ? { coverRef: ref } : {}) },
    )
    : cover.kind === "pinned"
    ? new ToolError(
      "covered",
      `The element is covered by ${named}, a ${cover.position ?? "fixed"} box (a header or ` +
        "banner) that stays on screen as the page scrolls: scrolled to the middle, bottom and " +
        "top of the view, the element stayed under it",
      "if it is a banner with a close or accept control, use that and retry; else scroll the " +
        `page by a few hundred px (scroll({ by: { y: -300 } })) and retry, or ${BY_FOCUS}`,
      { coveredBy: by, cover: "pinned", ...(ref ? { coverRef: ref } : {}) },
    )
    : new ToolError(
      "covered",
      `The element is covered by ${named}, a transparent layer: it shows nothing, is no ` +
        "control, yet takes the pointer (its pointer-events are on), so a click there lands on " +
        "it, for a person too",
      `if the layer goes once the page is ready, wait_for that and retry; else ${BY_FOCUS}`,
      { coveredBy: by, cover: "transparent-layer", ...(ref ? { coverRef: ref } : {}) },
    );
  if (!ref && where.frameId) sites.set(error, { frameId: where.frameId, by, cover });
  return error;
}

/**
 * `e` with the cover's ref named, when `e` is a {@link coverKindError} whose cover has a ref
 * in the tab's registry (the ref is marked shown: the error carries it to the agent); else
 * `e` itself. No CDP.
 */
export function nameCoverRef(e: unknown, refs: RefRegistry, page: Page): unknown {
  if (!(e instanceof ToolError)) return e;
  const site = sites.get(e);
  const frame = site && page.frame(site.frameId);
  if (!site || !frame) return e;
  const ref = refs.lookup({
    targetId: page.target.targetId,
    frameId: site.frameId,
    loaderId: frame.loaderId,
    instance: site.cover.inst,
    localId: site.cover.id,
  });
  if (!ref) return e;
  refs.markShown([ref]);
  return coverKindError(site.by, site.cover, { ref });
}

/**
 * `e`, an actionability failure of a drag's destination (covered, clipped, hidden), worded for
 * that end: "Did not drag: the destination …" for "The element …", and the focus way out (a
 * drop has none) replaced by `instead`. Other errors are returned as they are; the cover's ref
 * site is kept for {@link nameCoverRef}. No CDP.
 */
export function asDropError(e: unknown, instead: string): unknown {
  if (!(e instanceof ToolError) || !/^The element\b/.test(e.message)) return e;
  const message = `Did not drag: the destination${e.message.slice("The element".length)}`
    .replace(/the element stayed under it$/, "it stayed under it")
    .replace("which would receive the click", "which would receive the drop")
    .replace(/a click (there|on the element) lands on/, "a drop there lands on");
  const hint = e.hint.replace(
    /(; to use this element, |; else |, or )press Enter .*$/,
    `$1${instead}`,
  );
  const out = new ToolError(e.code, message, hint, e.details);
  const site = sites.get(e);
  if (site) sites.set(out, site);
  return out;
}
