/**
 * Test assertions over `node:assert/strict` (std's @std/assert lives on JSR,
 * which our machines cannot reach).
 *
 * @module
 */
import assert from "node:assert/strict";

/** Deep strict equality. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  assert.deepStrictEqual(actual, expected, message);
}

/** Truthiness. */
export function assertTrue(value: unknown, message?: string): asserts value {
  assert.ok(value, message);
}

/** Substring check with a readable failure. */
export function assertIncludes(haystack: string, needle: string, message?: string): void {
  if (!haystack.includes(needle)) {
    const detail = `expected to find ${JSON.stringify(needle)} in:\n${haystack}`;
    assert.fail(message ? `${message}: ${detail}` : detail);
  }
}

/** Negative substring check. */
export function assertNotIncludes(haystack: string, needle: string, message?: string): void {
  if (haystack.includes(needle)) {
    assert.fail(message ?? `expected not to find ${JSON.stringify(needle)} in:\n${haystack}`);
  }
}

/** Asserts `fn` throws an instance of `ErrorClass`; returns the error. */
export function assertThrows<E extends Error>(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  ErrorClass: new (...args: any[]) => E,
): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof ErrorClass) return e;
    throw new assert.AssertionError({ message: `expected ${ErrorClass.name}, got ${e}` });
  }
  throw new assert.AssertionError({ message: `expected ${ErrorClass.name} to be thrown` });
}

/** Asserts the promise rejects with an instance of `ErrorClass`; returns the error. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  ErrorClass: new (...args: any[]) => E,
): Promise<E> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ErrorClass) return e;
    throw new assert.AssertionError({ message: `expected ${ErrorClass.name}, got ${e}` });
  }
  throw new assert.AssertionError({ message: `expected ${ErrorClass.name} rejection` });
}
