// Types of ui/src/live.js's pure helpers, for tests/ui_live_test.ts (the UI is plain JS).
interface Live {
  img: unknown;
  metadata: unknown;
  toPage(clientX: number, clientY: number): { x: number; y: number } | null;
  toView(x: number, y: number): { left: number; top: number } | null;
  scale: number | null;
}
export function makeLive(img: unknown, metadata: unknown): Live;
