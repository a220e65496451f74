// The Control panel (issue 15): take over and hand back the watched session, pick elements for
// the agent, and — while the person has control — drive the page with their own mouse, wheel
// and keys on the live image. Server side: mcp/console/control.ts (messages takeover, handback,
// input, pick-hover, pick; state slice `control`).
import { html, useEffect, useRef, useState } from "../html.js";
import { onMessage } from "../socket.js";
import { sameKey } from "../model.js";

export const title = "Control";
export const order = 20;

// Pick mode is shared by the panel (its toggle) and the overlay (its hover and click).
const pickMode = { on: false, listeners: new Set() };

function setPicking(on) {
  pickMode.on = on;
  for (const l of pickMode.listeners) l(on);
}

function usePicking() {
  const [on, setOn] = useState(pickMode.on);
  useEffect(() => {
    pickMode.listeners.add(setOn);
    return () => pickMode.listeners.delete(setOn);
  }, []);
  return on;
}

const DRIVING =
  "your mouse and keys on the live view reach the page; the agent's actions are refused.";

/** ` button "Save"`: a pick's role and name, as one string (htm would drop the spaces). */
const pickText = (p) => ` ${p.role}${p.name ? ` "${p.name}"` : ""}`;

/** The `control` slice's entry of the selected session, or undefined. */
function controlOf(state, selected) {
  return state?.control?.sessions?.find((s) => sameKey(s, selected));
}

export function Panel({ state, send, selected }) {
  const picking = usePicking();
  const c = controlOf(state, selected);
  if (!selected || !c) {
    return html`<p class="muted" data-panel="control">Select a session.</p>`;
  }
  const human = c.by === "human";
  const picks = [...(c.picks ?? [])].reverse();
  return html`
    <div data-panel="control" data-control=${c.by}>
      <p data-control-state>
        ${human ? html`<strong>You have control</strong>` : "The agent has control."}
        ${human ? `${c.reason ? ` (${c.reason})` : ""}: ${DRIVING}` : ""}
      </p>
      <p class="row">
        ${human
          ? html`<button type="button" data-handback onClick=${() =>
            send({ type: "handback", session: selected })}>Hand back</button>`
          : html`<button type="button" data-takeover onClick=${() =>
            send({ type: "takeover", session: selected })}>Take over</button>`}
        <label class="small">
          <input type="checkbox" data-pick-toggle checked=${picking}
            onChange=${(e) => setPicking(e.currentTarget.checked)} /> Pick an element
        </label>
      </p>
      ${picks.length
        ? html`
          <ul class="picks small" data-picks>
            ${picks.map((p) =>
              html`<li key=${p.ref} data-pick=${p.ref}>
                <code>${p.ref}</code>${pickText(p)}
                <span class="muted">${p.selectorHint ? ` ${p.selectorHint}` : ""}</span>
              </li>`
            )}
          </ul>
        `
        : html`<p class="muted small">No picks yet.</p>`}
    </div>
  `;
}

const MODS = [["altKey", "Alt"], ["ctrlKey", "Control"], ["metaKey", "Meta"], [
  "shiftKey",
  "Shift",
]];
const modifiers = (e) => MODS.filter(([k]) => e[k]).map(([, m]) => m);
const BUTTON = ["left", "middle", "right"];

