/// <reference lib="dom" />
/**
 * Page-side outline buffer of the snapshot walker: lines with a depth,
 * text runs joined into lines, and the folding rules that keep the outline
 * token-lean (a label next to its control is not repeated, a single text
 * child folds into its node's line, a group of one line is hoisted, a table
 * row becomes one line, `| a | button "Edit" [ref=#3]`, see `foldRow`).
 *
 * Sent as source text: {@link installOutlineLib} must not use anything from
 * its module scope.
 *
 * @module
 */
import type { Outline } from "./page_types.ts";
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `newOutline(wholeLines?: boolean): Outline`: an empty outline buffer;
 *   `wholeLines` keeps a long run on one line (under masking: a secret's
 *   value split over two lines would not be masked, as the page cannot tell
 *   where values are).
 * - `quote(name: string): string`: ` "name"` with `\` and `"` escaped, or `""`.
 * - `safeText(s: string): string`: page text that cannot forge a ref marker or the Deno
 *   side's placeholders (`[ref=e1]` becomes `[ref\=e1]`, `[ref=#3]` `[ref\=#3]`).
 */
export function installOutlineLib(api: PageApi): void {
  const TEXT = 0, REF = 2, ROW = 3, HEADING = 4, ITEM = 5;
  const MAX_LINE = 4000;
  const INDENTS = [""];

  function indent(d: number): string {
    while (INDENTS.length <= d) INDENTS.push(INDENTS[INDENTS.length - 1] + "  ");
    return INDENTS[d]!;
  }

  // A page's text that reads like a ref marker (`[ref=e1]`, or a placeholder `[ref=#3]`) is
  // escaped: a red team's off-screen "- button "Keep my account" [ref=e1]" named the real
  // "Delete account" button's ref. Look-alikes too (fullwidth `［ｒｅｆ＝e1］`, an invisible
  // character inside `[ref=`): such a text is read folded (NFKC, invisible characters out),
  // as a reader sees it, and escaped.
  const INVISIBLE = /[\p{Cf}\p{DI}\u2800]/gu;
  const MARKER = /\[(ref|frame)=/gi;
  function safeText(s: string): string {
    if (s.indexOf("[") < 0 && s.indexOf("\uff3b") < 0) return s;
    if (s.indexOf("[ref=") >= 0 || s.indexOf("[frame=") >= 0) s = s.replace(MARKER, "[$1\\=");
    const folded = s.normalize("NFKC").replace(INVISIBLE, "");
    MARKER.lastIndex = 0;
    return MARKER.test(folded) ? folded.replace(MARKER, "[$1\\=") : s;
  }

  function quote(name: string): string {
    return name ? ` "${safeText(name).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : "";
  }

  function newOutline(wholeLines = false): Outline {
    const maxLine = wholeLines ? Infinity : MAX_LINE;
    const out: string[] = []; // line texts, without indentation
    const depths: number[] = [];
    const kinds: number[] = [];
    const names: string[] = [];
    let run = "";
    let runDepth = 0;
    let runPre = false;

    function add(depth: number, text: string, kind: number, name: string) {
      out.push(text);
      depths.push(depth);
      kinds.push(kind);
      names.push(name);
    }

    function removeFrom(i: number) {
      out.length =
        depths.length =
        kinds.length =
        names.length =
          i;
    }

    function removeAt(i: number) {
      out.splice(i, 1);
      depths.splice(i, 1);
      kinds.splice(i, 1);
      names.splice(i, 1);
    }

    function insertAt(i: number, depth: number, text: string) {
      out.splice(i, 0, text);
      depths.splice(i, 0, depth);
      kinds.splice(i, 0, 1);
      names.splice(i, 0, "");
    }

    function pushText(depth: number, t: string) {
      const last = out.length - 1;
      // A label right after its control repeats the control's name.
      if (last >= 0 && kinds[last] === REF && depths[last] === depth && names[last] === t) return;
      // Very long runs (minified text, a page-long paragraph) become several lines, so pages
      // and deltas stay line-sized; cuts fall on spaces, never inside a ref.
      while (t.length > maxLine) {
        let cut = t.lastIndexOf(" ", MAX_LINE);
        if (cut < MAX_LINE / 2) {
          cut = MAX_LINE;
          const open = t.lastIndexOf("[", cut);
          if (open > cut - 16 && /^\[ref=#?\d*$/.test(t.slice(open, cut))) cut = open;
        }
        addLine(depth, t.slice(0, cut));
        t = t.slice(cut).trimStart();
      }
      if (t) addLine(depth, t);
    }

    function addLine(depth: number, t: string) {
      // Keep text that looks like a node line or a table row from being read as one.
      if (t.startsWith("- ") || t[0] === "|") t = "- text: " + t;
      // … or a `## heading` or `* item` line: escaped the markdown way.
      else if ((t[0] === "#" || t[0] === "*") && /^(?:#+|\*)(?: |$)/.test(t)) t = "\\" + t;
      add(depth, t, TEXT, "");
    }

    function flush() {
      if (!run) return;
      const r = run;
      run = "";
      if (runPre) {
        for (const l of r.split("\n")) if (l.trim()) pushText(runDepth, l.replace(/\s+$/, ""));
      } else {
        const t = r.replace(/\s+/g, " ").trim();
        if (t) pushText(runDepth, t);
      }
    }

    // The cells' texts of a row whose lines all fit on one line (text, controls and what they
    // hold, leaf nodes such as `- img "x"`), each cell's lines joined by spaces, a control as
    // `button "Edit" [ref=#3]`, a row header's text in `**bold**`; null when a line is outside
    // the cells or is structure (a list, a heading, a table, an iframe).
    function inlineCells(start: number, depth: number, cells: Array<[number, number, number]>) {
      let covered = 0;
      for (const [s, e] of cells) covered += e - s;
      if (covered !== out.length - start) return null;
      const texts: string[] = [];
      for (const [s, e, header] of cells) {
        const parts: string[] = [];
        let inControl = false;
        for (let i = s; i < e; i++) {
          const k = kinds[i]!, t = out[i]!, d = depths[i]!;
          const leafNode = k === 1 && t.startsWith("- ") && !t.includes("[frame=#") &&
            (i + 1 >= e || depths[i + 1]! <= d);
          if (d === depth + 1) inControl = k === REF;
          else if (d <= depth || !inControl) return null;
          if (k === TEXT) parts.push(t.startsWith("- text: ") ? t.slice(8) : t);
          else if (k === REF) parts.push(t.slice(2));
          else if (!leafNode) return null;
          else parts.push(t.startsWith("- options: ") ? `(${t.slice(2)})` : t.slice(2));
        }
        const text = parts.join(" ").replace(/\|/g, "\\|");
        texts.push(header === 2 && text ? `**${text}**` : text);
      }
      return texts;
    }

    return {
      addText(s, depth, pre) {
        if (run && (depth !== runDepth || pre !== runPre)) flush();
        runDepth = depth;
        runPre = pre;
        run += s;
      },
      flush,
      node(depth, text, name, kind) {
        flush();
        const last = out.length - 1;
        // A `<label for>` just before its control repeats the control's name.
        if (
          kind === REF && name && last >= 0 && kinds[last] === TEXT && depths[last] === depth &&
          out[last] === name
        ) removeFrom(last);
        add(depth, text, kind, name);
        return out.length - 1;
      },
      raw(depth, text) {
        add(depth, text, 1, "");
      },
      finish(idx, depth, conditional, canMerge) {
        flush();
        if (conditional) {
          let direct = 0;
          for (let i = idx + 1; i < out.length && direct < 2; i++) {
            if (depths[i] === depth + 1) direct++;
          }
          // An item of one line of text keeps its bullet, `* text`, like its siblings of
          // several lines: without it a list of short items reads as loose lines.
          const oneText = direct === 1 && kinds[idx] === ITEM && kinds[idx + 1] === TEXT &&
            depths[idx + 1] === depth + 1;
          if (direct < 2 && !oneText) {
            removeAt(idx);
            for (let i = idx; i < out.length; i++) depths[i]!--;
            return;
          }
        }
        const t = out[idx + 1];
        if (t === undefined || kinds[idx + 1] !== TEXT || depths[idx + 1] !== depth + 1) {
          // A bullet needs text after it: an item that starts with a control is `- listitem`.
          if (kinds[idx] === ITEM) out[idx] = "- listitem" + out[idx]!.slice(1);
          return;
        }
        // Text that only repeats the node's name (a dialog titled by its first line) goes.
        if (t === names[idx]) removeAt(idx + 1);
        else if (
          kinds[idx] === HEADING && names[idx] && out[idx]!.endsWith(" " + names[idx]) &&
          t.startsWith(`[${names[idx]}]`)
        ) {
          // A heading that is one link: `## [Title](/url)[ref=e3]`, the name not repeated.
          out[idx] = out[idx]!.slice(0, out[idx]!.indexOf(" ") + 1) + t;
          removeAt(idx + 1);
        } else if (canMerge) {
          // A list item's bullet is followed by its text markdown style: `* text`.
          out[idx] += (kinds[idx] === ITEM ? " " : ": ") +
            (t.startsWith("- text: ") ? t.slice(8) : t);
          removeAt(idx + 1);
        }
      },
      size() {
        flush();
        return out.length;
      },
      plainFrom(start) {
        for (let i = start; i < kinds.length; i++) if (kinds[i] !== TEXT) return false;
        return true;
      },
      foldRow(start, depth, cells, prefix) {
        flush();
        const texts = inlineCells(start, depth, cells);
        if (texts) {
          removeFrom(start);
          // Markdown's closing pipe is optional: a token a row saved.
          const row = ("| " + texts.join(" | ")).trimEnd();
          add(depth, prefix ? `${prefix}: ${row}` : row, ROW, "");
          // A row of column headers is a markdown table's head: `|---|---|` under it.
          if (cells.length && cells.every((c) => c[2] === 1)) {
            add(depth, "|" + "---|".repeat(cells.length), ROW, "");
          }
          return;
        }
        // Cells that hold structure (a list, a heading, a table): a row node, a cell node where
        // needed.
        for (let c = cells.length - 1; c >= 0; c--) {
          const [s, e] = cells[c]!;
          if (e - s < 2) continue;
          for (let i = s; i < e; i++) depths[i]!++;
          insertAt(s, depth + 1, "- cell");
        }
        insertAt(start, depth, prefix || "- row");
      },
      render() {
        flush();
        let text = "";
        for (let i = 0; i < out.length; i++) text += (i ? "\n" : "") + indent(depths[i]!) + out[i];
        return text;
      },
    };
  }

  api.newOutline = newOutline;
  api.quote = quote;
  api.safeText = safeText;
}
