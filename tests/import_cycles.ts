/**
 * The import cycles of a file graph, for `check_layering.ts`: no two files may import each
 * other, directly or round a ring, type-only imports included.
 *
 * @module
 */
import type { ImportRef } from "./import_scanner.ts";

/** One relative import of a project file, resolved to a root-relative target. */
export interface ImportEdge extends ImportRef {
  /** The imported file, root-relative with `/` separators. */
  target: string;
}

/**
 * Finds the import cycles of a file graph: one cycle per strongly connected component of more
 * than one file (or a file importing itself), as the shortest way round from the
 * component's first file in sort order.
 *
 * @param graph File → its relative imports (targets outside the graph are ignored).
 * @returns Cycles as `[file, the import it takes to the next file]` steps; the last step's
 *   import leads back to the first file. Empty when the graph has no cycle.
 */
export function findCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>): Array<
  Array<[string, ImportEdge]>
> {
  // Tarjan's strongly connected components, iteratively (deep graphs must not blow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!.target;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        const selfLoop = (graph.get(top.node) ?? []).some((e) => e.target === top.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!)).map((component) => {
    // Breadth-first inside the component, from its first file back to itself.
    const members = new Set(component);
    const first = component[0]!;
    const came = new Map<string, [string, ImportEdge]>();
    const queue = [first];
    let closing: [string, ImportEdge] | undefined;
    while (queue.length > 0 && closing === undefined) {
      const node = queue.shift()!;
      for (const edge of graph.get(node) ?? []) {
        if (edge.target === first) {
          closing = [node, edge];
          break;
        }
        if (members.has(edge.target) && !came.has(edge.target)) {
          came.set(edge.target, [node, edge]);
          queue.push(edge.target);
        }
      }
    }
    const steps: Array<[string, ImportEdge]> = [closing!];
    let at = closing![0];
    while (at !== first) {
      const step = came.get(at)!;
      steps.unshift(step);
      at = step[0];
    }
    return steps;
  });
}
