/**
 * The tool registry: every tool browxai serves, listed explicitly.
 *
 * @module
 */
import type { ToolDefinition, Toolset } from "./define_tool.ts";
import { clickTool } from "./act/click.ts";
import { fillTool } from "./act/fill.ts";
import { handleDialogTool } from "./act/handle_dialog.ts";
import { hoverTool } from "./act/hover.ts";
import { pressTool } from "./act/press.ts";
import { scrollTool } from "./act/scroll.ts";
import { selectTool } from "./act/select.ts";
import { typeTool } from "./act/type.ts";
import { goBackTool, goForwardTool, reloadTool } from "./browse/history.ts";
import { navigateTool } from "./browse/navigate.ts";
import { tabsTool } from "./browse/tabs.ts";
import { waitForTool } from "./browse/wait_for.ts";
import { closeSessionTool, listSessionsTool, openSessionTool } from "./manage/sessions.ts";
import { consoleReadTool, networkReadTool } from "./read/console_read.ts";
import { evalJsTool } from "./read/eval_js.ts";
import { screenshotTool } from "./read/screenshot.ts";
import { snapshotTool } from "./read/snapshot.ts";

/** Every tool, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  navigateTool,
  snapshotTool,
  clickTool,
  fillTool,
  typeTool,
  pressTool,
  selectTool,
  hoverTool,
  scrollTool,
  handleDialogTool,
  waitForTool,
  goBackTool,
  goForwardTool,
  reloadTool,
  tabsTool,
  screenshotTool,
  openSessionTool,
  closeSessionTool,
  listSessionsTool,
  consoleReadTool,
  networkReadTool,
  evalJsTool,
] as unknown as ToolDefinition[];

/** Every toolset name. */
export const TOOLSETS: readonly Toolset[] = ["core", "sessions", "debug"];

/** Toolsets listed when `BROWX_TOOLSETS` is not set. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ["core", "sessions", "debug"];

/** The tools listed for a toolset selection. */
export function listedTools(toolsets: ReadonlySet<Toolset> | "all"): ToolDefinition[] {
  return ALL_TOOLS.filter((t) => toolsets === "all" || toolsets.has(t.toolset));
}
