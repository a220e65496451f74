/// <reference lib="dom" />
/**
 * The page-side ref check: whether the element of a ref is still what the agent was shown (its
 * role, name and context). Installed after `context_lib.ts` (it uses `contextOf`) and
 * `snapshot_lib.ts`'s element part (`element`, `instance`, `refRole`, `isEditableRoot`).
 *
 * Adds to the utility api:
 * - `describe(id, instance?) → { role, name, editable, context } | null`: what the
 *   element of a ref is now, to check a ref still names the same thing.
 * - `refState(id, instance) → { state: "ok", role, name, editable, context } |
 *   { state: "gone" } | { state: "world" }`: like `describe`, telling a replaced world apart.
 * - `refElement(id, instance, role, name, context | null, notLabel?): Element | null`: the
 *   element when it is exactly what the ref was shown as (ref resolution in one call; with
 *   `notLabel`, and no `<label>`), else null.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { RefState } from "./page_types.ts";

/** Adds the ref check (see the module doc) to the utility api. */
export function installRefCheckLib(api: PageApi): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const element = api.element as Fn<[number, string?], Element | null>;
  const refRole = api.refRole as Fn<[Element], string>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const contextOf = api.contextOf as Fn<[Element, string, string], [string, string]>;
  const TEXT_ENTRY = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
  const instance = api.instance as string;

  function describe(id: number, inst?: string) {
    const el = element(id, inst);
    if (!el) return null;
    const role = refRole(el);
    const name = nameOf(el);
    return {
      role,
      name,
      editable: TEXT_ENTRY.has(role) || isEditableRoot(el),
      context: contextOf(el, role, name),
    };
  }

  // For ref resolution: tells "another world" (the document or world was replaced) from
  // "element gone", and reports what the element is now.
  function refState(id: number, inst: string): RefState {
    if (inst !== instance) return { state: "world" };
    const d = describe(id);
    return d ? { state: "ok", ...d } : { state: "gone" };
  }

  // Ref resolution in one call: the element when it is still exactly what the ref was shown
  // as (same world, role, name and, when given, context); null for anything else, which the
  // caller then asks `refState` about (the reason, or a change it accepts).
  // `notLabel`: a <label> answers null too (a form action then acts on its control instead).
  function refElement(
    id: number,
    inst: string,
    role: string,
    name: string,
    context: [string, string] | null,
    notLabel?: boolean,
  ): Element | null {
    if (inst !== instance) return null;
    const d = describe(id);
    if (!d || d.role !== role || d.name !== name) return null;
    if (context && (d.context[0] !== context[0] || d.context[1] !== context[1])) return null;
    const el = element(id);
    return notLabel && el instanceof HTMLLabelElement ? null : el;
  }

  api.describe = describe;
  // The audit's note of what an action hit (`acted_target.ts`): one call, not two.
  api.roleNameOf = (el: Element) => [(api.roleOf as Fn<[Element], string>)(el), nameOf(el)];
  api.refState = refState;
  api.refElement = refElement;
}
