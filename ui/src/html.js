// preact + htm: components are plain functions returning html`…` (no JSX, no build step
// beyond the bundle).
import { h, render } from "preact";
import htm from "htm";

/** The tagged template every component uses. */
export const html = htm.bind(h);
export { h, render };
export { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
