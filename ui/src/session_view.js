// The view of one session: its live page, tabs, the agent's activity, console and network
// tails, and the registered panels.
import { html, useState } from "./html.js";
import { LiveView, makeLive } from "./live.js";
import { PANELS } from "./panels.js";
import { clock, duration, findSession, shortUrl } from "./model.js";

function Activity({ entries }) {
  if (!entries.length) return html`<p class="muted pad">No call yet.</p>`;
  return html`<ol class="activity" data-activity>
    ${
    entries.slice().reverse().map((e) =>
      html`
        <li key=${e.seq} class=${e.ok ? "ok" : "err"} data-tool=${e.tool}>
          <span class="time">${clock(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok ? "ok" : "err"}`}>${e.ok ? "ok" : "error"}</span>
          <span class="ms">${duration(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `
    )
  }
  </ol>`;
}

function ConsoleTail({ tails }) {
  const lines = tails?.console ?? [];
  if (!lines.length) return html`<p class="muted pad">Nothing logged.</p>`;
  return html`<ol class="tail" data-console>
    ${
    lines.map((l) =>
      html`
        <li key=${l.seq} class=${`lvl-${l.level}`}>
          <span class="time">${clock(l.timestamp)}</span>
          <span class="lvl">${l.level}</span>
          <span class="text">${l.text}</span>
        </li>
      `
    )
  }
  </ol>`;
}

function NetworkTail({ tails }) {
  const lines = tails?.network ?? [];
  if (!lines.length) return html`<p class="muted pad">No request yet.</p>`;
  return html`<ol class="tail" data-network>
    ${
    lines.map((r) =>
      html`
        <li key=${r.seq} class=${r.failed || (r.status ?? 0) >= 400 ? "err" : ""}>
          <span class="time">${clock(r.timestamp)}</span>
          <span class="lvl">${r.method}</span>
          <span class="status">${r.status ?? (r.failed ? "failed" : "…")}</span>
          <span class="text" title=${r.errorText ?? r.url}>${r.url}</span>
          <span class="ms">${r.durationMs !== undefined ? duration(r.durationMs) : ""}</span>
        </li>
      `
    )
  }
  </ol>`;
}

export function SessionView(props) {
  const { state, send, selected, frames, tails } = props;
  const [tab, setTab] = useState("activity");
  const s = findSession(state, selected);
  if (!s) {
    return html`
      <section class="empty">
        <p class="muted">
            ${selected ? "The session is closed." : "Pick a session on the left to watch it."}
          </p>
      </section>
    `;
  }
  const activity = (state.activity ?? []).filter((e) =>
    e.client === selected.client && (e.session === selected.session || e.session === undefined)
  );
  const live = makeLive(document.querySelector(".live-img"), frames.metadata);
  const panelProps = { state, send, selected, live };
  const bottom = {
    activity: ["Activity", html`<${Activity} entries=${activity} />`],
    console: ["Console", html`<${ConsoleTail} tails=${tails} />`],
    network: ["Network", html`<${NetworkTail} tails=${tails} />`],
  };
  return html`
    <section class="session-view" data-watching=${`${selected.client}/${selected.session}`}>
      <header class="session-head">
        <div class="grow">
          <h1 class="page-title">${s.title || "(no title)"}</h1>
          <p class="page-url" data-url>${s.url || "no page yet"}</p>
        </div>
        <span class="badge">${selected.client} / ${s.id}</span>
        <span class="badge">${s.mode}</span>
        <span class=${`badge ${s.control === "human" ? "warn" : ""}`}>${s.control === "human"
          ? "person has control"
          : "agent has control"}</span>
      </header>
      <div class="session-body">
        <div class="main-col">
          <${LiveView} ...${props} />
          <div class="bottom">
            <div class="tabbar" role="tablist">
                ${Object.entries(bottom).map(([k, [label]]) =>
                  html`
                    <button role="tab" key=${k} aria-selected=${tab === k} class=${tab === k
                      ? "on"
                      : ""}
                      data-bottom=${k} onClick=${() => setTab(k)}>${label}</button>
                  `
                )}
              </div>
            <div class="tabpane">${bottom[tab][1]}</div>
          </div>
        </div>
        <aside class="side-col">
            <section class="card">
              <h2>Tabs</h2>
              <ul class="tabs" data-tabs>
                ${s.tabs.map((t) =>
                  html`
                    <li key=${t.id} class=${t.active ? "active" : ""}>
                      <span class="title">${t.title || "(no title)"}</span>
                      <span class="url">${shortUrl(t.url)}</span>
                    </li>
                  `
                )}
              </ul>
            </section>
            ${PANELS.filter((p) => p.Panel).map((p) =>
              html`
                <section class="card" key=${p.title}>
                  <h2>${p.title}</h2>
                  <${p.Panel} ...${panelProps} />
                </section>
              `
            )}
          </aside>
      </div>
    </section>
  `;
}
