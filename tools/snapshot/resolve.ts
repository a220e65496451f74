// PROVISIONAL (lead)
import type { Page } from "../../cdp/page.ts";
import type { RemoteHandle } from "../injected/mod.ts";
import type { RefRegistry } from "./refs.ts";
export class RefGoneError extends Error {}
export function resolveRef(_p: Page, _r: RefRegistry, ref: string): Promise<RemoteHandle> {
  return Promise.reject(new RefGoneError(`ref ${ref} gone`));
}
