import { assertEquals } from "../../tests/_assert.ts";
import { closeAfterOne } from "./http_front.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("front: every request is marked Connection: close, its own Connection headers dropped", () => {
  const out = text(
    closeAfterOne(
      bytes("GET /mcp HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nKeep-Alive: 5\r\n\r\n"),
    ),
  );
  assertEquals(out, "GET /mcp HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
});

Deno.test("front: the console's live-socket upgrade passes as it is; other upgrades do not", () => {
  const live =
    "GET /console/live HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  assertEquals(text(closeAfterOne(bytes(live))), live);
  const other = "GET /mcp HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  assertEquals(
    text(closeAfterOne(bytes(other))),
    "GET /mcp HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: close\r\n\r\n",
  );
  const h2c =
    "GET /console/live HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n";
  assertEquals(
    text(closeAfterOne(bytes(h2c))),
    "GET /console/live HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: close\r\n\r\n",
  );
});
