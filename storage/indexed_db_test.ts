import { assertEquals, assertThrows } from "../tests/_assert.ts";
import type { Protocol } from "../cdp/types.ts";
import { deepToJson, deepToMarkedJson, NonJsonValueError } from "./deep_json.ts";
import { candidateKeys, InvalidKeyError, toCdpKey } from "./indexed_db.ts";

type D = Protocol.Runtime.DeepSerializedValue;
const num = (value: number | string): D => ({ type: "number", value });
const str = (value: string): D => ({ type: "string", value });

Deno.test("deepToJson: JSON values come back as they are", () => {
  const v: D = {
    type: "object",
    value: [
      ["id", str("n1")],
      ["n", num(1.5)],
      ["zero", num("-0")],
      ["ok", { type: "boolean", value: true }],
      ["none", { type: "null" }],
      ["tags", { type: "array", value: [str("a"), { type: "array", value: [] }] }],
      ["a b", { type: "object", value: [] }],
    ],
  };
  assertEquals(deepToJson(v), {
    id: "n1",
    n: 1.5,
    zero: 0,
    ok: true,
    none: null,
    tags: ["a", []],
    "a b": {},
  });
});

Deno.test("deepToJson: a shared object is repeated, a cycle is an error", () => {
  // V8's serialization of `const a = {x: 1}; ({p: a, q: [a]})`.
  const shared: D = {
    type: "object",
    value: [
      ["p", { type: "object", value: [["x", num(1)]], weakLocalObjectReference: 1 }],
      ["q", { type: "array", value: [{ type: "object", weakLocalObjectReference: 1 }] }],
    ],
  };
  assertEquals(deepToJson(shared), { p: { x: 1 }, q: [{ x: 1 }] });
  // `const a = {x: 1}; a.self = a`.
  const cycle: D = {
    type: "object",
    value: [["x", num(1)], ["self", { type: "object", weakLocalObjectReference: 1 }]],
    weakLocalObjectReference: 1,
  };
  const e = assertThrows(() => deepToJson(cycle), NonJsonValueError);
  assertEquals([e.path, e.valueType], ["$.self", "circular reference"]);
});

Deno.test("deepToJson: what JSON cannot carry is named with its path", () => {
  const cases: Array<[D, string, string]> = [
    [{ type: "date", value: "2024-01-02T03:04:05.000Z" }, "$", "Date"],
    [{ type: "object", value: [["m", { type: "map", value: [] }]] }, "$.m", "Map"],
    [{ type: "array", value: [num(1), { type: "undefined" }] }, "$[1]", "undefined"],
    [{ type: "object", value: [["x-y", num("NaN")]] }, '$["x-y"]', "number NaN"],
    [{ type: "array", value: [num("Infinity")] }, "$[0]", "number Infinity"],
    [{ type: "bigint", value: "1" }, "$", "BigInt"],
    [{ type: "typedarray" }, "$", "typed array"],
    [
      { type: "object", value: [["pic", { type: "platformobject" } as unknown as D]] },
      "$.pic",
      "Blob, File or other platform object",
    ],
  ];
  for (const [value, path, valueType] of cases) {
    const e = assertThrows(() => deepToJson(value), NonJsonValueError);
    assertEquals([e.path, e.valueType], [path, valueType], JSON.stringify(value));
  }
});

Deno.test("deepToMarkedJson: markers where JSON cannot carry a value, their places listed", () => {
  const v: D = {
    type: "object",
    value: [
      ["when", { type: "date", value: "2024-01-02T03:04:05.000Z" }],
      ["ok", str("x")],
      ["tags", { type: "set", value: [str("a")] }],
      ["m", { type: "map", value: [["k", num("Infinity")]] }],
      ["re", { type: "regexp", value: { pattern: "a+", flags: "g" } }],
      ["n", { type: "bigint", value: "5" }],
      ["u", { type: "undefined" }],
      ["buf", { type: "arraybuffer" }],
    ],
    weakLocalObjectReference: 1,
  };
  const { value, marked } = deepToMarkedJson(v);
  assertEquals(value, {
    when: { $date: "2024-01-02T03:04:05.000Z" },
    ok: "x",
    tags: { $set: ["a"] },
    m: { $map: [["k", { $number: "Infinity" }]] },
    re: { $regexp: "/a+/g" },
    n: { $bigint: "5" },
    u: { $undefined: true },
    buf: { $opaque: "ArrayBuffer" },
  });
  assertEquals(marked.map((m) => `${m.path} ${m.type}`), [
    "$.when Date",
    "$.tags Set",
    "$.m Map",
    "$.m[0][1] number Infinity",
    "$.re RegExp",
    "$.n BigInt",
    "$.u undefined",
    "$.buf ArrayBuffer",
  ]);
  // A cycle points back to where its object began; plain JSON has nothing marked.
  const cycle: D = {
    type: "object",
    value: [["inner", {
      type: "object",
      value: [["up", { type: "object", weakLocalObjectReference: 2 }]],
      weakLocalObjectReference: 2,
    }]],
  };
  assertEquals(deepToMarkedJson(cycle).value, { inner: { up: { $cycle: "$.inner" } } });
  assertEquals(deepToMarkedJson(str("plain")), { value: "plain", marked: [] });
});

Deno.test("toCdpKey / candidateKeys: JSON keys, and ISO strings also as Date keys", () => {
  assertEquals(toCdpKey(["a", 1, []]), {
    type: "array",
    array: [{ type: "string", string: "a" }, { type: "number", number: 1 }, {
      type: "array",
      array: [],
    }],
  });
  for (const bad of [null, true, { a: 1 }, NaN, ["a", null], undefined]) {
    assertThrows(() => toCdpKey(bad), InvalidKeyError);
  }
  assertEquals(candidateKeys("2024-01-01T00:00:00.000Z"), [
    { type: "string", string: "2024-01-01T00:00:00.000Z" },
    { type: "date", date: Date.UTC(2024, 0, 1) },
  ]);
  assertEquals(candidateKeys("2024-01-01"), [{ type: "string", string: "2024-01-01" }]);
  assertEquals(candidateKeys(5), [{ type: "number", number: 5 }]);
});
