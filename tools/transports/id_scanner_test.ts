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
