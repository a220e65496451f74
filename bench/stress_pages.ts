/**
 * Generated pages for the bench. Each comes with the probes a complete snapshot must contain:
 * names of interactive elements spread over the page and a text from its very end. The pages
 * are deterministic, so their probes are known without rendering them (cross-origin frames
 * included, which a script in the top page could not read).
 *
 * @module
 */

/** A generated page and what a complete snapshot of it must contain. */
export interface GeneratedPage {
  /** The HTML document. */
  html: string;
  /** Accessible names of interactive elements (links, buttons, fields), in document order. */
  interactive: string[];
  /** A text from the end of the page. */
  tail: string;
}

/** Names of the generated pages (served as `/gen/<name>.html`). */
export const GENERATED_PAGES = ["small", "many", "shadow", "frames"] as const;
/** One of {@link GENERATED_PAGES}. */
export type GeneratedName = typeof GENERATED_PAGES[number];

function doc(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
    `<style>body{font-family:sans-serif;margin:16px}iframe{width:360px;height:160px}</style>` +
    `</head><body>${body}</body></html>`;
}

const pad = (n: number) => String(n).padStart(4, "0");

/**
 * A small page: text, a few links and buttons, and a minimal todo app with TodoMVC's markup
 * (`#new-todo` adds an item on Enter; each item has an unnamed `.toggle` checkbox).
 */
export function smallPage(): GeneratedPage {
  const links = ["Getting started", "API reference", "Release notes", "Contact us"];
  const buttons = ["Subscribe", "Download report"];
  const tail = "The end of the small page: zebra quartz lantern.";
  const body = `<header><h1>Small bench page</h1><nav>${
    links.map((l, i) => `<a href="/gen/small.html#l${i}">${l}</a> `).join("")
  }</nav></header>
<main><p>This page is small on purpose: a smoke test runs the bench on it.</p>
${buttons.map((b) => `<button type="button">${b}</button>`).join(" ")}
<section class="todoapp"><h2>todos</h2>
<input id="new-todo" placeholder="What needs to be done?" autocomplete="off">
<ul id="todo-list"></ul><span id="todo-count">0 items left</span></section>
<p>${tail}</p></main>
<script>
const input = document.getElementById("new-todo");
const list = document.getElementById("todo-list");
const count = () => {
  const n = list.querySelectorAll("li:not(.completed)").length;
  document.getElementById("todo-count").textContent = n + (n === 1 ? " item" : " items") + " left";
};
input.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" || !input.value.trim()) return;
  const li = document.createElement("li");
  li.innerHTML = '<input class="toggle" type="checkbox"><label></label>';
  li.querySelector("label").textContent = input.value.trim();
  li.querySelector(".toggle").addEventListener("change", (ev) => {
    li.classList.toggle("completed", ev.target.checked);
    count();
  });
  list.append(li);
  input.value = "";
  count();
});
</script>`;
  return {
    html: doc("Small bench page", body),
    interactive: [...links, ...buttons, "What needs to be done?"],
    tail,
  };
}

/**
 * `count` interactive elements (default 5,000) in sections of 50 under headings: 40% links,
 * 30% buttons, 20% labelled text fields, 10% labelled checkboxes; a paragraph ends the page.
 */
export function manyElementsPage(count = 5000): GeneratedPage {
  const names: string[] = [];
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 50 === 0) {
      if (i > 0) parts.push("</section>");
      parts.push(`<section><h2>Section ${i / 50 + 1}</h2>`);
    }
    const k = i % 10;
    if (k < 4) {
      const name = `Link ${pad(i)} about item`;
      parts.push(`<a href="/gen/many.html#i${i}">${name}</a> `);
      names.push(name);
    } else if (k < 7) {
      const name = `Button ${pad(i)} act`;
      parts.push(`<button type="button">${name}</button> `);
      names.push(name);
    } else if (k < 9) {
      const name = `Field ${pad(i)} value`;
      parts.push(`<label>${name} <input type="text" name="f${i}"></label> `);
      names.push(name);
    } else {
      const name = `Option ${pad(i)} flag`;
      parts.push(`<label><input type="checkbox" name="c${i}"> ${name}</label> `);
      names.push(name);
    }
  }
  parts.push("</section>");
  const tail = `That was all ${count} elements: the last paragraph of the many page.`;
  parts.push(`<p>${tail}</p>`);
  return {
    html: doc(
      `${count} interactive elements`,
      `<h1>${count} interactive elements</h1>${parts.join("\n")}`,
    ),
    interactive: names,
    tail,
  };
}

/**
 * A table of `rows` rows (default 3,000) under a header row: an item's name, a price and a
 * "Buy" button per row (the rows of tests/find_ordinal_test.ts). Served as
 * `/gen/table.html?n=`, not one of {@link GENERATED_PAGES}: for `bench/cdp_profile.ts --url`
 * and snapshot size measures.
 */
export function tablePage(rows = 3000): GeneratedPage {
  const body: string[] = [];
  const interactive: string[] = [];
  for (let i = 0; i < rows; i++) {
    body.push(
      `<tr><td>Item ${i}</td><td>${i % 90 + 10} EUR</td><td><button>Buy ${i}</button></td></tr>`,
    );
    interactive.push(`Buy ${i}`);
  }
  const tail = `That was all ${rows} rows of the table page.`;
  const table = `<table><thead><tr><th>Item</th><th>Price</th><th>Action</th></tr></thead>` +
    `<tbody>${body.join("")}</tbody></table>`;
  return {
    html: doc(`${rows} rows`, `<h1>${rows} rows</h1>${table}<p>${tail}</p>`),
    interactive,
    tail,
  };
}

