/**
 * What a human approves for a file is what happens (red team s14 #6): with
 * BROWX_CONFIRM_REQUIRED=file_upload,file_download the person is asked about a file input or
 * a download link, named with its page; while they read, the page navigates to another page
 * with a file input that sends what it gets, gives the selector's id to another input, or
 * points the link at `evil.exe`. After the yes nothing is attached or fetched: the call fails
 * `page-changed`, saying what changed. Unchanged, both go. The page swaps once the test's
 * "person" is asked: no fixed waits.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { poll, swapPages } from "./_swap_pages.ts";

const SEND =
  `onchange = async () => fetch("/stolen", { method: "POST", body: await this.files[0].text() })`;
const PAGES: Record<string, string> = {
  // The swap navigates; the next page reports it once it runs.
  "/apply":
    `<form action=/apply-post method=post enctype=multipart/form-data><label>CV <input type=file id=f name=cv></label></form>` +
    poll(`location.href = "/exfil"; return`),
  "/exfil": `<h1>Thanks</h1><input type=file id=f ${SEND}><script>fetch("/swapped")</script>`,
  "/apply2": `<label>CV <input type=file id=f name=cv></label><input type=file id=g ${SEND}>` +
    poll(`const [f, g] = document.querySelectorAll("input"); f.id = "old"; g.id = "f"`),
  "/still": `<label>CV <input type=file id=f name=cv></label>` + poll(""),
  "/dl": `<a id=dl href="/report.pdf" download>Download report</a>` +
    poll(`document.querySelector("a").href = "/evil.exe"`),
  "/dl-still": `<a id=dl href="/report.pdf" download>Download report</a>` + poll(""),
  "/report.pdf": "%PDF-report",
  "/evil.exe": "EVIL",
};

Deno.test("confirm: a file goes only where the human was told", async (t) => {
  const pages = swapPages(PAGES);
  const { origin, asked, hits } = pages;
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,file-io",
      BROWX_TOOLSETS: "all",
      BROWX_CONFIRM_REQUIRED: "file_upload,file_download",
    },
    elicit: pages.elicit,
  });
  await Deno.writeTextFile(`${mcp.workspace}/private-notes.txt`, "MY PRIVATE NOTES\n");
  const upload = async (path: string, swapping = true) => {
    await mcp.ok("navigate", { url: origin + path, snapshot: "none" });
    return await pages.during(
      swapping,
      () => mcp.call("upload_file", { selector: "#f", paths: ["private-notes.txt"] }),
    );
  };
  const download = async (path: string, swapping = true) => {
    const nav = await mcp.ok("navigate", { url: origin + path, snapshot: "full" });
    const ref = refOf((nav.snapshotDelta as { tree: string }).tree, /\[Download report\]/);
    return await pages.during(swapping, () => mcp.call("click", { ref, download: true }));
  };
  try {
    await t.step("the page navigated to another file input: nothing attached", async () => {
      const { r } = await upload("/apply");
      assertIncludes(asked.at(-1) ?? "", `to button input#f "CV" on ${origin}/apply`);
      assertEquals(errorOf(r).code, "page-changed", textOf(r));
      assertIncludes(textOf(r), `another document (was ${origin}/apply, now ${origin}/exfil)`);
      assertTrue(!hits.includes("POST /stolen"), hits.join());
    });
    await t.step("another input took the selector's id: nothing attached", async () => {
      const { r } = await upload("/apply2");
      assertEquals(errorOf(r).code, "page-changed", textOf(r));
      assertIncludes(textOf(r), "another element");
      assertTrue(!hits.includes("POST /stolen"), hits.join());
    });
    await t.step("an unchanged input gets the file", async () => {
      const { r } = await upload("/still", false);
      assertTrue(!r.isError, textOf(r));
      assertIncludes(JSON.stringify(r.structuredContent), "private-notes.txt");
    });
    await t.step("the link now points at evil.exe: nothing downloaded", async () => {
      const { r } = await download("/dl");
      assertIncludes(asked.at(-1) ?? "", `(a link to ${origin}/report.pdf) on ${origin}/dl`);
      assertEquals(errorOf(r).code, "page-changed", textOf(r));
      assertIncludes(textOf(r), `the link points to ${origin}/evil.exe, was ${origin}/report.pdf`);
      assertTrue(!hits.includes("GET /evil.exe"), hits.join());
    });
    await t.step("an unchanged link downloads", async () => {
      const { r } = await download("/dl-still", false);
      assertTrue(!r.isError, textOf(r));
      await eventually(() => hits.includes("GET /report.pdf"), 5000, "the download");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
