// The live image of the watched session. Frames arrive up to 25 a second: they are written
// straight into the <img> (no re-render per frame); the component re-renders only when the
// page's size changes, so panels' overlays get fresh `live.metadata`.
import { html, useEffect, useRef, useState } from "./html.js";
import { PANELS } from "./panels.js";

/**
 * Maps a point of the browser window (clientX/Y) over the live image to CSS px in the page's
 * viewport, or null when outside the image or before the first frame.
 */
export function toPageWith(img, metadata, clientX, clientY) {
  if (!img || !metadata) return null;
  const r = img.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const fx = (clientX - r.left) / r.width;
  const fy = (clientY - r.top) / r.height;
  if (fx < 0 || fy < 0 || fx > 1 || fy > 1) return null;
  return {
    x: Math.round(fx * metadata.deviceWidth * 100) / 100,
    y: Math.round((fy * metadata.deviceHeight + (metadata.offsetTop ?? 0)) * 100) / 100,
  };
}

/**
 * Maps a point of the page's viewport (CSS px) to px from the live image's top-left corner —
 * where a LiveOverlay draws (its box covers the image exactly) — or null before the first frame.
 */
export function toViewWith(img, metadata, x, y) {
  if (!img || !metadata?.deviceWidth || !metadata?.deviceHeight) return null;
  return {
    left: (x / metadata.deviceWidth) * img.clientWidth,
    top: ((y - (metadata.offsetTop ?? 0)) / metadata.deviceHeight) * img.clientHeight,
  };
}

/**
 * The `live` prop panels get: `img` (the <img> of the live frame or null), `metadata` (the
 * latest frame's CDP ScreencastFrameMetadata: deviceWidth/deviceHeight are the page's viewport
 * in CSS px), `toPage(clientX, clientY)` → { x, y } CSS px in the page | null, `toView(x, y)`
 * (page CSS px) → { left, top } px over the image | null, and `scale` (image px per page CSS px).
 */
export function makeLive(img, metadata) {
  return {
    img,
    metadata,
    toPage: (x, y) => toPageWith(img, metadata, x, y),
    toView: (x, y) => toViewWith(img, metadata, x, y),
    scale: img && metadata?.deviceWidth ? img.clientWidth / metadata.deviceWidth : null,
  };
}

/**
 * The live view. `frames` is an object the app writes each frame into ({ data, metadata,
 * count }) and `subscribe(fn)` calls fn per frame; `onSize({ width, height })` reports the
 * image area in device pixels (sent to the server in `watch`).
 */
export function LiveView({ state, send, selected, frames, subscribe, onSize }) {
  const img = useRef(null);
  const box = useRef(null);
  const [meta, setMeta] = useState(frames.metadata);
  useEffect(() => {
    const paint = () => {
      const el = img.current;
      if (!el) return;
      el.src = `data:image/jpeg;base64,${frames.data}`;
      el.dataset.frames = String(frames.count);
      const m = frames.metadata;
      setMeta((old) =>
        old && m && old.deviceWidth === m.deviceWidth && old.deviceHeight === m.deviceHeight &&
          old.offsetTop === m.offsetTop
          ? old
          : m
      );
    };
    if (frames.data) paint();
    return subscribe(paint);
  }, [selected?.client, selected?.session]);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let t;
    const report = () => {
      const dpr = globalThis.devicePixelRatio || 1;
      onSize({
        width: Math.round(el.clientWidth * dpr),
        height: Math.round(Math.max(el.clientHeight, el.clientWidth * 0.625) * dpr),
      });
    };
    const ro = new ResizeObserver(() => {
      clearTimeout(t);
      t = setTimeout(report, 150);
    });
    ro.observe(el);
    report();
    return () => {
      ro.disconnect();
      clearTimeout(t);
    };
  }, []);
  const live = makeLive(img.current, meta ?? frames.metadata);
  const props = { state, send, selected, live };
  return html`
    <div class="live" ref=${box}>
      <div class="live-stage">
          <img ref=${img} class="live-img" data-frames="0" alt="Live view of the session's page" />
          ${!frames.data ? html`<p class="live-wait">Waiting for the first frame…</p>` : null}
          ${PANELS.filter((p) => p.LiveOverlay).map((p) =>
            html`
              <div class="live-overlay" key=${p.title}>
                <${p.LiveOverlay} ...${props} />
              </div>
            `
          )}
        </div>
    </div>
  `;
}
