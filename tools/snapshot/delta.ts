// PROVISIONAL (lead)
export function diffSnapshots(_a: string, _b: string) {
  return {
    added: [] as string[],
    removed: [] as string[],
    changedCount: 0,
    unchanged: true,
    truncated: false,
    appeared: [] as unknown[],
    removedNodes: [] as unknown[],
  };
}