/**
 * A small data table (served as `/gen/datatable.html`): a caption, a header row, a row header
 * per row, a checkbox, a link and an "Edit" button in each of its 8 rows, and a footer row.
 */
export function dataTablePage(): GeneratedPage {
  const people = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"];
  const interactive: string[] = [];
  const rows = people.map((p, i) => {
    interactive.push(`Select ${p}`, `${p.toLowerCase()}@example.com`, `Edit ${p}`);
    return `<tr><td><input type="checkbox" aria-label="Select ${p}"></td><th scope="row">${p}</th>` +
      `<td>${20 + i * 3}</td><td>${i % 3 ? "editor" : "admin"}</td>` +
      `<td><a href="mailto:${p.toLowerCase()}@example.com">${p.toLowerCase()}@example.com</a></td>` +
      `<td><button aria-label="Edit ${p}">Edit</button></td></tr>`;
  });
  const tail = "Eight people, two admins.";
  const table = `<table><caption>People</caption><thead><tr><th></th><th>Name</th><th>Age</th>` +
    `<th>Role</th><th>Email</th><th>Actions</th></tr></thead><tbody>${rows.join("")}</tbody>` +
    `<tfoot><tr><td></td><th scope="row">Total</th><td colspan="4">8 people</td></tr></tfoot></table>`;
  return { html: doc("People", `<h1>People</h1>${table}<p>${tail}</p>`), interactive, tail };
}

/**
 * `hosts` custom elements (default 20), each holding `depth` (default 4) nested open shadow
 * roots; the innermost root of each holds a paragraph, a link and a button. The page's last
 * text sits in the innermost root of the last host.
 */
export function shadowPage(hosts = 20, depth = 4): GeneratedPage {
  const interactive: string[] = [];
  for (let h = 0; h < hosts; h++) {
    interactive.push(`Shadow link ${h}`, `Shadow button ${h}`);
  }
  const tail = `Deepest shadow text of host ${hosts - 1} closes the page.`;
  const body = `<h1>Nested shadow roots</h1><p>${hosts} hosts, ${depth} levels each.</p>
<div id="hosts"></div>
<script>
const hosts = ${hosts}, depth = ${depth};
for (let h = 0; h < hosts; h++) {
  let parent = document.createElement("shadow-host");
  document.getElementById("hosts").append(parent);
  for (let d = 0; d < depth; d++) {
    const root = parent.attachShadow({ mode: "open" });
    const box = document.createElement("div");
    box.innerHTML = "<span>Level " + (d + 1) + " of host " + h + "</span>";
    root.append(box);
    if (d === depth - 1) {
      const p = document.createElement("p");
      p.textContent = h === hosts - 1 ? ${JSON.stringify(tail)} : "Inner text of host " + h;
      const a = document.createElement("a");
      a.href = "/gen/shadow.html#h" + h;
      a.textContent = "Shadow link " + h;
      const b = document.createElement("button");
      b.textContent = "Shadow button " + h;
      root.append(p, a, b);
    } else {
      const next = document.createElement("shadow-host");
      root.append(next);
      parent = next;
    }
  }
}
</script>`;
  return { html: doc("Nested shadow roots", body), interactive, tail };
}

/** The document of frame `i` of {@link framesPage}. */
export function framePage(i: number): GeneratedPage {
  const tail = `Frame ${i} ends here.`;
  const interactive = [`Frame ${i} link`, `Frame ${i} button`];
  const body = `<h2>Frame ${i}</h2><a href="/gen/frame.html?i=${i}#x">${interactive[0]}</a>
<button type="button">${interactive[1]}</button><p>${tail}</p>`;
  return { html: doc(`Frame ${i}`, body), interactive, tail };
}

/**
 * `count` iframes (default 20): even ones from `origin` (same-origin), odd ones from
 * `crossOrigin` (a different site, so Chromium runs them out of process). A paragraph after
 * the frames ends the page.
 *
 * @param origin This page's origin, e.g. `http://127.0.0.1:8000`.
 * @param crossOrigin Another site, e.g. `http://localhost:8001`.
 */
export function framesPage(origin: string, crossOrigin: string, count = 20): GeneratedPage {
  const interactive: string[] = [];
  const frames: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = i % 2 === 0 ? origin : crossOrigin;
    frames.push(`<iframe title="Frame ${i}" src="${base}/gen/frame.html?i=${i}"></iframe>`);
    interactive.push(...framePage(i).interactive);
  }
  const tail = `After ${count} frames, this paragraph ends the frames page.`;
  const body = `<h1>Frames</h1><p>Same-origin and cross-origin iframes.</p>${
    frames.join("\n")
  }<p>${tail}</p>`;
  return { html: doc("Frames", body), interactive, tail };
}

/**
 * The generated page served at `/gen/<name>.html` (frames: `/gen/frame.html?i=N`), or
 * undefined for an unknown name.
 */
export function generatedPage(
  name: string,
  origins: { origin: string; crossOrigin: string },
  query: URLSearchParams = new URLSearchParams(),
): GeneratedPage | undefined {
  switch (name) {
    case "small":
      return smallPage();
    case "many":
      return manyElementsPage(Number(query.get("n") ?? 5000));
    case "shadow":
      return shadowPage();
    case "frames":
      return framesPage(origins.origin, origins.crossOrigin);
    case "frame":
      return framePage(Number(query.get("i") ?? 0));
    case "table":
      return tablePage(Number(query.get("n") ?? 3000));
    case "datatable":
      return dataTablePage();
    default:
      return undefined;
  }
}
