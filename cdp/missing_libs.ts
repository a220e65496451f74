/**
 * Why a downloaded browser cannot start on this machine: the shared libraries
 * the dynamic loader did not find, and the Debian/Ubuntu packages that ship
 * them, as one `apt-get install` line an operator can paste.
 *
 * @module
 */

/**
 * Sonames Chrome for Testing needs that a minimal Debian/Ubuntu lacks, to the
 * package that ships them (Debian 12 names; Ubuntu 24.04 and Debian 13 add a
 * `t64` suffix to a few, e.g. `libasound2t64`, and apt says so).
 */
export const SONAME_PACKAGES: Readonly<Record<string, string>> = {
  "libnss3.so": "libnss3",
  "libnssutil3.so": "libnss3",
  "libsmime3.so": "libnss3",
  "libnspr4.so": "libnspr4",
  "libplc4.so": "libnspr4",
  "libplds4.so": "libnspr4",
  "libatk-1.0.so.0": "libatk1.0-0",
  "libatk-bridge-2.0.so.0": "libatk-bridge2.0-0",
  "libatspi.so.0": "libatspi2.0-0",
  "libcups.so.2": "libcups2",
  "libdrm.so.2": "libdrm2",
  "libgbm.so.1": "libgbm1",
  "libxkbcommon.so.0": "libxkbcommon0",
  "libX11.so.6": "libx11-6",
  "libxcb.so.1": "libxcb1",
  "libXcomposite.so.1": "libxcomposite1",
  "libXdamage.so.1": "libxdamage1",
  "libXext.so.6": "libxext6",
  "libXfixes.so.3": "libxfixes3",
  "libXrandr.so.2": "libxrandr2",
  "libxshmfence.so.1": "libxshmfence1",
  "libpango-1.0.so.0": "libpango-1.0-0",
  "libcairo.so.2": "libcairo2",
  "libasound.so.2": "libasound2",
  "libglib-2.0.so.0": "libglib2.0-0",
  "libgobject-2.0.so.0": "libglib2.0-0",
  "libgio-2.0.so.0": "libglib2.0-0",
  "libdbus-1.so.3": "libdbus-1-3",
  "libexpat.so.1": "libexpat1",
  "libudev.so.1": "libudev1",
  "libfontconfig.so.1": "libfontconfig1",
  "libfreetype.so.6": "libfreetype6",
  "libgtk-3.so.0": "libgtk-3-0",
  "libgdk-3.so.0": "libgtk-3-0",
  "libwayland-client.so.0": "libwayland-client0",
};

/**
 * The sonames a loader error or `ldd` output names as missing:
 * `error while loading shared libraries: libnss3.so: cannot open …` and
 * `libnss3.so => not found` lines. In order of first mention, no repeats.
 */
export function missingSonames(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/error while loading shared libraries: ([^\s:]+):/g)) {
    out.add(m[1]!);
  }
  for (const m of text.matchAll(/^\s*(\S+) => not found/gm)) out.add(m[1]!);
  return [...out];
}

/**
 * The `apt-get install -y …` line for missing sonames, or undefined when none
 * is known. Unknown sonames are returned apart so the message can name them.
 */
export function aptInstallLine(sonames: string[]): { line?: string; unknown: string[] } {
  const pkgs = new Set<string>();
  const unknown: string[] = [];
  for (const s of sonames) {
    const p = SONAME_PACKAGES[s];
    if (p) pkgs.add(p);
    else unknown.push(s);
  }
  return pkgs.size ? { line: `apt-get install -y ${[...pkgs].join(" ")}`, unknown } : { unknown };
}
