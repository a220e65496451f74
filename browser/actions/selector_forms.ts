/**
 * Playwright's selector forms, refused by name. Agents (and people) who know Playwright write
 * `text=Buy milk >> .destroy`, `button >> nth=1`, `role=button[name="Save"]`,
 * `button:has-text("Save")` or XPath; browxai's `selector` takes CSS and `text=…` only. Read as
 * CSS they failed as "invalid CSS" without saying why, and read as `text=` (everything after
 * `text=` is the text) they waited ~2 s for a text no page shows, then said "No element matches".
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

// Selector engines Playwright names with `name=` at the start (browxai's own `text=` is not one).
const ENGINE =
  /^\s*(role|css|xpath|id|nth|label|placeholder|alt|title|data-test-?id|internal:[\w-]+)=/i;
// Playwright-only pseudo-classes (CSS's own `:has()`, `:is()`, `:not()` are fine).
const PSEUDO =
  /:(has-text|text-is|text-matches|text|visible|nth-match|right-of|left-of|above|below|near)(?![\w-])/i;

/** Quoted strings cut out: `>>` or `:visible` inside a quoted text or attribute value is text. */
function unquoted(selector: string): string {
  return selector.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
}

/**
 * The Playwright form `selector` uses (`">>" chaining`, `"nth="`, `"role="`, `":has-text()"`,
 * `XPath`, …), or undefined for a selector browxai reads (CSS, `text=…`). A `text=` selector is
 * only checked for `>>` followed by more (a link "Next >>" stays text).
 */
export function playwrightForm(selector: string): string | undefined {
  const s = unquoted(selector);
  // Puppeteer's `>>>` is not Playwright's; it fails as CSS.
  if (/(?<!>)>>(?!>)\s*\S/.test(s)) {
    const nth = /(^|>>)\s*nth=/.test(s);
    return nth ? '">>" chaining and "nth="' : '">>" chaining';
  }
  if (/^\s*text=/i.test(s)) return undefined;
  const engine = ENGINE.exec(s)?.[1];
  if (engine) return `the "${engine.toLowerCase()}=" engine`;
  if (/^\s*(\/\/|\.\.(\/|$)|\(\s*\/\/)/.test(s)) return "XPath";
  const pseudo = PSEUDO.exec(s)?.[1];
  if (pseudo) return `":${pseudo.toLowerCase()}()"`.replace("visible()", "visible");
  return undefined;
}

/**
 * Refuses a Playwright selector at once, naming its form and what browxai takes instead.
 *
 * @throws ToolError `invalid-argument` when {@link playwrightForm} finds one.
 */
export function refusePlaywrightSelector(selector: string): void {
  const form = playwrightForm(selector);
  if (!form) return;
  throw new ToolError(
    "invalid-argument",
    `Selector "${selector}" is Playwright syntax (${form}), which browxai does not take`,
    'pass a ref from snapshot, a CSS selector (li:nth-of-type(2) .destroy), or text=Visible text; for a role and name, find({ query: "Save button" }) gives refs',
  );
}
