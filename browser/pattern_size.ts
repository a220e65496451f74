/**
 * An upper estimate of the RE2 program a pattern compiles to, read from the
 * pattern text before RE2 sees it.
 *
 * RE2 expands counted repetitions: `x{0,1000}` becomes a thousand copies of
 * `x`, so a 1,804-character pattern compiled to 360,000 instructions (1.4 s
 * to compile) and matched at ~20 ns per instruction per character: one
 * `console_read` held the event loop for 11 s. re2js exports no parser, so
 * this walks the syntax itself: atoms count 1, groups add their parts,
 * `{n,m}` multiplies its operand by max(n, m) (n + 1 when unbounded). It errs
 * high, never low, for counted repetitions; RE2's own `programSize()` checks
 * after compiling.
 *
 * @module
 */

/** Estimated instruction count of `pattern` (RE2 syntax); malformed input still gets a number. */
export function estimateProgramSize(pattern: string): number {
  let i = 0;
  // Returns the size of an alternation up to a closing `)` or the end.
  function alternation(): number {
    let total = 0;
    let branch = 0;
    let last = 0; // size of the last atom, the operand of a following repeat
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === ")") break;
      if (c === "|") {
        total += branch + 1;
        branch = 0;
        last = 0;
        i++;
        continue;
      }
      const count = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (count) {
        const n = Number(count[1]);
        const m = count[2] === undefined ? n : count[3] === "" ? n + 1 : Number(count[3]);
        const times = Math.max(n, m, 1);
        // n copies, plus (m - n) optional ones that each add a split.
        const added = last * (times - 1) + Math.max(m - n, 0);
        branch += added;
        last += added;
        i += count[0].length;
        if (pattern[i] === "?") i++;
        continue;
      }
      if (c === "*" || c === "+" || c === "?") {
        branch += 1;
        last += 1;
        i++;
        continue;
      }
      last = atom();
      branch += last;
    }
    return total + branch;
  }
  // Returns the size of one atom at `i` and moves past it.
  function atom(): number {
    const c = pattern[i]!;
    if (c === "(") {
      i++;
      const inner = alternation();
      i++; // the `)`
      return inner + 2;
    }
    if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") {
        if (pattern[i] === "\\") i += 2;
        else if (pattern.startsWith("[:", i)) {
          const end = pattern.indexOf(":]", i + 2);
          i = end < 0 ? i + 1 : end + 2;
        } else i++;
      }
      i++;
      return 1;
    }
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        const stop = end < 0 ? pattern.length : end;
        const size = Math.max(stop - (i + 2), 1);
        i = end < 0 ? stop : end + 2;
        return size;
      }
      i += 2;
      if ((next === "p" || next === "P" || next === "x") && pattern[i] === "{") {
        const end = pattern.indexOf("}", i);
        i = end < 0 ? pattern.length : end + 1;
      }
      return 1;
    }
    i++;
    return 1;
  }
  let size = 0;
  while (i < pattern.length) {
    size += alternation();
    if (pattern[i] === ")") {
      i++;
      size += 1;
    }
  }
  return size + 2;
}
