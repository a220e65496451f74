import { assertEquals } from "../tests/_assert.ts";
import { aptInstallLine, missingSonames } from "./missing_libs.ts";

Deno.test("missingSonames() reads the loader's error and ldd's 'not found' lines", () => {
  const loader = "chrome: error while loading shared libraries: libnss3.so: cannot open shared " +
    "object file: No such file or directory";
  const ldd = [
    "\tlinux-vdso.so.1 (0x00007ffd)",
    "\tlibnss3.so => not found",
    "\tlibgbm.so.1 => not found",
    "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)",
    "\tlibasound.so.2 => not found",
  ].join("\n");
  assertEquals(missingSonames(loader), ["libnss3.so"]);
  assertEquals(missingSonames(`${loader}\n${ldd}`), [
    "libnss3.so",
    "libgbm.so.1",
    "libasound.so.2",
  ]);
  assertEquals(missingSonames("all fine"), []);
});

Deno.test("aptInstallLine() maps sonames to Debian packages, once each, and names the unknown", () => {
  assertEquals(aptInstallLine(["libnss3.so", "libnssutil3.so", "libgbm.so.1", "libfoo.so.9"]), {
    line: "apt-get install -y libnss3 libgbm1",
    unknown: ["libfoo.so.9"],
  });
  assertEquals(aptInstallLine(["libfoo.so.9"]), { unknown: ["libfoo.so.9"] });
});