/** Over the live image: pick hints and picks in pick mode; the person's input when in control. */
export function LiveOverlay({ state, send, selected, live }) {
  const picking = usePicking();
  const c = controlOf(state, selected);
  const human = c?.by === "human";
  const [hint, setHint] = useState(null);
  const box = useRef(null);
  const lastMove = useRef(0);
  useEffect(() => {
    setHint(null);
    return onMessage((m) => {
      if (m.type === "pick-hint" && sameKey(m.session, selected)) setHint(m.hit ? m : null);
      if (m.type === "picked" && sameKey(m.session, selected)) setHint(null);
    });
  }, [selected?.client, selected?.session, picking]);
  if (!selected || (!picking && !human)) return null;

  const at = (e) => live.toPage(e.clientX, e.clientY);
  const input = (event) => send({ type: "input", session: selected, event });
  const throttled = (fn) => {
    const now = performance.now();
    if (now - lastMove.current < 50) return;
    lastMove.current = now;
    fn();
  };

  const onMouseMove = (e) => {
    const p = at(e);
    if (!p) return;
    const move = picking ? { type: "pick-hover", session: selected, ...p } : {
      type: "input",
      session: selected,
      event: { type: "mouse", action: "move", ...p, modifiers: modifiers(e) },
    };
    throttled(() => send(move));
  };
  const onMouseDown = (e) => {
    e.preventDefault();
    box.current?.focus();
    const p = at(e);
    if (!p) return;
    if (picking) {
      send({ type: "pick", session: selected, ...p });
      setPicking(false);
      return;
    }
    const base = {
      type: "mouse",
      ...p,
      button: BUTTON[e.button] ?? "left",
      modifiers: modifiers(e),
    };
    input({ ...base, action: "move" });
    input({ ...base, action: "down", clickCount: Math.min(3, Math.max(1, e.detail || 1)) });
  };
  const onMouseUp = (e) => {
    if (picking) return;
    const p = at(e);
    if (!p) return;
    input({
      type: "mouse",
      action: "up",
      ...p,
      button: BUTTON[e.button] ?? "left",
      clickCount: Math.min(3, Math.max(1, e.detail || 1)),
      modifiers: modifiers(e),
    });
  };
  const onWheel = (e) => {
    if (picking) return;
    e.preventDefault();
    const p = at(e);
    if (p) {
      input({ type: "wheel", ...p, deltaX: e.deltaX, deltaY: e.deltaY, modifiers: modifiers(e) });
    }
  };
  const key = (action) => (e) => {
    if (picking) {
      if (e.key === "Escape") setPicking(false);
      return;
    }
    e.preventDefault();
    input({
      type: "key",
      action,
      key: e.key,
      code: e.code,
      ...(action === "down" && e.key.length === 1 ? { text: e.key } : {}),
      modifiers: modifiers(e),
    });
  };

  // The hint box, from CSS px of the page to px of this overlay.
  let outline = null;
  const img = live.img;
  const meta = live.metadata;
  if (picking && hint?.bounds && img && meta && box.current) {
    const ir = img.getBoundingClientRect();
    const or = box.current.getBoundingClientRect();
    const sx = ir.width / meta.deviceWidth;
    const sy = ir.height / meta.deviceHeight;
    const b = hint.bounds;
    const label = `${hint.tag}${hint.id ? `#${hint.id}` : ""}${
      (hint.classes ?? []).map((c) => `.${c}`).join("")
    }`;
    outline = html`
      <div class="pick-hint" data-pick-hint=${label} style=${{
        left: `${ir.left - or.left + b.x * sx}px`,
        top: `${ir.top - or.top + (b.y - (meta.offsetTop ?? 0)) * sy}px`,
        width: `${b.width * sx}px`,
        height: `${b.height * sy}px`,
      }}>
        <span class="pick-label">${label} ${Math.round(b.width)}×${Math.round(b.height)}</span>
      </div>
    `;
  }
  return html`
    <div
      ref=${box}
      class=${`control-capture ${picking ? "picking" : "driving"}`}
      data-capture=${picking ? "pick" : "input"}
      tabindex="0"
      onMouseMove=${onMouseMove}
      onMouseDown=${onMouseDown}
      onMouseUp=${onMouseUp}
      onWheel=${onWheel}
      onKeyDown=${key("down")}
      onKeyUp=${key("up")}
      onContextMenu=${(e) => e.preventDefault()}
      onPaste=${(e) => {
        const text = e.clipboardData?.getData("text");
        if (human && !picking && text) {
          e.preventDefault();
          input({ type: "text", text: text.slice(0, 10000) });
        }
      }}
    >${outline}</div>
  `;
}
