/**
 * JSON out of V8's deep serialization (`Runtime.DeepSerializedValue`, what
 * `Runtime.callFunctionOn` returns with `serializationOptions: { serialization:
 * "deep" }`): exact for JSON values, and a {@link NonJsonValueError} naming
 * the place and the type of anything JSON cannot carry, never a changed value.
 *
 * @module
 */
import type { Protocol } from "../cdp/types.ts";

/** A stored value that JSON cannot carry as it is. */
export class NonJsonValueError extends Error {
  /** Where in the value, e.g. `$`, `$.meta.created`, `$.items[2]`. */
  readonly path: string;
  /** What is there, e.g. `Date`, `Blob or other platform object`, `Map`, `undefined`. */
  readonly valueType: string;
  constructor(path: string, valueType: string) {
    super(`the value holds a ${valueType} at ${path}, which JSON cannot carry`);
    this.name = "NonJsonValueError";
    this.path = path;
    this.valueType = valueType;
  }
}

const TYPE_NAMES: Record<string, string> = {
  date: "Date",
  map: "Map",
  set: "Set",
  regexp: "RegExp",
  error: "Error",
  bigint: "BigInt",
  typedarray: "typed array",
  arraybuffer: "ArrayBuffer",
  platformobject: "Blob, File or other platform object",
  undefined: "undefined",
};

/**
 * Converts V8's deep serialization (`Runtime.DeepSerializedValue`) to JSON.
 * A value met twice is serialized once (`weakLocalObjectReference`): a
 * shared one is repeated, a cycle is an error. `-0` becomes 0.
 *
 * @throws NonJsonValueError at the first thing JSON cannot carry (Date, Map,
 *   Set, RegExp, BigInt, typed arrays, platform objects such as Blob,
 *   undefined and array holes, NaN, ±Infinity, cycles).
 */
export function deepToJson(v: Protocol.Runtime.DeepSerializedValue): unknown {
  return fromDeep(v, "$", new Map(), new Set());
}

function fromDeep(
  v: Protocol.Runtime.DeepSerializedValue,
  path: string,
  seen: Map<number, unknown>,
  open: Set<number>,
): unknown {
  const ref = v.weakLocalObjectReference;
  if (ref !== undefined && v.value === undefined && (v.type === "object" || v.type === "array")) {
    if (open.has(ref)) throw new NonJsonValueError(path, "circular reference");
    if (seen.has(ref)) return seen.get(ref);
    throw new NonJsonValueError(path, `${v.type} reference`);
  }
  switch (v.type) {
    case "null":
      return null;
    case "string":
    case "boolean":
      return v.value;
    case "number":
      if (typeof v.value === "number") return v.value;
      if (v.value === "-0") return 0;
      throw new NonJsonValueError(path, `number ${v.value}`);
    case "array":
    case "object": {
      if (ref !== undefined) open.add(ref);
      let out: unknown;
      if (v.type === "array") {
        out = (v.value as Protocol.Runtime.DeepSerializedValue[]).map((item, i) =>
          fromDeep(item, `${path}[${i}]`, seen, open)
        );
      } else {
        const obj: Record<string, unknown> = {};
        for (const [k, item] of v.value as Array<[unknown, Protocol.Runtime.DeepSerializedValue]>) {
          if (typeof k !== "string") throw new NonJsonValueError(path, "non-string property key");
          const at = /^[A-Za-z_$][\w$]*$/.test(k)
            ? `${path}.${k}`
            : `${path}[${JSON.stringify(k)}]`;
          obj[k] = fromDeep(item, at, seen, open);
        }
        out = obj;
      }
      if (ref !== undefined) {
        open.delete(ref);
        seen.set(ref, out);
      }
      return out;
    }
    default:
      throw new NonJsonValueError(path, TYPE_NAMES[v.type] ?? v.type);
  }
}
