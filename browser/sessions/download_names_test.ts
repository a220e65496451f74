import { join } from "node:path";
import { assertEquals } from "../../tests/_assert.ts";
import { freeName, reserveName, safeFileName, shortUrl } from "./download_names.ts";

Deno.test("safeFileName: separators, control chars and leading dots are neutralized", () => {
  const cases: Array<[string, string]> = [
    ["report.pdf", "report.pdf"],
    ["a b.txt", "a b.txt"],
    ["../../etc/passwd", "___.._etc_passwd"],
    ["..", "__"],
    [".bashrc", "_bashrc"],
    ["C:\\temp\\x.txt", "C__temp_x.txt"],
    ["tab\there\0.txt", "tab_here_.txt"],
    ["", "download"],
    ["   ", "download"],
    ["é😀.txt", "é😀.txt"],
  ];
  for (const [given, want] of cases) assertEquals(safeFileName(given), want, given);
  const long = safeFileName("x".repeat(300) + ".csv");
  assertEquals(long.length, 200);
  assertEquals(long.endsWith(".csv"), true);
  // Cut by UTF-8 bytes (150 × € is 450 bytes), never inside a character; the guard's name
  // limit is 255 bytes.
  const euros = safeFileName("€".repeat(150) + ".pdf");
  assertEquals(new TextEncoder().encode(euros).length <= 200, true, euros);
  assertEquals(euros, "€".repeat(65) + ".pdf");
  assertEquals(safeFileName("😀".repeat(80)), "😀".repeat(50));
  // Line and paragraph separators and C1 controls, which the guard refuses, become `_`.
  assertEquals(safeFileName("a\u2028b\u2029c\u0085d.txt"), "a_b_c_d.txt");
});

Deno.test("reserveName and freeName deduplicate against reservations and files", async () => {
  const taken = new Set<string>();
  assertEquals(reserveName("r.txt", taken), "r.txt");
  assertEquals(reserveName("r.txt", taken), "r (1).txt");
  assertEquals(reserveName("noext", taken), "noext");
  assertEquals(reserveName("noext", taken), "noext (1)");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "");
    await Deno.writeTextFile(join(dir, "a (1).txt"), "");
    const held = new Set(["a.txt", "a (2).txt"]);
    assertEquals(await freeName(dir, "a.txt", held), "a (3).txt");
    assertEquals(held.has("a (3).txt"), true);
    assertEquals(await freeName(dir, "b.txt", new Set(["b.txt"])), "b.txt");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shortUrl", () => {
  assertEquals(shortUrl("data:text/plain," + "x".repeat(500)).length, 101);
  assertEquals(shortUrl("https://x.test/" + "y".repeat(500)).length, 515);
});
