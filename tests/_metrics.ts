/**
 * Reading Prometheus text in tests.
 *
 * @module
 */

/** The value of a Prometheus sample (`name{labels}`, labels in any order), or 0 when absent. */
export function sample(metrics: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of metrics.split("\n")) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      (m[2] ?? "").split(",").filter(Boolean).map((kv) => {
        const [k, v] = kv.split("=");
        return [k!, JSON.parse(v!)];
      }),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}
