/// <reference lib="dom" />
/**
 * The type of `api.dom` (dom_safe_lib.ts): DOM reads a page cannot clobber through a form's
 * named controls.
 *
 * @module
 */

/** The unclobberable DOM reads (`api.dom`); each is the same-named member read safely. */
export interface DomSafe {
  /** `el.localName`. */
  localOf(el: Element): string;
  /** `n.nodeType`. */
  nodeTypeOf(n: Node): number;
  /** `el.getAttribute(name)`. */
  attrOf(el: Element, name: string): string | null;
  /** `el.hasAttribute(name)`. */
  hasAttrOf(el: Element, name: string): boolean;
  /** `n.parentNode`. */
  parentOf(n: Node): ParentNode | null;
  /** `n.parentElement`. */
  parentElOf(n: Node): HTMLElement | null;
  /** `n.firstChild`. */
  firstOf(n: Node): ChildNode | null;
  /** `n.nextSibling`. */
  nextOf(n: Node): ChildNode | null;
  /** `n.childNodes`. */
  childListOf(n: Node): NodeListOf<ChildNode>;
  /** `el.children`. */
  childrenOf(el: Element): HTMLCollection;
  /** `el.shadowRoot` (open roots only). */
  shadowRootOf(el: Element): ShadowRoot | null;
  /** `el.checkVisibility(opts)`. */
  visibleEl(el: Element, opts?: CheckVisibilityOptions): boolean;
  /** `el.getBoundingClientRect()`. */
  rectOf(el: Element): DOMRect;
  /** `el.closest(sel)`. */
  closestOf<K extends keyof HTMLElementTagNameMap>(
    el: Element,
    sel: K,
  ): HTMLElementTagNameMap[K] | null;
  closestOf<E extends Element = Element>(el: Element, sel: string): E | null;
  /** `el.matches(sel)`. */
  matchesOf(el: Element, sel: string): boolean;
  /** `n.textContent`. */
  textContentOf(n: Node): string | null;
  /** `el.tagName`. */
  tagNameOf(el: Element): string;
  /** `el.id`. */
  elIdOf(el: Element): string;
  /** `n.getRootNode(opts)`. */
  rootNodeOf(n: Node, opts?: GetRootNodeOptions): Node;
  /** `n.contains(other)`. */
  containsOf(n: Node, other: Node | null): boolean;
  /** `n.querySelectorAll(sel)` (an element, a document or a shadow root). */
  qsaOf<K extends keyof HTMLElementTagNameMap>(
    n: ParentNode,
    sel: K,
  ): NodeListOf<HTMLElementTagNameMap[K]>;
  qsaOf<E extends Element = Element>(n: ParentNode, sel: string): NodeListOf<E>;
  /** `n.querySelector(sel)`. */
  qsOf<K extends keyof HTMLElementTagNameMap>(
    n: ParentNode,
    sel: K,
  ): HTMLElementTagNameMap[K] | null;
  qsOf<E extends Element = Element>(n: ParentNode, sel: string): E | null;
  /** `el.attributes`. */
  attrsOf(el: Element): NamedNodeMap;
  /** `el.isContentEditable` (false for an element that is not an HTML element). */
  editableOf(el: Element): boolean;
  /** `n.ownerDocument`. */
  docOf(n: Node): Document | null;
  /** `n.isConnected`. */
  connectedOf(n: Node): boolean;
  /** `n.assignedSlot` (an element or a text node). */
  slotOf(n: Element | Text): HTMLSlotElement | null;
  /** `form.elements`. */
  formElementsOf(form: HTMLFormElement): HTMLFormControlsCollection;
  /** `el.getClientRects()`. */
  clientRectsOf(el: Element): DOMRectList;
  /** `el.scrollIntoView(opts)`. */
  scrollIntoViewOf(el: Element, opts?: ScrollIntoViewOptions): void;
  /** `el.scrollBy(opts)`. */
  scrollByOf(el: Element, opts: ScrollToOptions): void;
  /** `el.focus()` (nothing for an element that is not an HTML element). */
  focusOf(el: Element): void;
  /** `el.addEventListener(type, fn, capture)`. */
  listenOf(el: Element, type: string, fn: EventListener, capture: boolean): void;
  /** `el.removeEventListener(type, fn, capture)`. */
  unlistenOf(el: Element, type: string, fn: EventListener, capture: boolean): void;
  /** `doc.forms` (a page's `<img name=forms>` shadows it on the document). */
  docFormsOf(doc: Document): HTMLCollectionOf<HTMLFormElement>;
  /** `doc.body`. */
  docBodyOf(doc: Document): HTMLElement | null;
}
