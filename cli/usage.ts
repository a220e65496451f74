/**
 * The usage text of `browxai` (`--help`, and after a usage error).
 *
 * @module
 */
import { DEFAULT_TOOLSETS } from "../policy/toolsets.ts";

/** The usage text (`--help`, and after a usage error). */
export const USAGE = `Usage: browxai [options]
       browxai doctor            what browxai would run here, and what to fix
       browxai install-browser   install Chrome for Testing into the browser cache

  (default)            MCP over stdio
  --console [PORT]     stdio mode: also serve the web console on 127.0.0.1 (default: a free port);
                       its URL (with a token) is printed to stderr
  --http               MCP Streamable HTTP on http://HOST:PORT/mcp, the web console on /console
  --host HOST          HTTP bind address (default 127.0.0.1; others need BROWX_HTTP_TOKEN or get a generated token)
  --port N             HTTP port (default: a free port, printed to stderr)
  --headless           no browser windows (the default)
  --headed, --headful  show browser windows; confirm hooks can then be answered in their DevTools console
  --browser PATH       Chromium/Chrome executable (else BROWX_BROWSER, CHROME_PATH, standard locations)
  --cdp-endpoint URL   use a running browser (ws://… or http://host:port) instead of launching one
  --workspace DIR      where browxai keeps profiles and files (default BROWX_WORKSPACE or ~/.browxai)
  --config FILE        (or BROWX_CONFIG) a JSON object of these flags (viewport-size or viewportSize)
                       and BROWX_* settings; flags win over the file, the file over the environment
  --viewport-size WxH  every session's viewport, CSS px (1280x720 or 1280,720; default: a
                       1280x800 window, 1280x713 in a headless page)
  --device NAME        emulate a device: viewport, scale, mobile, touch, user agent ("iPhone 15", "Pixel 7")
  --user-data-dir DIR  the default session is persistent on this Chromium profile
  --isolated           the default session is an incognito context, nothing kept (the default)
  --storage-state FILE cookies and localStorage (dump_storage_state's JSON) loaded into the default session
  --init-script FILE   a script every page and frame runs before its own (repeatable)
  --allowed-origins L  navigation allowlist, ;-separated (example.com;https://*.example.org:8443)
  --blocked-origins L  navigation blocklist, ;-separated; wins over the allowlist
  --ignore-https-errors  accept invalid TLS certificates (self-signed test servers)
  --proxy-server URL   send browser traffic through a proxy (http://host:3128, socks5://host:1080)
  --proxy-bypass L     hosts that skip the proxy, comma-separated (.example.com,localhost)
  --shared-browser-context  HTTP clients share one default session (one browser context)
  --automation-tells   let sites see automation (navigator.webdriver, HeadlessChrome); default hidden

Environment (README "Command line" has the details):
  BROWX_WORKSPACE            where profiles and files live (default ~/.browxai)
  BROWX_BROWSER, CHROME_PATH the Chromium/Chrome to run (else browxai's cache, then system locations)
  BROWX_BROWSER_CACHE        where browsers are installed (default ~/.cache/browxai/browsers; BROWX_CACHE_DIR)
  BROWX_BROWSER_MIRROR       base URL to download Chrome for Testing from (its layout)
  BROWX_BROWSER_SHA256       the SHA-256 the downloaded archive must have
  BROWX_NO_DOWNLOAD=1        never install a browser on first need
  BROWX_BROWSER_SEARCH       cache-only: look only at the named paths and the cache
  BROWX_CAPABILITIES         read,navigation,action,human,byob-attach,self-approval,secrets,network-body,
                             eval,file-io,human-gate-override or all (default read,navigation,action)
  BROWX_TOOLSETS             toolsets tools/list shows, or all (default ${
  DEFAULT_TOOLSETS.join(",")
})
  BROWX_CONFIRM_REQUIRED     hooks that need a human's yes: navigate_off_allowlist,byob_action,
                             file_download,file_upload,submit,publish (default none)
  BROWX_CONFIRM_TIMEOUT_MS   how long a human has to answer (default 60000); no answer is a no
  BROWX_CONFIRM_ELICITATION=0 never ask a human through MCP elicitation (the agent's own client
                             answers it): only the web console or the DevTools console
  BROWX_ALLOWED_ORIGINS      navigation allowlist: example.com, *.example.com, https://host:8443, *
  BROWX_DEVTOOLS_CONFIRM=1   answer confirm hooks in the DevTools console of a headless browser someone
                             inspects (chrome://inspect): __browx.confirm("CODE") in the "browxai" context
  BROWX_CONFIG_READONLY=1    hide and refuse tools that change policy (approve_actions)
  BROWX_SECRETS              a NAME=value file the agent fills as {{secret:NAME}} (secrets capability)
  BROWX_SHARED_AUTH_STATES=1 HTTP clients share one set of auth states
  BROWX_HTTP_TOKEN           bearer token(s) for --http, comma-separated (one per principal)
  BROWX_HTTP_BROWSERS        per-client (default: a Chromium per HTTP client) or shared (one for all)
  BROWX_CONSOLE=PORT         as --console PORT (0: a free port)
  BROWX_HTTP_IDLE_MS, BROWX_HTTP_MAX_CLIENTS, BROWX_HTTP_INIT_TTL_MS, BROWX_HTTP_BODY_TIMEOUT_MS,
  BROWX_HTTP_HEAD_TIMEOUT_MS HTTP limits: idle client, clients at once, silent client after initialize,
                             request body time, request head time
  BROWX_MAX_SESSIONS         browser sessions open at once, all clients (--http; default no limit)
  BROWX_SESSION_QUEUE, BROWX_SESSION_WAIT_MS  opens that may wait for a free session (default 16),
                             and how long (default 30000; never past the call's budget); then "busy"
  BROWX_SESSION_IDLE_MS      close a session with no call for this long (--http; default never)
  BROWX_DRAIN_MS             on SIGTERM, time calls in flight get to finish (--http; default 10000)
  BROWX_AUTOMATION_TELLS=1   as --automation-tells`;
