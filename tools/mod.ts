/**
 * The tool registry: every tool browxai serves, listed explicitly.
 *
 * @module
 */
import type { ToolDefinition } from "./define_tool.ts";
import type { Toolset } from "../policy/toolsets.ts";
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
import { downloadGetTool } from "./files/download_get.ts";
import { downloadsCaptureTool } from "./files/downloads_capture.ts";
import { downloadsListTool } from "./files/downloads_list.ts";
import { uploadFileTool } from "./files/upload_file.ts";
import { fillFormTool } from "./forms/fill_form.ts";
import { publishTool } from "./forms/publish.ts";
import { readFormTool, reviewFormTool } from "./forms/read_form.ts";
import { saveDraftTool } from "./forms/save_draft.ts";
import { setEditorTool } from "./forms/set_editor.ts";
import { approveActionsTool, listApprovalsTool } from "./policy/approvals.ts";
import { getConfigTool } from "./policy/get_config.ts";
import { batchTool } from "./power/batch.ts";
import { artifactGetTool, artifactListTool, artifactSaveTool } from "./storage/artifacts.ts";
import { flakeCheckTool } from "./power/flake_check.ts";
import {
  cookiesClearTool,
  cookiesDeleteTool,
  cookiesGetTool,
  cookiesListTool,
  cookiesSetTool,
} from "./storage/cookies.ts";
import {
  localStorageClearTool,
  localStorageDeleteTool,
  localStorageGetTool,
  localStorageListTool,
  localStorageSetTool,
  sessionStorageClearTool,
  sessionStorageDeleteTool,
  sessionStorageGetTool,
  sessionStorageListTool,
  sessionStorageSetTool,
} from "./storage/web_storage.ts";
import {
  cachesClearTool,
  cachesDeleteStorageTool,
  cachesDeleteTool,
  cachesGetTool,
  cachesListStoragesTool,
  cachesListTool,
  cachesPutTool,
} from "./storage/caches.ts";
import {
  idbClearTool,
  idbDeleteTool,
  idbGetTool,
  idbListDatabasesTool,
  idbListStoresTool,
  idbPutTool,
} from "./storage/idb.ts";
import { dumpStorageStateTool, injectStorageStateTool } from "./storage/storage_state.ts";
import { EMULATION_TOOLS } from "./emulation/set_emulation.ts";
import { tabVisibilityTool } from "./emulation/tab_visibility.ts";
import { grantPermissionsTool, setGeolocationTool } from "./emulation/permissions.ts";
import { authDeleteTool, authListTool, authLoadTool, authSaveTool } from "./storage/auth.ts";

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
  readFormTool,
  fillFormTool,
  setEditorTool,
  reviewFormTool,
  saveDraftTool,
  publishTool,
  uploadFileTool,
  downloadsCaptureTool,
  downloadsListTool,
  downloadGetTool,
  getConfigTool,
  approveActionsTool,
  listApprovalsTool,
  batchTool,
  artifactSaveTool,
  artifactGetTool,
  artifactListTool,
  flakeCheckTool,
  cookiesGetTool,
  cookiesListTool,
  cookiesSetTool,
  cookiesDeleteTool,
  cookiesClearTool,
  localStorageGetTool,
  localStorageListTool,
  localStorageSetTool,
  localStorageDeleteTool,
  localStorageClearTool,
  sessionStorageGetTool,
  sessionStorageListTool,
  sessionStorageSetTool,
  sessionStorageDeleteTool,
  sessionStorageClearTool,
  cachesListStoragesTool,
  cachesListTool,
  cachesGetTool,
  cachesPutTool,
  cachesDeleteTool,
  cachesClearTool,
  cachesDeleteStorageTool,
  idbListDatabasesTool,
  idbListStoresTool,
  idbGetTool,
  idbPutTool,
  idbDeleteTool,
  idbClearTool,
  dumpStorageStateTool,
  injectStorageStateTool,
  authSaveTool,
  authLoadTool,
  authListTool,
  authDeleteTool,
  ...EMULATION_TOOLS,
  tabVisibilityTool,
  setGeolocationTool,
  grantPermissionsTool,
] as unknown as ToolDefinition[];

/**
 * The tools listed for a toolset selection; with `configReadonly`
 * (`BROWX_CONFIG_READONLY=1`) tools that change policy are left out.
 */
export function listedTools(
  toolsets: ReadonlySet<Toolset> | "all",
  options: { configReadonly?: boolean | undefined } = {},
): ToolDefinition[] {
  return ALL_TOOLS.filter((t) =>
    (toolsets === "all" || toolsets.has(t.toolset)) &&
    !(options.configReadonly && t.changesPolicy)
  );
}
