// Asks: what the agents asked a person to do (ask_human), each with a Done button, and what they
// outlined (highlight). The watched session's highlights and asked-about elements are outlined
// on the live view with their notes.
import { html } from "../html.js";
import { Outline } from "./outline.js";
import { clock, sameKey } from "../model.js";

export const title = "Asks";
export const order = 20;

export function Panel({ state, send, selected }) {
  const asks = state?.asks ?? [];
  const pending = asks.filter((a) => a.status === "awaiting_user");
  const done = asks.filter((a) => a.status === "done").slice(-5).reverse();
  const highlights = (state?.highlights ?? []).filter((h) => sameKey(h, selected));
  if (!asks.length && !highlights.length) {
    return html`<p class="muted" data-panel="asks">The agent asked nothing of you.</p>`;
  }
  return html`
    <div data-panel="asks">
      ${pending.length
        ? html`<ol class="asks">
          ${
          pending.map((a) =>
            html`
              <li key=${a.id} class=${`ask${sameKey(a, selected) ? " watched" : ""}`} data-ask=${a
                .id}>
                <p class="approval-text" data-ask-instruction>${a.instruction}</p>
                <p class="muted approval-note">${a.client}/${a.session} · ${clock(a.created)}${a.ref
                  ? ` · ${a.ref}`
                  : ""}</p>
                <button
                  type="button"
                  class="approve"
                  data-action="ask-done"
                  onClick=${() => send({ type: "ask-done", id: a.id })}
                >Done</button>
              </li>
            `
          )
        }
        </ol>`
        : html`<p class="muted">No task waits for you.</p>`}
      ${pending.length
        ? html`<p class="muted" data-ask-howto>
          To act in the page yourself (log in, solve a check), press Take over in the Control
          panel first; press Done when finished.
        </p>`
        : null}
      ${done.length
        ? html`<ol class="asks done">${
          done.map((a) =>
            html`<li key=${a.id} class="muted" data-ask-done=${a.id}>✓ ${a.instruction}</li>`
          )
        }</ol>`
        : null}
      ${highlights.length
        ? html`<ol class="highlights">${
          highlights.map((h) =>
            html`<li key=${`${h.ref}-${h.created}`} data-highlight=${h.ref}>
            Outlined ${h.ref}${h.note ? html`: <span>${h.note}</span>` : null}
          </li>`
          )
        }</ol>`
        : null}
    </div>
  `;
}

export function LiveOverlay({ state, selected, live }) {
  const highlights = (state?.highlights ?? []).filter((h) => h.box && sameKey(h, selected));
  const asks = (state?.asks ?? []).filter((a) =>
    a.box && a.status === "awaiting_user" && sameKey(a, selected)
  );
  return html`
    ${highlights.map((h) =>
      html`
        <${Outline}
          key=${`h-${h.ref}-${h.created}`}
          box=${h.box}
          metadata=${live.metadata}
          kind="highlight"
          label=${h.note ?? h.ref}
          testId=${h.ref}
        />
      `
    )}
    ${asks.map((a) =>
      html`
        <${Outline}
          key=${`a-${a.id}`}
          box=${a.box}
          metadata=${live.metadata}
          kind="ask"
          label=${a.instruction}
          testId=${a.id}
        />
      `
    )}
  `;
}
