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

/** A place in a value that JSON could not carry as it is, shown by a marker instead. */
export interface MarkedPlace {
  /** Where in the value, e.g. `$.when`. */
  path: string;
  /** What is there, e.g. `Date`, `Map`, `typed array`. */
  type: string;
}

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
  return fromDeep(v, "$", {
    seen: new Map(),
    open: new Set(),
    other: (path, type) => {
      throw new NonJsonValueError(path, type);
    },
  });
}

/**
 * Converts V8's deep serialization to JSON, with a marker object in place of
 * each thing JSON cannot carry, so one Date does not hide the rest of a value:
 * `{"$date": "2024-01-02T03:04:05.000Z"}`, `{"$bigint": "12"}`,
 * `{"$number": "NaN"}`, `{"$undefined": true}`, `{"$regexp": "/a/g"}`,
 * `{"$map": [[key, value], …]}`, `{"$set": [value, …]}`, `{"$cycle": "$"}`
 * (the path of the object it points back to), and for what V8 serializes
 * without contents `{"$opaque": "typed array"}` (also `ArrayBuffer`,
 * `Blob, File or other platform object`, `Error`, …).
 *
 * @returns the JSON and every marked place, in document order.
 */
export function deepToMarkedJson(
  v: Protocol.Runtime.DeepSerializedValue,
): { value: unknown; marked: MarkedPlace[] } {
  const marked: MarkedPlace[] = [];
  const walk: Walk = {
    seen: new Map(),
    open: new Map(),
    other: (path, type, d, at) => {
      marked.push({ path, type });
      return markerOf(type, d, path, walk, at);
    },
  };
  return { value: fromDeep(v, "$", walk), marked };
}

/** How a walk meets what JSON cannot carry (`at` is a cycle's target path). */
interface Walk {
  seen: Map<number, unknown>;
  /** Objects being converted, by reference, with their paths. */
  open: Set<number> | Map<number, string>;
  other(path: string, type: string, v: Protocol.Runtime.DeepSerializedValue, at?: string): unknown;
}

function markerOf(
  type: string,
  v: Protocol.Runtime.DeepSerializedValue,
  path: string,
  walk: Walk,
  at?: string,
): unknown {
  const items =
    () => (Array.isArray(v.value) ? v.value as Protocol.Runtime.DeepSerializedValue[] : []);
  switch (v.type) {
    case "date":
      return { $date: String(v.value) };
    case "bigint":
      return { $bigint: String(v.value) };
    case "number":
      return { $number: String(v.value) };
    case "undefined":
      return { $undefined: true };
    case "regexp": {
      const r = v.value as { pattern?: string; flags?: string } | undefined;
      return { $regexp: `/${r?.pattern ?? ""}/${r?.flags ?? ""}` };
    }
    case "set":
      return { $set: items().map((item, i) => fromDeep(item, `${path}[${i}]`, walk)) };
    case "map":
      return {
        $map: (v.value as Array<[unknown, Protocol.Runtime.DeepSerializedValue]> ?? []).map((
          [k, item],
          i,
        ) => [
          typeof k === "string"
            ? k
            : fromDeep(k as Protocol.Runtime.DeepSerializedValue, `${path}[${i}][0]`, walk),
          fromDeep(item, `${path}[${i}][1]`, walk),
        ]),
      };
    default:
      if (type === "circular reference") return { $cycle: at ?? "$" };
      return { $opaque: type };
  }
}

function fromDeep(
  v: Protocol.Runtime.DeepSerializedValue,
  path: string,
  walk: Walk,
): unknown {
  const { seen, open } = walk;
  const ref = v.weakLocalObjectReference;
  if (ref !== undefined && v.value === undefined && (v.type === "object" || v.type === "array")) {
    if (open.has(ref)) {
      const at = open instanceof Map ? open.get(ref) : undefined;
      return walk.other(path, "circular reference", v, at);
    }
    if (seen.has(ref)) return seen.get(ref);
    return walk.other(path, `${v.type} reference`, v);
  }
  // A Map or Set met again (its contents were serialized where it was met first).
  if (ref !== undefined && v.value === undefined && seen.has(ref)) return seen.get(ref);
  switch (v.type) {
    case "null":
      return null;
    case "string":
    case "boolean":
      return v.value;
    case "number":
      if (typeof v.value === "number") return v.value;
      if (v.value === "-0") return 0;
      return walk.other(path, `number ${v.value}`, v);
    case "array":
    case "object": {
      if (ref !== undefined) addOpen(open, ref, path);
      let out: unknown;
      if (v.type === "array") {
        out = (v.value as Protocol.Runtime.DeepSerializedValue[]).map((item, i) =>
          fromDeep(item, `${path}[${i}]`, walk)
        );
      } else {
        const obj: Record<string, unknown> = {};
        for (const [k, item] of v.value as Array<[unknown, Protocol.Runtime.DeepSerializedValue]>) {
          if (typeof k !== "string") {
            obj[String(k)] = walk.other(path, "non-string property key", v);
            continue;
          }
          const at = /^[A-Za-z_$][\w$]*$/.test(k)
            ? `${path}.${k}`
            : `${path}[${JSON.stringify(k)}]`;
          obj[k] = fromDeep(item, at, walk);
        }
        out = obj;
      }
      if (ref !== undefined) {
        open.delete(ref);
        seen.set(ref, out);
      }
      return out;
    }
    default: {
      const out = walk.other(path, TYPE_NAMES[v.type] ?? v.type, v);
      if (ref !== undefined) seen.set(ref, out);
      return out;
    }
  }
}

function addOpen(open: Set<number> | Map<number, string>, ref: number, path: string): void {
  if (open instanceof Map) open.set(ref, path);
  else open.add(ref);
}
