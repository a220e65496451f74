import { assertEquals } from "../../tests/_assert.ts";
import { IdScanner } from "./id_scanner.ts";

function scan(text: string, chunk = 3): unknown {
  const s = new IdScanner();
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += chunk) s.feed(bytes.subarray(i, i + chunk));
  return s.id;
}

Deno.test("IdScanner: finds the top-level id wherever it is, in any chunking", () => {
  const cases: [string, unknown][] = [
    ['{"jsonrpc":"2.0","id":7,"method":"x"}', 7],
    ['{"method":"x","params":{"id":1,"a":"}\\"id\\":2"},"id":"k\\"1"}', 'k"1'],
    ['{"params":[{"id":3}],"id" : -12 }', -12],
    ['{"params":{"x":"id"},"idx":4}', undefined],
    ['{"id":{"a":1}}', undefined],
    ['{"id":1.5}', undefined],
    ['[{"id":1}]', undefined],
    ['{"a":"é✓","id":"ü"}', "ü"],
    ['{"id":5', undefined], // cut off before its end: not trusted
  ];
  for (const [text, id] of cases) {
    for (const chunk of [1, 2, 5, 1000]) assertEquals(scan(text, chunk), id, `${text} / ${chunk}`);
  }
});

Deno.test("IdScanner: a repeated id is read as JSON.parse reads it (the last one)", () => {
  const cases: [string, unknown][] = [
    ['{"id":1,"method":"x","params":{"a":"b"},"id":2}', 2],
    ['{"id":1,"params":{"id":9},"id":{"x":1}}', undefined],
    ['{"id":{"x":[1]},"id":"k"}', "k"],
    ['{"\\u0069d":"esc","method":"x"}', "esc"],
    ['{"id":"\\u0041B"}', "AB"],
    ['{"id":1e2}', 100],
  ];
  for (const [text, id] of cases) {
    for (const chunk of [1, 4, 1000]) assertEquals(scan(text, chunk), id, `${text} / ${chunk}`);
  }
});

Deno.test("IdScanner: tells a notification (method, no id, whole) from a request", () => {
  const note = (text: string) => {
    const s = new IdScanner();
    s.feed(new TextEncoder().encode(text));
    return s.notification;
  };
  assertEquals(note('{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1}}'), true);
  assertEquals(note('{"jsonrpc":"2.0","method":"x","id":null}'), false);
  assertEquals(note('{"jsonrpc":"2.0","method":"x","params":{}'), false); // cut off
  assertEquals(note('{"jsonrpc":"2.0","params":{"method":"x"}}'), false);
});
