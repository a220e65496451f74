/**
 * `deno task bench:console`: what the web console's live view delivers and costs (issue 15).
 *
 * - fps: frames a second delivered to one console viewer (a live socket watching the session)
 *   while the agent's page animates (target ≥ 10 on loopback).
 * - delay: from a DOM change in the page (its own `Date.now()`, logged to its console) to the
 *   first frame the viewer receives after it, median over the changes (a static page between
 *   changes, so that frame is the change's).
 * - agent calls: median latency of `snapshot` and `click` on the animating page, in four
 *   alternating blocks without and with a viewer watching; the ratio with/without is that of
 *   a snapshot + a click (the sums of their medians; target ≤ 1.10).
 *
 * ```
 * deno task bench:console [--seconds 5] [--calls 160] [--aa] [--json]
 * ```
 *
 * `--aa` never watches in the "with" blocks: the ratio it prints is the comparison's noise floor.
 *
 * ```
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { loginCookie, openSocket, startConsoleStdio } from "../tests/_console.ts";

const ANIM = `<!doctype html><title>anim</title>
<body style="margin:0;font:32px sans-serif">
<div id="box" style="width:100vw;height:100vh"></div><button id="b">tick</button>
<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="#${i}">item ${i}</a></li>`).join("")}</ul>
<script>
  // A timer, not requestAnimationFrame: a headless tab nobody draws runs no animation frames,
  // so a rAF loop would animate only while watched, and the agent's calls would wait on a
  // changing page in one case only.
  let n = 0;
  setInterval(() => {
    n++;
    box.style.background = "hsl(" + (n * 7 % 360) + ",70%,50%)";
    box.textContent = "frame " + n;
  }, 33);
  b.onclick = () => b.textContent = "clicked " + n;
</script></body>`;

/** The same page, still. */
const STILL = ANIM.replace(/<script>[\s\S]*?setInterval[\s\S]*?\}, 33\);/, "<script>let n = 0;");

const FLIP = `<!doctype html><title>flip</title>
<body style="margin:0"><div id="box" style="width:100vw;height:100vh;background:#222"></div>
<script>
  let on = false;
  setInterval(() => {
    on = !on;
    box.style.background = on ? "#e33" : "#33e";
    console.log("flip " + Date.now());
  }, 600);
</script></body>`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Agent = Awaited<ReturnType<typeof startConsoleStdio>>["mcp"];
type Socket = Awaited<ReturnType<typeof openSocket>>;

/**
 * Median latency of `snapshot` and `click` on the loaded page in four alternating blocks
 * without and with `viewer` watching; `ratio` is that of a snapshot + a click (the sums of
 * their medians).
 */
async function compareCalls(
  agent: Agent,
  viewer: Socket,
  key: { client: string; session: string },
  options: { calls: number; log: (s: string) => void; aa?: boolean },
): Promise<Record<string, number>> {
  const tools = [["snapshot", {}], ["click", { selector: "#b" }]] as const;
  const times = {
    without: { snapshot: [] as number[], click: [] as number[] },
    with: { snapshot: [] as number[], click: [] as number[] },
  };
  const block = async (into: typeof times.without | undefined, n: number) => {
    for (let i = 0; i < n; i++) {
      for (const [tool, args] of tools) {
        const s = performance.now();
        await agent.ok(tool, args);
        into?.[tool].push(performance.now() - s);
      }
    }
  };
  await block(undefined, 3); // warm up
  const rounds = 4;
  const per = Math.max(2, Math.round(options.calls / (rounds * 2 * tools.length)));
  for (let round = 0; round < rounds; round++) {
    viewer.send({ type: "watch", session: null });
    await viewer.next((m) => m.type === "watching" && m.session === null, {
      from: viewer.messages.length,
    });
    await block(times.without, per);
    if (!options.aa) {
      viewer.send({ type: "watch", session: key, maxWidth: 1280, maxHeight: 800 });
      await viewer.next((m) => m.type === "watching", { from: viewer.messages.length });
      await sleep(200);
    }
    await block(times.with, per);
  }
  const pair = (t: typeof times.with) => median(t.snapshot) + median(t.click);
  const ratio = pair(times.with) / pair(times.without);
  const r1 = (n: number) => Math.round(n * 10) / 10;
  for (const [t] of tools) {
    options.log(
      `  ${t} median: ${r1(median(times.without[t]))} ms without a viewer, ` +
        `${r1(median(times.with[t]))} ms with one (${times.with[t].length} calls each)`,
    );
  }
  options.log(`  a snapshot + a click, with a viewer / without: x${ratio.toFixed(3)}`);
  return {
    snapshotWithoutMs: r1(median(times.without.snapshot)),
    snapshotWithMs: r1(median(times.with.snapshot)),
    clickWithoutMs: r1(median(times.without.click)),
    clickWithMs: r1(median(times.with.click)),
    callRatio: Math.round(ratio * 1000) / 1000,
  };
}

