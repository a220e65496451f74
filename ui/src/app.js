// The console's shell: the live socket, the state it brings, the sessions list and the view
// of the selected session.
import { html, useEffect, useMemo, useRef, useState } from "./html.js";
import { connect } from "./socket.js";
import { SessionList } from "./sessions.js";
import { SessionView } from "./session_view.js";
import { findSession, firstSession, sameKey } from "./model.js";

export function App() {
  const [state, setState] = useState(null);
  const [status, setStatus] = useState("connecting");
  const [selected, setSelected] = useState(null);
  const [tails, setTails] = useState(null);
  const [errors, setErrors] = useState([]);
  // Frames bypass preact state: the live view paints them itself.
  const frames = useRef({ data: null, metadata: null, count: 0, key: null }).current;
  const painters = useRef(new Set()).current;
  const size = useRef({ width: 1280, height: 800 });
  const selectedRef = useRef(null);
  selectedRef.current = selected;

  const socket = useMemo(() =>
    connect({
      onStatus: setStatus,
      onMessage: (m) => {
        if (m.type === "state") setState(m.state);
        else if (m.type === "frame") {
          if (!sameKey(m.session, selectedRef.current)) return;
          frames.data = m.data;
          frames.metadata = m.metadata;
          frames.count++;
          for (const p of painters) p();
        } else if (m.type === "tails") {
          if (sameKey(m.session, selectedRef.current)) setTails(m);
        } else if (m.type === "error") {
          setErrors((e) => [...e.slice(-4), { at: Date.now(), text: m.error }]);
        }
      },
    }), []);
  const watch = (key) =>
    socket.send({
      type: "watch",
      session: key,
      maxWidth: size.current.width,
      maxHeight: size.current.height,
      quality: 70,
    });

  // Select the first session when none is selected; drop a selection whose session closed.
  useEffect(() => {
    if (!state || (selected && findSession(state, selected))) return;
    const next = firstSession(state);
    if (!sameKey(next, selected) && (next || selected)) select(next);
  }, [state]);
  useEffect(() => {
    if (status === "open" && selected) watch(selected);
  }, [status]);

  const select = (key) => {
    frames.data = null;
    frames.metadata = null;
    frames.count = 0;
    setTails(null);
    setSelected(key);
    watch(key);
  };
  const send = (m) => socket.send(m);
  const server = state?.server;
  return html`<div class="app">
    <header class="top">
      <span class="brand">browxai</span>
      <span class="muted">console${server ? ` · v${server.version}` : ""}</span>
      <span class="grow"></span>
      ${
    server
      ? html`<span class="muted" data-viewer-count>${server.viewers} viewer${
        server.viewers === 1 ? "" : "s"
      }</span>`
      : null
  }
      <span class=${`conn ${status}`} data-status=${status}>${
    status === "open" ? "live" : status
  }</span>
    </header>
    ${
    errors.length
      ? html`<div class="errors" role="alert" data-errors>
          ${errors.map((e) => html`<p key=${e.at}>${e.text}</p>`)}
          <button class="link" onClick=${() => setErrors([])}>dismiss</button>
        </div>`
      : null
  }
    <div class="layout">
      <aside class="left">
        <${SessionList} state=${state} selected=${selected} onSelect=${select} />
      </aside>
      <main class="right">
        ${
    state
      ? html`
        <${SessionView}
          state=${state}
          send=${send}
          selected=${selected}
          frames=${frames}
          tails=${tails}
          subscribe=${(fn) => {
            painters.add(fn);
            return () => painters.delete(fn);
          }}
          onSize=${(s) => {
            size.current = s;
            if (selectedRef.current) watch(selectedRef.current);
          }}
        />
      `
      : html`<p class="muted pad">Connecting…</p>`
  }
      </main>
    </div>
  </div>`;
}
