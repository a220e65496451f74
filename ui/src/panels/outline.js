// Outlines over the live image: a box in the page's viewport (CSS px) drawn where the frame
// shows it. The live image fills its stage's width (height follows), so a box maps to
// percentages of the frame's device size (offsetTop: the frame's top inset, as in toPage).
import { html } from "../html.js";

/**
 * An absolutely placed outline for `box` ({ x, y, width, height }, CSS px in the page), or null
 * before the first frame. `kind` picks its colour (`approval`, `highlight`, `ask`); `label` is
 * drawn above it.
 */
export function Outline({ box, metadata, kind, label, testId }) {
  if (!box || !metadata?.deviceWidth || !metadata?.deviceHeight) return null;
  const w = metadata.deviceWidth;
  const h = metadata.deviceHeight;
  const top = box.y - (metadata.offsetTop ?? 0);
  const style = {
    left: `${(box.x / w) * 100}%`,
    top: `${(top / h) * 100}%`,
    width: `${(box.width / w) * 100}%`,
    height: `${(box.height / h) * 100}%`,
  };
  return html`
    <div class=${`outline outline-${kind}`} style=${style} data-outline=${kind} data-id=${testId}>
      ${label ? html`<span class="outline-label">${label}</span>` : null}
    </div>
  `;
}
