import { assertEquals, assertIncludes, assertThrows } from "../tests/_assert.ts";
import { isConfirmHook, parseConfirmHooks } from "./hooks.ts";

Deno.test("parseConfirmHooks: lists, blanks and unknown names", () => {
  const table: Array<[string | undefined, string[]]> = [
    [undefined, []],
    ["", []],
    [" submit , publish ", ["submit", "publish"]],
    ["file_download,file_download", ["file_download"]],
  ];
  for (const [input, want] of table) assertEquals([...parseConfirmHooks(input)], want, input);
  const e = assertThrows(() => parseConfirmHooks("submit,sumbit"), RangeError);
  assertIncludes(e.message, '"sumbit"');
  assertIncludes(e.message, "publish");
  assertEquals([isConfirmHook("publish"), isConfirmHook("PUBLISH")], [true, false]);
});
