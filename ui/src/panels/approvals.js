// Approvals: every pending confirm question (from every client and session), with the tool,
// its arguments (secrets masked, filled values redacted by the server), the site, the hook and
// the summary; Approve once, Approve for site (when policy allows it) or Deny. The target
// element of the watched session's questions is outlined on the live view.
import { html, useState } from "../html.js";
import { Outline } from "./outline.js";
import { sameKey } from "../model.js";

export const title = "Approvals";
export const order = 10;

function keyOf(entry) {
  return { client: entry.client, session: entry.session ?? "default" };
}

function Entry({ entry, send, watched }) {
  const [error, setError] = useState(null);
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
          onClick=${() => answer({ type: "approve", id: entry.id, scope: "once" })}
        >Approve once</button>
        ${entry.site
          ? html`
            <button
              type="button"
              class="approve"
              data-action="approve-site"
              title=${`The same ${entry.hook} on ${entry.site} passes in this session until it closes`}
              onClick=${() => answer({ type: "approve", id: entry.id, scope: "site" })}
            >Approve for ${entry.site}</button>
          `
          : null}
        <button
          type="button"
          class="deny"
          data-action="deny"
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
      ${sorted.map((e) =>
        html`<${Entry} key=${e.id} entry=${e} send=${send} watched=${
          sameKey(keyOf(e), selected)
        } />`
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
