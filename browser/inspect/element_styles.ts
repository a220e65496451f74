/**
 * `styles_read` and `styles_write`'s model (seed 003, `styles::read`, `styles::write`): an
 * element's computed styles (a curated design set, named properties, or all) with its inline
 * `style`, and one inline property set or removed, live in the page. The edit is the page's
 * own inline style: it lasts until the page rewrites that attribute or the next navigation.
 *
 * @module
 */
import { callOnHandle, type RemoteHandle, withSignal } from "../injected/mod.ts";
import type { StylesInfo } from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";

/** What `styles_read` returns when no properties are named: what a design panel shows. */
export const DESIGN_PROPERTIES: readonly string[] = [
  "display",
  "position",
  "top",
  "left",
  "z-index",
  "width",
  "height",
  "box-sizing",
  "margin",
  "padding",
  "border",
  "border-radius",
  "overflow",
  "color",
  "background-color",
  "background-image",
  "opacity",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "line-height",
  "letter-spacing",
  "text-align",
  "text-decoration",
  "flex-direction",
  "justify-content",
  "align-items",
  "gap",
  "grid-template-columns",
  "box-shadow",
  "transform",
  "cursor",
];

/**
 * The computed styles of an element: `properties` omitted gives {@link DESIGN_PROPERTIES},
 * `["*"]` every property the browser computes, else the named ones (custom `--properties`
 * too). CDP: `Runtime.callFunctionOn` in the element's utility world (`getComputedStyle`).
 *
 * @throws ToolError invalid-argument when no named property is one the browser knows.
 */
export async function readStyles(
  element: RemoteHandle,
  properties: readonly string[] | undefined,
  signal?: AbortSignal,
): Promise<StylesInfo> {
  const all = properties?.length === 1 && properties[0] === "*";
  const names = all ? null : [...(properties ?? DESIGN_PROPERTIES)];
  const info = await callOnHandle(withSignal(element, signal), "inspectStyles", [names]);
  if (names && names.length && info.unknown.length === names.length) {
    throw new ToolError(
      "invalid-argument",
      `Unknown CSS ${names.length > 1 ? "properties" : "property"}: ${
        info.unknown.map((n) => JSON.stringify(n)).join(", ")
      }`,
      'name CSS properties as in a stylesheet ("background-color", "--brand"); omit properties for a design set, or ["*"] for all',
    );
  }
  return info;
}

/** What {@link writeStyle} reports. */
export interface StyleWrite {
  /** The element's `style` attribute after the edit. */
  inline_style: string;
  /** The property's computed value after the edit. */
  computed: string;
}

/**
 * Sets one inline style property on an element (`value` empty: removes it), `!important` when
 * asked. CDP: `Runtime.callFunctionOn` (`style.setProperty` / `removeProperty`).
 *
 * @throws ToolError invalid-argument on an unknown property or a value the browser refuses for
 *   it (nothing changed).
 */
export async function writeStyle(
  element: RemoteHandle,
  edit: { property: string; value: string; important: boolean },
  signal?: AbortSignal,
): Promise<StyleWrite> {
  const r = await callOnHandle(withSignal(element, signal), "inspectStyleWrite", [
    edit.property,
    edit.value,
    edit.important,
  ]);
  if (!r.ok) {
    throw new ToolError(
      "invalid-argument",
      `Cannot set ${JSON.stringify(edit.property)}: ${r.error}; nothing changed`,
      'pass a CSS property and a value it takes, e.g. { property: "background-color", value: "#101418" }',
    );
  }
  return { inline_style: r.inline, computed: r.computed };
}