/** Runs the measurements; returns the figures. */
export async function benchConsole(
  options: {
    seconds: number;
    calls: number;
    log: (s: string) => void;
    /** Never watch in the "with" blocks: the noise floor of the comparison. */
    aa?: boolean;
  },
): Promise<Record<string, number>> {
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const page = path === "/flip" ? FLIP : path === "/still" ? STILL : ANIM;
    return new Response(page, { headers: { "content-type": "text/html" } });
  });
  const base = `http://127.0.0.1:${(site.addr as Deno.NetAddr).port}`;
  const server = await startConsoleStdio({ env: { BROWX_TOOLSETS: "all" } });
  try {
    const agent = server.mcp;
    await agent.ok("navigate", { url: `${base}/anim` });
    const cookie = await loginCookie(server.url);
    const key = { client: "stdio", session: "default" };

    // 1. Frames a second to one viewer while the page animates.
    const viewer = await openSocket(server.base, { cookie, origin: server.base });
    viewer.send({ type: "watch", session: key, maxWidth: 1280, maxHeight: 800, quality: 70 });
    await viewer.next((m) => m.type === "frame", { timeoutMs: 15_000 });
    await sleep(500);
    const frames = () => viewer.messages.filter((m) => m.type === "frame").length;
    const before = frames();
    const t0 = performance.now();
    await sleep(options.seconds * 1000);
    const fps = (frames() - before) / ((performance.now() - t0) / 1000);
    options.log(`fps to one viewer while the page animates: ${fps.toFixed(1)}`);

    // 2. Agent call latency, alternating blocks without and with the viewer watching, on the
    // animating page (the worst case: every frame is rendered and encoded) and a still one.
    const anim = await compareCalls(agent, viewer, key, options);
    await agent.ok("navigate", { url: `${base}/still` });
    const still = await compareCalls(agent, viewer, key, options);
    viewer.send({ type: "watch", session: key, maxWidth: 1280, maxHeight: 800 });

    // 3. DOM change → frame at the viewer.
    const arrivals: number[] = [];
    viewer.ws.addEventListener("message", (e) => {
      if (String(e.data).startsWith('{"type":"frame"')) arrivals.push(Date.now());
    });
    await agent.ok("navigate", { url: `${base}/flip` });
    await sleep(options.seconds * 1000);
    const logs = await agent.ok("console_read", { pattern: "^flip " });
    const flips = (logs.entries as Array<{ text: string }>).map((e) => Number(e.text.slice(5)))
      .filter((t) => t > 0);
    const delays: number[] = [];
    for (const t of flips) {
      const first = arrivals.find((a) => a >= t);
      if (first !== undefined && first - t < 600) delays.push(first - t);
    }
    const delay = median(delays);
    options.log(
      `DOM change → frame at the viewer: median ${
        delay.toFixed(1)
      } ms over ${delays.length} changes`,
    );
    viewer.close();
    return {
      fps: Math.round(fps * 10) / 10,
      delayMedianMs: Math.round(delay * 10) / 10,
      delaySamples: delays.length,
      ...Object.fromEntries(Object.entries(anim).map(([k, v]) => [`anim.${k}`, v])),
      ...Object.fromEntries(Object.entries(still).map(([k, v]) => [`still.${k}`, v])),
    };
  } finally {
    await server.close();
    await site.shutdown();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      seconds: { type: "string", default: "5" },
      calls: { type: "string", default: "160" },
      json: { type: "boolean", default: false },
      aa: { type: "boolean", default: false },
    },
    strict: true,
  });
  const figures = await benchConsole({
    seconds: Number(values.seconds),
    calls: Number(values.calls),
    aa: values.aa,
    log: (s) => console.error(s),
  });
  if (values.json) console.log(JSON.stringify(figures));
  else {
    console.log(
      `console live view: ${figures.fps} fps (target ≥ 10); DOM change → frame median ` +
        `${figures.delayMedianMs} ms; agent calls with a viewer x${
          figures["still.callRatio"]
        } on a still page, x${figures["anim.callRatio"]} on an animating one (target ≤ 1.10)`,
    );
  }
}
