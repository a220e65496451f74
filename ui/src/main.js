// Entry point of the console bundle (`deno task ui` → ui/dist/console.js).
import { html, render } from "./html.js";
import { App } from "./app.js";

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
