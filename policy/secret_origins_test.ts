import { assertEquals, assertIncludes, assertNotIncludes, assertThrows } from "../tests/_assert.ts";
import { fillOriginAllowed, parseBoundOrigins } from "./secret_origins.ts";
import { SecretStore } from "./secrets.ts";
import { parseSecretsFile, SecretsFileError } from "./secrets_file.ts";

Deno.test("parseSecretsFile: NAME@origins=value binds a secret to origins", () => {
  const parsed = parseSecretsFile(
    [
      "A@https://app.example.com=hunter2x",
      "export B @ https://a.example , http://127.0.0.1:8080/ = two=parts",
      "C=unbound@example.com",
    ].join("\n"),
  );
  assertEquals(Object.fromEntries(parsed.secrets), {
    A: "hunter2x",
    B: "two=parts",
    C: "unbound@example.com",
  });
  assertEquals(Object.fromEntries(parsed.origins), {
    A: ["https://app.example.com"],
    B: ["https://a.example", "http://127.0.0.1:8080"],
  });
});

Deno.test("parseSecretsFile: a bad origin list names the line and the origin, never the value", () => {
  const table: Array<[string, string]> = [
    ["A@=hunter2", "none empty"],
    ["A@https://a.example,=hunter2", "none empty"],
    ["A@app.example.com=hunter2", '"app.example.com" is not an origin'],
    ["A@https://a.example/path=hunter2", "is not an origin"],
    ["A@HTTPS://A.example=hunter2", "(here: https://a.example)"],
    ["A@https://a.example:443=hunter2", "(here: https://a.example)"],
  ];
  for (const [text, message] of table) {
    const e = assertThrows(() => parseSecretsFile(text), SecretsFileError);
    assertIncludes(e.message, "line 1: ");
    assertIncludes(e.message, message, text);
    assertNotIncludes(e.message, "hunter2");
  }
});

Deno.test("parseBoundOrigins and fillOriginAllowed", () => {
  assertEquals(parseBoundOrigins("https://a.example, https://a.example/"), ["https://a.example"]);
  assertEquals(fillOriginAllowed(undefined, "https://x.example"), true);
  assertEquals(fillOriginAllowed(["https://a.example"], "https://a.example"), true);
  assertEquals(fillOriginAllowed(["https://a.example"], "https://a.example:8443"), false);
  assertEquals(fillOriginAllowed(["https://a.example"], "http://a.example"), false);
  assertEquals(fillOriginAllowed(["https://a.example"], "null"), false);
});

Deno.test("SecretStore: bound names, spans and contains", () => {
  const store = new SecretStore(new Map([["A", "hunter2x"], ["B", "s3cr3t!!"], ["C", "ab"]]), {
    origins: new Map([["A", ["https://a.example"]]]),
  });
  assertEquals(store.originsOf("A"), ["https://a.example"]);
  assertEquals(store.originsOf("B"), undefined);
  assertEquals(Object.fromEntries(store.boundIn("{{secret:A}} {{secret:B}}")), {
    A: ["https://a.example"],
  });
  assertEquals(store.boundIn("no placeholder").size, 0);
  const text = "x hunter2x y s3cr3t%21%21 z [secret:A] ab";
  assertEquals(store.spans(text), [[2, 10], [13, 25]]);
  assertEquals(store.contains(text), true);
  assertEquals(store.contains("[secret:A] and ab"), false, "masks and short values do not count");
  assertEquals(store.masks, true);
  assertEquals(new SecretStore(new Map([["C", "ab"]])).masks, false);
});

Deno.test("SecretStore: where a filled value may be (boundAt, boundUnderCookie)", () => {
  const bound = new SecretStore(new Map([["A", "hunter2x"], ["D", "dddddddd"]]), {
    origins: new Map([["A", ["https://app.a.example"]], ["D", ["http://127.0.0.1:8080"]]]),
  });
  assertEquals(bound.boundAt("https://app.a.example"), ["A"]);
  assertEquals(bound.boundAt("https://b.example"), []);
  // Cookies keep neither scheme nor port apart; a parent domain's cookie reaches the app.
  assertEquals(bound.boundUnderCookie(".a.example"), ["A"]);
  assertEquals(bound.boundUnderCookie("app.a.example"), ["A"]);
  assertEquals(bound.boundUnderCookie("127.0.0.1"), ["D"]);
  assertEquals(bound.boundUnderCookie("other.a.example"), []);
  assertEquals(bound.boundUnderCookie("example"), ["A"]);
  const unbound = new SecretStore(new Map([["U", "uuuuuuuu"]]));
  // An unbound secret may be filled anywhere: no origin keeps it, none is named.
  assertEquals(unbound.boundAt("https://any.example"), []);
  assertEquals(unbound.boundUnderCookie("any.example"), []);
});
