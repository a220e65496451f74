import { assertEquals } from "../tests/_assert.ts";
import { isOwnConsoleUrl } from "./own_console.ts";

Deno.test("own console: the listener's port on a loopback name, its bound host, or any host on 0.0.0.0", () => {
  const loop = [{ host: "127.0.0.1", port: 8123 }];
  const own = (url: string, l = loop) => isOwnConsoleUrl(url, l);
  assertEquals(own("http://127.0.0.1:8123/console"), true);
  assertEquals(own("http://localhost:8123/"), true);
  assertEquals(own("http://[::1]:8123/mcp"), true);
  assertEquals(own("ws://127.0.0.1:8123/console/live"), true);
  assertEquals(own("http://127.0.0.1:8124/console"), false);
  assertEquals(own("http://example.com:8123/console"), false);
  assertEquals(own("data:text/html,x"), false);
  assertEquals(own("not a url"), false);
  assertEquals(own("http://127.0.0.1:8123/", []), false);
  assertEquals(isOwnConsoleUrl("http://127.0.0.1:8123/", undefined), false);
  const lan = [{ host: "192.168.1.5", port: 80 }];
  assertEquals(own("http://192.168.1.5/console", lan), true);
  assertEquals(own("http://192.168.1.6/console", lan), false);
  assertEquals(own("http://anything.example/console", [{ host: "0.0.0.0", port: 80 }]), true);
});
