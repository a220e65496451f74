import { startFixtureServer } from "./tests/fixtures/server.ts";
import { startStdio } from "./tests/_mcp.ts";
const fx = await startFixtureServer();
const mcp = await startStdio();
await mcp.ok("navigate", { url: fx.url("/node/all.html"), snapshot: "none" });
for (const q of [{query:"Watch for changes on"},{query:"Watch for changes on"},{query:"recursive"},{query:"fs\\.watch\\w*\\(", regex:true}]) {
  const t0 = performance.now();
  await mcp.call("text_search", q);
  console.log(JSON.stringify(q), (performance.now() - t0).toFixed(0), "ms");
}
console.log(mcp.stderr().split("\n").filter((l) => l.startsWith("T ")).join("\n"));
await mcp.close(); await fx.close();
