/**
 * The tool registry: every tool browxai serves, listed explicitly.
 *
 * @module
 */
import type { ToolDefinition } from "./define_tool.ts";
import type { Toolset } from "../policy/toolsets.ts";
import type { Capability } from "../policy/capabilities.ts";
import { navigateTool } from "./browse/navigate.ts";
import { snapshotTool } from "./read/snapshot.ts";
import { clickTool } from "./act/click.ts";
import { fillTool } from "./act/fill.ts";
import { typeTool } from "./act/type.ts";
import { pressTool } from "./act/press.ts";
import { selectTool } from "./act/select.ts";
import { hoverTool } from "./act/hover.ts";
import { dragTool } from "./act/drag.ts";
import { mouseTool } from "./act/mouse.ts";
import { scrollTool } from "./act/scroll.ts";
import { handleDialogTool } from "./act/handle_dialog.ts";
import { waitForTool } from "./browse/wait_for.ts";
import { goBackTool } from "./browse/go_back.ts";
import { goForwardTool } from "./browse/go_forward.ts";
import { reloadTool } from "./browse/reload.ts";
import { tabsTool } from "./browse/tabs.ts";
import { screenshotTool } from "./read/screenshot.ts";
import { openSessionTool } from "./manage/open_session.ts";
import { closeSessionTool } from "./manage/close_session.ts";
import { listSessionsTool } from "./manage/list_sessions.ts";
import { consoleReadTool } from "./read/console_read.ts";
import { networkReadTool } from "./read/network_read.ts";
import { evalJsTool } from "./read/eval_js.ts";
import { readFormTool } from "./forms/read_form.ts";
import { fillFormTool } from "./forms/fill_form.ts";
import { setEditorTool } from "./forms/set_editor.ts";
import { reviewFormTool } from "./forms/review_form.ts";
import { saveDraftTool } from "./forms/save_draft.ts";
import { publishTool } from "./forms/publish.ts";
import { uploadFileTool } from "./files/upload_file.ts";
import { downloadsCaptureTool } from "./files/downloads_capture.ts";
import { downloadsListTool } from "./files/downloads_list.ts";
import { downloadGetTool } from "./files/download_get.ts";
import { getConfigTool } from "./policy/get_config.ts";
import { approveActionsTool } from "./policy/approve_actions.ts";
import { listApprovalsTool } from "./policy/list_approvals.ts";
import { batchTool } from "./power/batch.ts";
import { artifactSaveTool } from "./storage/artifact_save.ts";
import { artifactGetTool } from "./storage/artifact_get.ts";
import { artifactListTool } from "./storage/artifact_list.ts";
import { flakeCheckTool } from "./power/flake_check.ts";
import { cookiesGetTool } from "./storage/cookies_get.ts";
import { cookiesListTool } from "./storage/cookies_list.ts";
import { cookiesSetTool } from "./storage/cookies_set.ts";
import { cookiesDeleteTool } from "./storage/cookies_delete.ts";
import { cookiesClearTool } from "./storage/cookies_clear.ts";
import { localStorageGetTool } from "./storage/localstorage_get.ts";
import { localStorageListTool } from "./storage/localstorage_list.ts";
import { localStorageSetTool } from "./storage/localstorage_set.ts";
import { localStorageDeleteTool } from "./storage/localstorage_delete.ts";
import { localStorageClearTool } from "./storage/localstorage_clear.ts";
import { sessionStorageGetTool } from "./storage/sessionstorage_get.ts";
import { sessionStorageListTool } from "./storage/sessionstorage_list.ts";
import { sessionStorageSetTool } from "./storage/sessionstorage_set.ts";
import { sessionStorageDeleteTool } from "./storage/sessionstorage_delete.ts";
import { sessionStorageClearTool } from "./storage/sessionstorage_clear.ts";
import { cachesListStoragesTool } from "./storage/caches_list_storages.ts";
import { cachesListTool } from "./storage/caches_list.ts";
import { cachesGetTool } from "./storage/caches_get.ts";
import { cachesPutTool } from "./storage/caches_put.ts";
import { cachesDeleteTool } from "./storage/caches_delete.ts";
import { cachesClearTool } from "./storage/caches_clear.ts";
import { cachesDeleteStorageTool } from "./storage/caches_delete_storage.ts";
import { idbListDatabasesTool } from "./storage/idb_list_databases.ts";
import { idbListStoresTool } from "./storage/idb_list_stores.ts";
import { idbGetTool } from "./storage/idb_get.ts";
import { idbPutTool } from "./storage/idb_put.ts";
import { idbDeleteTool } from "./storage/idb_delete.ts";
import { idbClearTool } from "./storage/idb_clear.ts";
import { dumpStorageStateTool } from "./storage/dump_storage_state.ts";
import { injectStorageStateTool } from "./storage/inject_storage_state.ts";
import { authSaveTool } from "./storage/auth_save.ts";
import { authLoadTool } from "./storage/auth_load.ts";
import { authListTool } from "./storage/auth_list.ts";
import { authDeleteTool } from "./storage/auth_delete.ts";
import { setTimezoneTool } from "./emulation/set_timezone.ts";
import { setLocaleTool } from "./emulation/set_locale.ts";
import { setColorSchemeTool } from "./emulation/set_color_scheme.ts";
import { setReducedMotionTool } from "./emulation/set_reduced_motion.ts";
import { setUserAgentTool } from "./emulation/set_user_agent.ts";
import { setViewportTool } from "./emulation/set_viewport.ts";
import { tabVisibilityTool } from "./emulation/tab_visibility.ts";
import { setGeolocationTool } from "./emulation/set_geolocation.ts";
import { grantPermissionsTool } from "./emulation/grant_permissions.ts";
import { nameRefTool } from "./refs/name_ref.ts";
import { listNamedRefsTool } from "./refs/list_named_refs.ts";
import { askHumanTool } from "./human/ask_human.ts";
import { highlightTool } from "./human/highlight.ts";
import { textSearchTool } from "./read/text_search.ts";
import { readPageTool } from "./read/read_page.ts";
import { getUrlTool } from "./read/get_url.ts";
import { chooseOptionTool } from "./act/choose_option.ts";
import { domReadTool } from "./read/dom_read.ts";
import { stylesReadTool } from "./read/styles_read.ts";
import { stylesWriteTool } from "./act/styles_write.ts";
import { findTool } from "./find/find.ts";
import { findFeedbackTool } from "./find/find_feedback.ts";
import { planTool } from "./power/plan.ts";
import { executeTool } from "./power/execute.ts";
import { takeoverTool } from "./human/takeover.ts";
import { releaseTool } from "./human/release.ts";
import { routeTool } from "./testing/route.ts";
import { unrouteTool } from "./testing/unroute.ts";
import { listRoutesTool } from "./testing/list_routes.ts";
import { pickedTool } from "./human/picked.ts";
import { pdfSaveTool } from "./record/pdf_save.ts";
import { traceStartTool } from "./record/trace_start.ts";
import { traceStopTool } from "./record/trace_stop.ts";
import { harSaveTool } from "./record/har_save.ts";

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
  dragTool,
  mouseTool,
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
  setTimezoneTool,
  setLocaleTool,
  setColorSchemeTool,
  setReducedMotionTool,
  setUserAgentTool,
  setViewportTool,
  tabVisibilityTool,
  setGeolocationTool,
  grantPermissionsTool,
  nameRefTool,
  listNamedRefsTool,
  textSearchTool,
  readPageTool,
  getUrlTool,
  chooseOptionTool,
  domReadTool,
  stylesReadTool,
  stylesWriteTool,
  findTool,
  findFeedbackTool,
  planTool,
  executeTool,
  askHumanTool,
  highlightTool,
  takeoverTool,
  releaseTool,
  pickedTool,
  routeTool,
  unrouteTool,
  listRoutesTool,
  pdfSaveTool,
  traceStartTool,
  traceStopTool,
  harSaveTool,
] as unknown as ToolDefinition[];

/**
 * The tools of a toolset selection that the configuration lets the agent
 * call: with `configReadonly` (`BROWX_CONFIG_READONLY=1`) tools that change
 * policy are left out, and with `capabilities` (`BROWX_CAPABILITIES`) tools
 * whose capability is not among them (`eval_js` without `eval`): `tools/list`
 * shows no tool the agent cannot call, and pays no tokens for one. Without
 * `capabilities`: every tool of the selection (the tools a call may name, to
 * be refused with its `requiredCapability`).
 */
export function listedTools(
  toolsets: ReadonlySet<Toolset> | "all",
  options: {
    configReadonly?: boolean | undefined;
    capabilities?: ReadonlySet<Capability> | undefined;
  } = {},
): ToolDefinition[] {
  const { capabilities } = options;
  return ALL_TOOLS.filter((t) =>
    (toolsets === "all" || toolsets.has(t.toolset)) &&
    !(options.configReadonly && t.changesPolicy) &&
    (capabilities === undefined || capabilities.has(t.capability))
  );
}
