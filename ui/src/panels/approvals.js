// Approvals: every pending confirm question (from every client and session), with the tool,
// its arguments (secrets masked, filled values redacted by the server), the site, the hook and
// the summary; Approve once, Approve for site (when policy allows it) or Deny. The target
// element of the watched session's questions is outlined on the live view.
import { html, useEffect, useRef, useState } from "../html.js";
import { Outline } from "./outline.js";
import { sameKey } from "../model.js";

export const title = "Approvals";
export const order = 10;

function keyOf(entry) {
  return { client: entry.client, session: entry.session ?? "default" };
}

/**
 * How long a card's buttons stay off after it moved under the pointer (the agent withdrew the
 * card above it) or came in among others, ms: a click meant for the card that was there must
 * not answer another question.
 */
const SETTLE_MS = 700;

function Entry({ entry, send, watched, index, joined }) {
  const [error, setError] = useState(null);
  // Worked out while rendering, so the buttons are off in the very frame the card moved.
  const movedAt = useRef(joined ? Date.now() : 0);
  const shownAt = useRef(index);
  if (shownAt.current !== index) {
    shownAt.current = index;
    movedAt.current = Date.now();
  }
  const left = SETTLE_MS - (Date.now() - movedAt.current);
  const settling = left > 0;
  const [, redraw] = useState(0);
  useEffect(() => {
    if (!settling) return;
    const t = setTimeout(() => redraw((n) => n + 1), left + 10);
    return () => clearTimeout(t);
  }, [movedAt.current]);
  const answer = (message) => {
    setError(null);
    send(message);
  };
  return html`
    <li class=${`approval${watched ? " watched" : ""}`} data-approval=${entry.id}>
      <div class="approval-head">
        <span class="approval-tool" data-approval-tool>${entry.tool}</span>
        <span class="approval-hook" data-approval-hook>${entry.hook}</span>
        <span class="muted">${entry.client}/${entry.session ?? "default"}</span>
      </div>
      <p class="approval-text" data-approval-summary>${entry.summary}</p>
      ${entry.origin
        ? html`<p class="approval-text" data-approval-site>on ${entry.origin}</p>`
        : null}
      ${entry.args !== undefined
        ? html`<pre class="approval-args" data-approval-args>${
          JSON.stringify(entry.args, null, 1)
        }</pre>`
        : null}
      ${entry.target?.ref || entry.target?.selector
        ? html`<p class="muted approval-note">target ${entry.target.ref ?? entry.target.selector}${
          entry.target.box ? " (outlined on the live view)" : ""
        }</p>`
        : null}
      <div class="approval-buttons">
        <button
          type="button"
          class="approve"
          data-action="approve-once"
          disabled=${settling}
          onClick=${() => answer({ type: "approve", id: entry.id, scope: "once" })}
        >Approve once</button>
        ${entry.site
          ? html`
            <button
              type="button"
              class="approve"
              data-action="approve-site"
              disabled=${settling}
              title=${`The same ${entry.hook} on ${entry.site} passes in this session until it closes`}
              onClick=${() => answer({ type: "approve", id: entry.id, scope: "site" })}
            >Approve for ${entry.site}</button>
          `
          : null}
        <button
          type="button"
          class="deny"
          data-action="deny"
          disabled=${settling}
          onClick=${() => answer({ type: "deny", id: entry.id })}
        >Deny</button>
      </div>
      ${!entry.site && entry.siteRefused
        ? html`<p class="muted approval-note">Not for the whole site: ${entry.siteRefused}</p>`
        : null}
      ${error ? html`<p class="err">${error}</p>` : null}
    </li>
  `;
}

export function Panel({ state, send, selected }) {
  const pending = state?.approvals ?? [];
  // The ids shown before this render: a card that joins others was not where the pointer is.
  const before = useRef(new Set());
  const shownBefore = before.current;
  before.current = new Set(pending.map((e) => e.id));
  if (!pending.length) {
    return html`<p class="muted" data-panel="approvals">Nothing waits for an answer.</p>`;
  }
  // The watched session's questions first.
  const sorted = [...pending].sort((a, b) =>
    Number(sameKey(keyOf(b), selected)) - Number(sameKey(keyOf(a), selected)) ||
    a.created - b.created
  );
  return html`
    <ol class="approvals" data-panel="approvals">
      ${sorted.map((e, i) =>
        html`
          <${Entry}
            key=${e.id}
            entry=${e}
            send=${send}
            index=${i}
            joined=${shownBefore.size > 0 && !shownBefore.has(e.id)}
            watched=${sameKey(keyOf(e), selected)}
          />
        `
      )}
    </ol>
  `;
}

export function LiveOverlay({ state, selected, live }) {
  const mine = (state?.approvals ?? []).filter((e) => e.target?.box && sameKey(keyOf(e), selected));
  return html`${
    mine.map((e) =>
      html`
        <${Outline}
          key=${e.id}
          box=${e.target.box}
          metadata=${live.metadata}
          kind="approval"
          label=${`${e.tool}: waiting for your answer`}
          testId=${e.id}
        />
      `
    )
  }`;
}
