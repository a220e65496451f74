/// <reference lib="dom" />
/**
 * DOM reads that a page cannot clobber. `HTMLFormElement` is `[LegacyOverrideBuiltIns]`: a
 * control named like a DOM member shadows that member on its form, in every world, ours
 * included (`<form><input name="hasAttribute"></form>` makes `form.hasAttribute` the input),
 * so a hostile page could make every walk throw, or hide its content from the agent
 * (`nextSibling`, `firstChild`, `nodeType`). The accessors here read through the members
 * captured from the prototypes at install time when the receiver is a form (our world's
 * `HTMLFormElement`, which the page cannot reach), and through the member itself otherwise
 * (any receiver: a text node, a document, a shadow root, as before).
 *
 * Sent as source text: {@link installDomSafeLib} must not use anything from its module scope.
 *
 * @module
 */
import type { DomSafe } from "./dom_safe_types.ts";
import type { PageApi } from "./page_api.ts";

/**
 * Adds `dom` ({@link DomSafe}) to the utility api: a core part, installed before the others,
 * which read it at their install.
 */
export function installDomSafeLib(api: PageApi): void {
  const F = HTMLFormElement;
  // deno-lint-ignore no-explicit-any
  type AnyFn = (this: any, ...a: any[]) => any;
  const getter = (proto: object, name: string) =>
    Object.getOwnPropertyDescriptor(proto, name)!.get as AnyFn;
  const E = Element.prototype, N = Node.prototype;
  const localName = getter(E, "localName"), tagName = getter(E, "tagName"), id = getter(E, "id");
  const shadowRoot = getter(E, "shadowRoot"), children = getter(E, "children");
  const nodeType = getter(N, "nodeType"), parentNode = getter(N, "parentNode");
  const parentElement = getter(N, "parentElement"), firstChild = getter(N, "firstChild");
  const nextSibling = getter(N, "nextSibling"), childNodes = getter(N, "childNodes");
  const textContent = getter(N, "textContent"), elements = getter(F.prototype, "elements");
  const assignedSlot = getter(E, "assignedSlot"), attributes = getter(E, "attributes");
  const isContentEditable = getter(HTMLElement.prototype, "isContentEditable");
  const ownerDocument = getter(N, "ownerDocument"), isConnected = getter(N, "isConnected");
  const { getAttribute, hasAttribute, checkVisibility, getBoundingClientRect, closest, matches } =
    E;
  const { querySelectorAll, querySelector, getClientRects, scrollIntoView } = E;
  const scrollBy = E.scrollBy as (this: Element, opts: ScrollToOptions) => void;
  const { focus } = HTMLElement.prototype;
  const { addEventListener, removeEventListener } = EventTarget.prototype;
  // The document is [LegacyOverrideBuiltIns] too: `<img name=forms>` is `document.forms`.
  const D = Document.prototype;
  const forms = getter(D, "forms"), body = getter(D, "body");
  const { getRootNode, contains } = N;
  const dom: DomSafe = {
    localOf: (el) => el instanceof F ? localName.call(el) : el.localName,
    nodeTypeOf: (n) => n instanceof F ? nodeType.call(n) : n.nodeType,
    attrOf: (el, name) => el instanceof F ? getAttribute.call(el, name) : el.getAttribute(name),
    hasAttrOf: (el, name) => el instanceof F ? hasAttribute.call(el, name) : el.hasAttribute(name),
    parentOf: (n) => n instanceof F ? parentNode.call(n) : n.parentNode,
    parentElOf: (n) => n instanceof F ? parentElement.call(n) : n.parentElement,
    firstOf: (n) => n instanceof F ? firstChild.call(n) : n.firstChild,
    nextOf: (n) => n instanceof F ? nextSibling.call(n) : n.nextSibling,
    childListOf: (n) => n instanceof F ? childNodes.call(n) : n.childNodes,
    childrenOf: (el) => el instanceof F ? children.call(el) : el.children,
    shadowRootOf: (el) => el instanceof F ? shadowRoot.call(el) : el.shadowRoot,
    visibleEl: (el, opts) =>
      el instanceof F ? checkVisibility.call(el, opts) : el.checkVisibility(opts),
    rectOf: (el) => el instanceof F ? getBoundingClientRect.call(el) : el.getBoundingClientRect(),
    // deno-lint-ignore no-explicit-any
    closestOf: (el: Element, sel: string): any =>
      el instanceof F ? closest.call(el, sel) : el.closest(sel),
    matchesOf: (el, sel) => el instanceof F ? matches.call(el, sel) : el.matches(sel),
    textContentOf: (n) => n instanceof F ? textContent.call(n) : n.textContent,
    tagNameOf: (el) => el instanceof F ? tagName.call(el) : el.tagName,
    elIdOf: (el) => el instanceof F ? id.call(el) : el.id,
    rootNodeOf: (n, opts) => n instanceof F ? getRootNode.call(n, opts) : n.getRootNode(opts),
    containsOf: (n, other) => n instanceof F ? contains.call(n, other) : n.contains(other),
    // deno-lint-ignore no-explicit-any
    qsaOf: (n: ParentNode, sel: string): any =>
      n instanceof F ? querySelectorAll.call(n, sel) : n.querySelectorAll(sel),
    // deno-lint-ignore no-explicit-any
    qsOf: (n: ParentNode, sel: string): any =>
      n instanceof F ? querySelector.call(n, sel) : n.querySelector(sel),
    attrsOf: (el) => el instanceof F ? attributes.call(el) : el.attributes,
    editableOf: (el) =>
      el instanceof F ? isContentEditable.call(el) : !!(el as HTMLElement).isContentEditable,
    docOf: (n) => n instanceof F ? ownerDocument.call(n) : n.ownerDocument,
    connectedOf: (n) => n instanceof F ? isConnected.call(n) : n.isConnected,
    slotOf: (n) => n instanceof F ? assignedSlot.call(n) : n.assignedSlot,
    formElementsOf: (form) => elements.call(form),
    clientRectsOf: (el) => el instanceof F ? getClientRects.call(el) : el.getClientRects(),
    scrollIntoViewOf: (el, opts) =>
      el instanceof F ? scrollIntoView.call(el, opts) : el.scrollIntoView(opts),
    scrollByOf: (el, opts) => el instanceof F ? scrollBy.call(el, opts) : el.scrollBy(opts),
    focusOf: (el) => el instanceof F ? focus.call(el) : (el as HTMLElement).focus?.(),
    listenOf: (el, type, fn, capture) =>
      el instanceof F
        ? addEventListener.call(el, type, fn, capture)
        : el.addEventListener(type, fn, capture),
    unlistenOf: (el, type, fn, capture) =>
      el instanceof F
        ? removeEventListener.call(el, type, fn, capture)
        : el.removeEventListener(type, fn, capture),
    docFormsOf: (doc) => forms.call(doc),
    docBodyOf: (doc) => body.call(doc),
  };
  api.dom = Object.freeze(dom);
}
