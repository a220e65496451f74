// A small panel of the console's own: who watches the selected session and who drives it.
import { html } from "../html.js";
import { findSession } from "../model.js";

export const title = "Watching";
export const order = 900;

export function Panel({ state, selected }) {
  const s = findSession(state, selected);
  const server = state?.server;
  if (!s) {
    return html`<p class="muted" data-panel="viewers">Select a session.</p>`;
  }
  return html`
    <dl class="facts" data-panel="viewers">
      <dt>Console viewers</dt>
      <dd data-viewers>${server?.viewers ?? 0}</dd>
      <dt>Watching this session</dt>
      <dd data-session-viewers>${s.viewers}</dd>
      <dt>Control</dt>
      <dd>${s.control === "human" ? "a person" : "the agent"}${s.controlReason
        ? html`
          <span class="muted"> (${s.controlReason})</span>
        `
        : null}</dd>
      <dt>Browser</dt>
      <dd>${server?.headful ? "headful (windows shown)" : "headless"}</dd>
    </dl>
  `;
}
