/**
 * A first profile of browxai's calls: where a call's time goes. browxai is pointed at a plain
 * Chromium through a counting WebSocket proxy (`--cdp-endpoint`), so every CDP message is seen
 * without touching browxai's code. Per call it reports the wall time, the CDP commands sent (by
 * method), bytes each way, the time at least one command was in flight ("CDP busy"), and the
 * rest ("ours": MCP transport, our own code, waits on events).
 *
 * ```
 * deno run -A bench/cdp_profile.ts            # fs.html, all.html, TodoMVC vanillajs fill/click
 * deno run -A bench/cdp_profile.ts --navigate # navigate (snapshot none) on small pages, every method
 * deno run -A bench/cdp_profile.ts --snapshot # TodoMVC snapshots: a page's first read, then again
 * deno run -A bench/cdp_profile.ts --first-click # navigate small.html, then its first click
 * deno run -A bench/cdp_profile.ts --url=URL  # any page (or a bench page's path): navigate (none,
 *                                             # then delta), two reads; --repeat=N: N navigates
 *                                             # (none), median from the load event to the answer;
 *                                             # --find=QUERY: then two finds of QUERY
 * deno run -A bench/cdp_profile.ts --actions  # only the TodoMVC fill/click (add --trace: each command,
 *                                             # sent/answered ms, "+n" = commands already in flight;
 *                                             # --repeat=N: each N times more, means per call)
 * deno run -A bench/cdp_profile.ts --drag     # drags on the tests' HTML5 sortable (element to element,
 *                                             # uncovered; --trace, --repeat=N as for --actions)
 * ```
 *
 * @module
 */
import { findChromium } from "../cdp/discovery.ts";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { startFixtureServer } from "../tests/fixtures/server.ts";
import { type BenchServer, startServer } from "./clients.ts";
import { BROWXAI_PAGE_TOKENS, lastToggleRef, NEW_TODO, refOn, snapshotUntil } from "./flows.ts";
import { ensureNodeDocs } from "./node_docs.ts";
import { startPageServer } from "./page_server.ts";
import { cpuMs, treeCpuMs } from "./proc_mem.ts";
import { CdpProxy, type CdpTally, startTrace, takeTrace } from "./cdp_proxy.ts";

