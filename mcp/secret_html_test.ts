import { assertEquals } from "../tests/_assert.ts";
import { htmlText, markupText, placeholdersOnlyInText } from "./secret_html.ts";

Deno.test("placeholdersOnlyInText: text nodes only, never a tag, comment or raw text", () => {
  const P = "{{secret:PW}}";
  const table: Array<[string, boolean]> = [
    [P, true],
    [`<p>${P}</p>`, true],
    [`<p>a < b ${P}</p>`, true],
    [`<span style="text-transform:uppercase">${P}</span>`, true],
    [`<img src="http://${P}.host/">`, false],
    [`<a href=http://${P}.x/>l</a>`, false],
    [`<img src='a>b' alt="${P}">`, false],
    [`<img title="a>${P}">`, false],
    [`<p ${P}>x</p>`, false],
    [`<!-- ${P} -->`, false],
    [`<style>@import url(http://${P}.x/)</style>`, false],
    [`<svg><style>a{background:url(//${P}.x)}</style></svg>`, false],
    [`<textarea>${P}</textarea>`, false],
    [`<style>x</style><p>${P}</p>`, true],
    [`<plaintext>${P}`, false],
    [`<![CDATA[${P}]]>`, false],
    [`</ ${P}>`, false],
    [`<p>${P}`, true],
  ];
  for (const [html, want] of table) assertEquals(placeholdersOnlyInText(html), want, html);
});

Deno.test("htmlText: a value with markup characters stays text", () => {
  assertEquals(htmlText(`a<b>&"'`), "a&#60;b&#62;&#38;&#34;&#39;");
});

Deno.test("markupText: what the parser makes of markup", () => {
  assertEquals(markupText("a<!-- > -->b<!-->c<!--->d"), "abcd");
  assertEquals(markupText("a<script>x</script>b<style>y</style>c"), "abc");
  assertEquals(markupText("&#101&#x65;&amp;&lt&unknown;"), "ee&<&unknown;");
});
