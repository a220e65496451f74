// The sessions list: every MCP client and its sessions, one row each.
import { html } from "./html.js";
import { clock, sameKey, shortUrl } from "./model.js";

export function SessionList({ state, selected, onSelect }) {
  const clients = state?.sessions ?? [];
  if (!clients.length) {
    return html`<p class="muted pad">No MCP client is connected.</p>`;
  }
  return html`<nav class="sessions" aria-label="Sessions">
    ${
    clients.map((c) =>
      html`<section class="client" key=${c.label}>
        <h2 class="client-name" data-client=${c.label}>
          ${c.label}${c.name ? html`<span class="muted">${` · ${c.name}`}</span>` : null}
        </h2>
        ${!c.sessions.length ? html`<p class="muted small">No session open yet.</p>` : null}
        <ul>
          ${
        c.sessions.map((s) => {
          const key = { client: c.label, session: s.id };
          const on = sameKey(key, selected);
          return html`
            <li key=${s.id}>
              <button
                class=${`session${on ? " selected" : ""}`}
                data-session=${`${c.label}/${s.id}`}
                aria-pressed=${on}
                onClick=${() => onSelect(key)}
              >
                            <span class="row">
                              <strong class="sid">${s.id}</strong>
                              <span class="badge">${s.mode}</span>
                              ${s.control === "human"
                                ? html`<span class="badge warn">person has control</span>`
                                : null}
                              <span class=${`dot ${s.attended ? "on" : ""}`} title=${s.attended
                                ? "attended"
                                : "unattended"}></span>
                            </span>
                            <span class="title">${s.title || "(no title)"}</span>
                            <span class="url">${shortUrl(s.url) || "no page yet"}</span>
                            ${s.lastCall
                              ? html`<span class=${`last ${s.lastCall.ok ? "" : "err"}`}>
                      ${s.lastCall.tool} · ${s.lastCall.ok ? "ok" : "error"} · ${
                                clock(s.lastCall.time)
                              }
                    </span>`
                              : html`<span class="last muted">no call yet</span>`}
                          </button>
            </li>
          `;
        })
      }
        </ul>
      </section>`
    )
  }
  </nav>`;
}