async function launchChromium(path: string, profile: string) {
  const child = new Deno.Command(path, {
    args: [
      "--headless",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--no-first-run",
      "--window-size=1280,800",
      "--hide-scrollbars",
      ...(Deno.uid() === 0 ? ["--no-sandbox"] : []),
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let err = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  while (!/DevTools listening on (ws:\/\/\S+)/.test(err)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Chromium exited: ${err}`);
    err += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return { child, ws: /DevTools listening on (ws:\/\/\S+)/.exec(err)![1]! };
}

/** Per call that saw a load event: from the last `Page.loadEventFired` to the answer, ms. */
const afterLoad: number[] = [];

/** Show every method of a call (`--navigate`), not only the 5 slowest. */
let allMethods = false;

function fmt(label: string, ms: number, t: CdpTally, cpu: string): string {
  const top = Object.entries(t.byMethod).sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, allMethods ? undefined : 5)
    .map(([m, v]) => `${m}×${v.n} ${v.ms.toFixed(0)}ms ${(v.bytesIn / 1024).toFixed(0)}KiB`)
    .join("; ");
  return `${label}: ${ms.toFixed(0)} ms wall, ${t.commands} CDP commands, ${t.events} events, ` +
    `${(t.bytesOut / 1024).toFixed(0)} KiB out / ${(t.bytesIn / 1024).toFixed(0)} KiB in, ` +
    `CDP busy ${t.busyMs.toFixed(0)} ms, ours ${(ms - t.busyMs).toFixed(0)} ms; ${cpu}\n    ${top}`;
}

let browserPid = 0;

async function profileCall(
  s: BenchServer,
  proxy: CdpProxy,
  label: string,
  tool: string,
  args: Record<string, unknown>,
  keep = false,
) {
  const pid = s.pid!;
  const server0 = cpuMs(pid) ?? 0;
  const browser0 = treeCpuMs(browserPid);
  // `keep`: the tally goes on from the call before (a pair of calls counted as one).
  if (!keep) proxy.reset();
  if (Deno.args.includes("--trace")) startTrace();
  const callStart = performance.now();
  const r = await s.call(tool, args);
  const loaded = proxy.lastLoad > callStart ? performance.now() - proxy.lastLoad : undefined;
  if (loaded !== undefined) afterLoad.push(loaded);
  const cpu = `CPU: browxai ${(cpuMs(pid) ?? 0) - server0} ms, Chromium ` +
    `${treeCpuMs(browserPid) - browser0} ms (10 ms ticks)`;
  console.log(
    fmt(label, r.ms, proxy.tally, cpu) + `\n    result ${r.text.length} chars` +
      (loaded !== undefined ? `, answered ${loaded.toFixed(1)} ms after the load event` : ""),
  );
  const trace = takeTrace();
  if (trace) console.log(trace.map((l) => `      ${l}`).join("\n"));
  return r;
}

/** The default profile: fs.html and all.html (navigate, paged snapshot), TodoMVC fill/click. */
async function profileDocsAndApp(
  s: BenchServer,
  proxy: CdpProxy,
  pages: ReturnType<typeof startPageServer>,
) {
  const docs = Deno.args.includes("--actions") ? [] : [["fs", "/node/fs.html"], [
    "all",
    "/node/all.html",
  ]];
  for (const [id, p] of docs) {
    await profileCall(s, proxy, `navigate ${id} (snapshot none)`, "navigate", {
      url: pages.url(p!),
      snapshot: "none",
    });
    let offset = 0;
    for (let i = 1;; i++) {
      const r = await profileCall(s, proxy, `snapshot ${id} page ${i}`, "snapshot", {
        maxTokens: BROWXAI_PAGE_TOKENS,
        ...(offset ? { offset } : {}),
      });
      if (r.structured?.truncated !== true) break;
      offset = Number(r.structured.nextOffset);
    }
  }
  const app = pages.url("/todomvc/examples/vanillajs/");
  await profileCall(s, proxy, "navigate vanillajs (default)", "navigate", { url: app });
  const snap = await snapshotUntil(s, "browxai", NEW_TODO);
  const input = refOn(snap.text, NEW_TODO)!;
  await profileCall(s, proxy, "fill+Enter", "fill", {
    ref: input,
    value: "Buy milk",
    submit: true,
  });
  const toggle = lastToggleRef((await s.call("snapshot", {})).text)!;
  await profileCall(s, proxy, "click toggle", "click", { ref: toggle });
  await profileCall(s, proxy, "click toggle (snapshot none)", "click", {
    ref: toggle,
    snapshot: "none",
  });
  const repeat = Number(Deno.args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 0);
  if (repeat > 0) {
    await repeated(s, proxy, repeat, "click toggle", "click", { ref: toggle });
    await repeated(s, proxy, repeat, "click toggle (snapshot none)", "click", {
      ref: toggle,
      snapshot: "none",
    });
    await repeated(s, proxy, repeat, "fill+Enter", "fill", {
      ref: input,
      value: "Buy milk",
      submit: true,
    });
  }
}

/** `--drag`: drags between the rows of the tests' HTML5 sortable (each drop reorders it). */
async function profileDrag(s: BenchServer, proxy: CdpProxy) {
  const fx = await startFixtureServer();
  try {
    await profileCall(s, proxy, "navigate drag-html5 (snapshot none)", "navigate", {
      url: fx.url("drag-html5.html"),
      snapshot: "none",
    });
    const args = {
      from: { selector: "#list li:first-child" },
      to: { selector: "#list li:last-child" },
    };
    await profileCall(s, proxy, "drag row to row", "drag", args);
    await profileCall(s, proxy, "drag row to row (snapshot none)", "drag", {
      ...args,
      snapshot: "none",
    });
    const repeat = Number(Deno.args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 0);
    if (repeat > 0) await repeated(s, proxy, repeat, "drag row to row", "drag", args);
  } finally {
    await fx.close();
  }
}

/**
 * `--repeat=N`: a call made N times in a row, its means per call (wall, CDP commands, Chromium
 * CPU): one call's CPU is a few 10 ms ticks, too coarse to compare alone.
 */
async function repeated(
  s: BenchServer,
  proxy: CdpProxy,
  n: number,
  label: string,
  tool: string,
  args: Record<string, unknown>,
) {
  let ms = 0, commands = 0;
  const browser0 = treeCpuMs(browserPid), server0 = cpuMs(s.pid!) ?? 0;
  for (let i = 0; i < n; i++) {
    proxy.reset();
    ms += (await s.call(tool, args)).ms;
    commands += proxy.tally.commands;
  }
  const chromium = (treeCpuMs(browserPid) - browser0) / n;
  const server = ((cpuMs(s.pid!) ?? 0) - server0) / n;
  console.log(
    `${label} ×${n}, per call: ${(ms / n).toFixed(0)} ms wall, ${(commands / n).toFixed(1)} ` +
      `CDP commands, CPU: Chromium ${chromium.toFixed(0)} ms, browxai ${server.toFixed(0)} ms`,
  );
}

if (import.meta.main) {
  const chromium = findChromium().path;
  const pages = startPageServer({
    nodeDocsDir: await ensureNodeDocs(),
    todomvcDir: await ensureTodoMvc(),
  });
  const profile = await Deno.makeTempDir({ prefix: "browxai-bench-profile-" });
  const { child, ws } = await launchChromium(chromium, profile);
  const proxy = new CdpProxy(ws);
  browserPid = child.pid;
  const path = new URL(ws).pathname;
  const s = await startServer({
    kind: "browxai",
    chromium,
    args: ["--cdp-endpoint", proxy.url + path],
  });
  try {
    if (Deno.args.includes("--navigate")) {
      allMethods = true;
      const small = ["/todomvc/examples/vanillajs/", "/gen/shadow.html", "/gen/frames.html"];
      await profileCall(s, proxy, "navigate small (first, snapshot none)", "navigate", {
        url: pages.url("/gen/small.html"),
        snapshot: "none",
      });
      for (const round of [1, 2]) {
        for (const p of small) {
          await profileCall(s, proxy, `navigate ${p} #${round} (snapshot none)`, "navigate", {
            url: pages.url(p),
            snapshot: "none",
          });
        }
      }
      await profileCall(s, proxy, "open_session (new tab)", "open_session", {
        session: "second",
        url: pages.url("/gen/small.html"),
      });
      await profileCall(s, proxy, "snapshot in it", "snapshot", { session: "second" });
    } else if (Deno.args.includes("--first-click")) {
      // A fresh document's first action: navigate (no snapshot), then a click by selector,
      // the first call into the new document's utility world.
      allMethods = true;
      for (const round of [1, 2, 3]) {
        const url = pages.url(`/gen/small.html?r=${round}`);
        await profileCall(s, proxy, `navigate small #${round} (snapshot none)`, "navigate", {
          url,
          snapshot: "none",
        });
        // Counted with the navigate: what the navigate starts and leaves running (the library
        // sent ahead) would otherwise fall between the two tallies.
        await profileCall(s, proxy, `+ first click #${round} (snapshot none)`, "click", {
          selector: "button",
          snapshot: "none",
        }, true);
      }
    } else if (Deno.args.some((a) => a.startsWith("--url="))) {
      // Any page: navigate without and with its snapshot, then two reads.
      allMethods = true;
      const given = Deno.args.find((a) => a.startsWith("--url="))!.slice(6);
      // A path is a bench page (`/gen/frames.html`, `/todomvc/examples/vue/`).
      const url = given.startsWith("/") ? pages.url(given) : given;
      const repeat = Number(Deno.args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 0);
      if (repeat > 0) {
        // --repeat=N: navigate (snapshot none) N times; the median from the load event to the
        // answer (what browxai adds after the load, whatever the load itself took).
        for (let i = 1; i <= repeat; i++) {
          await profileCall(s, proxy, `navigate #${i} (snapshot none)`, "navigate", {
            url,
            snapshot: "none",
          });
        }
        const sorted = afterLoad.slice(1).sort((a, b) => a - b);
        console.log(
          `load event → answer, median of ${sorted.length} (the first left out): ` +
            `${sorted[sorted.length >> 1]?.toFixed(1)} ms`,
        );
      } else {
        for (const snapshot of ["none", "delta"]) {
          await profileCall(s, proxy, `navigate (snapshot ${snapshot})`, "navigate", {
            url,
            snapshot,
          });
        }
        for (const n of ["read", "read again"]) await profileCall(s, proxy, n, "snapshot", {});
        // --find=QUERY: then find it, twice.
        const query = Deno.args.find((a) => a.startsWith("--find="))?.slice(7);
        for (const n of query ? ["find", "find again"] : []) {
          await profileCall(s, proxy, n, "find", { query });
        }
      }
    } else if (Deno.args.includes("--snapshot")) {
      // The concurrent bench's snapshot rows, one session: a TodoMVC app's first read, then again.
      allMethods = true;
      for (const app of ["vanillajs", "react"]) {
        await profileCall(s, proxy, `navigate ${app} (snapshot none)`, "navigate", {
          url: pages.url(`/todomvc/examples/${app}/`),
          snapshot: "none",
        });
        for (const n of ["first read", "page read before", "page read before"]) {
          await profileCall(s, proxy, `snapshot ${app} (${n})`, "snapshot", {});
        }
        const repeat = Number(Deno.args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 0);
        if (repeat > 0) {
          await repeated(s, proxy, repeat, `snapshot ${app} (re-read)`, "snapshot", {});
        }
      }
    } else if (Deno.args.includes("--drag")) await profileDrag(s, proxy);
    else await profileDocsAndApp(s, proxy, pages);
  } finally {
    await s.close();
    await proxy.close();
    child.kill("SIGKILL");
    await child.status;
    await pages.close();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}
