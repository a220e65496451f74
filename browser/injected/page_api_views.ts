/// <reference lib="dom" />
/**
 * Deno-side views of the page-side api ({@link PageApi}, `page_api.ts`): which names each
 * call helper of `mod.ts` takes: {@link ValueMethod} for by-value calls,
 * {@link HandleResultMethod} for calls answering an element, {@link OnElementMethod} for calls
 * on an element handle; with the argument and result types of a method ({@link PageArgs},
 * {@link ArgsAfter}, {@link PageResult}).
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

type AnyFn = (...args: never[]) => unknown;
type ParamsOf<F> = F extends (...args: infer P) => unknown ? P : never;
type ResultOf<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** Names of the api's methods (`instance` and `formKit` are data). */
export type PageMethod = {
  [K in keyof PageApi]: PageApi[K] extends AnyFn ? K : never;
}[keyof PageApi];

/**
 * `T` with what `returnByValue` cannot carry (nodes, functions) turned to
 * `never`: a type equal to its `JsonSafe` crosses the CDP boundary intact.
 */
export type JsonSafe<T> = unknown extends T ? T
  : T extends string | number | boolean | null | undefined | void ? T
  : T extends Node | AnyFn ? never
  : { [P in keyof T]: JsonSafe<T[P]> };

/** The JSON arguments a method takes from Deno (node parameters can only get null). */
export type PageArgs<K extends PageMethod> = JsonSafe<ParamsOf<PageApi[K]>>;

/** The JSON arguments after the element (or the two elements) a handle call passes first. */
export type ArgsAfter<K extends PageMethod, N extends 1 | 2> = ParamsOf<PageApi[K]> extends
  [unknown, ...infer R] ? N extends 1 ? JsonSafe<R> : R extends [unknown, ...infer S] ? JsonSafe<S>
  : never
  : never;

/** What a method answers, its promise settled. */
export type PageResult<K extends PageMethod> = ResultOf<PageApi[K]>;

/** Methods whose result crosses by value (`callUtility`, `callOnHandle`). */
export type ValueMethod = {
  [K in PageMethod]: [PageResult<K>] extends [JsonSafe<PageResult<K>>] ? K : never;
}[PageMethod];

/** Methods answering an element or null (`callUtilityHandle`, `callOnHandleForHandle`). */
export type HandleResultMethod = {
  [K in PageMethod]: [PageResult<K>] extends [never] ? never
    : [PageResult<K>] extends [Element | null] ? K
    : never;
}[PageMethod];

/** Methods whose first parameter takes any element: callable on an element handle. */
export type OnElementMethod = {
  [K in PageMethod]: ParamsOf<PageApi[K]> extends [infer E, ...unknown[]]
    ? Element extends E ? K : never
    : never;
}[PageMethod];

/** Methods whose first two parameters take any element (`callOnHandles`). */
export type OnTwoElementsMethod = {
  [K in PageMethod]: ParamsOf<PageApi[K]> extends [infer A, infer B, ...unknown[]]
    ? Element extends A ? Element extends B ? K : never : never
    : never;
}[PageMethod];

/** A call helper's argument list: `args` may be left out when the method needs none. */
export type ArgList<A> = [] extends A ? [args?: A] : [args: A];
