// The panel registry. Each entry is a module exporting:
//   title:        the panel's heading
//   Panel:        a preact component taking { state, send, selected, live }
//                 state    = the hub's latest state (state.sessions, state.activity, state.server, …)
//                 send(m)  = sends { type, … } on the live socket (replies come back as messages)
//                 selected = the watched { client, session } or null
//                 live     = { img, metadata, toPage(clientX, clientY) → { x, y } CSS px in the page
//                              | null, toView(x, y) → { left, top } px over the image | null,
//                              scale: image px per page CSS px } (live.js makeLive)
//   LiveOverlay?: a component with the same props, drawn absolutely over the live image
//   order?:       sort key (lower first; default 100)
// Add a panel: import its module here and append it to PANELS.
import * as viewers from "./panels/viewers.js";
import * as approvals from "./panels/approvals.js";
import * as asks from "./panels/asks.js";
import * as control from "./panels/control.js";

export const PANELS = [viewers, approvals, asks, control].sort((a, b) =>
  (a.order ?? 100) - (b.order ?? 100)
);
