/**
 * The browser flags @playwright/mcp users know, mapped onto browxai's settings: the launch
 * switches (`--proxy-server`, `--proxy-bypass`, `--ignore-https-errors`), what sessions start
 * with (`--viewport-size`, `--device`, `--init-script`, `--storage-state`, `--user-data-dir`,
 * `--shared-browser-context`) and whether a launched browser announces automation.
 *
 * @module
 */
import { resolve } from "node:path";
import type { SessionDefaults } from "../browser/sessions/browser_host.ts";
import { DEVICE_PRESETS, devicePreset } from "../browser/sessions/device_presets.ts";
import { parseStorageState, StorageStateError } from "../storage/storage_state.ts";
import { MAX_VIEWPORT } from "../tools/fields.ts";
import type { FlagValues } from "./flag_table.ts";
import { UsageError } from "./usage_error.ts";

/**
 * The Chromium switches the server's policy needs of every browser it launches: with bound
 * secrets or an allowlist, WebRTC sends no UDP but through a proxy (red team s14 #4: a page
 * made a bound secret its ICE username, and the STUN checks carried it in clear to any host;
 * no request the navigation guard could hold). A browser browxai attaches to keeps its own.
 */
export function policyLaunchArgs(
  config: {
    secrets?: { bound(): readonly unknown[] } | undefined;
    allowedOrigins?: readonly unknown[] | undefined;
  },
): string[] {
  const guarded = (config.secrets?.bound().length ?? 0) > 0 ||
    (config.allowedOrigins?.length ?? 0) > 0;
  return guarded ? ["--webrtc-ip-handling-policy=disable_non_proxied_udp"] : [];
}

/** `settings` with {@link policyLaunchArgs} added to its launch switches. */
export function withPolicyArgs(
  settings: BrowserSettings,
  config: Parameters<typeof policyLaunchArgs>[0],
): BrowserSettings {
  return { ...settings, launchArgs: [...settings.launchArgs, ...policyLaunchArgs(config)] };
}

/** What the browser flags decide. */
export interface BrowserSettings {
  /** Chromium switches for every browser browxai launches. */
  launchArgs: string[];
  /** `--automation-tells` / `BROWX_AUTOMATION_TELLS=1`: let launched browsers announce automation. */
  automationTells: boolean;
  defaults: SessionDefaults;
}

/**
 * `1280x720` or `1280,720` → CSS px.
 *
 * @throws UsageError outside 100..MAX_VIEWPORT.
 */
export function parseViewportSize(text: string): { width: number; height: number } {
  const m = /^\s*(\d{1,5})\s*[x,]\s*(\d{1,5})\s*$/i.exec(text);
  const width = Number(m?.[1]), height = Number(m?.[2]);
  if (
    !m || width < 100 || height < 100 || width > MAX_VIEWPORT.width ||
    height > MAX_VIEWPORT.height
  ) {
    throw new UsageError(
      `Invalid --viewport-size "${text}": expected WIDTHxHEIGHT in CSS px (like 1280x720), ` +
        `100-${MAX_VIEWPORT.width} x 100-${MAX_VIEWPORT.height}`,
    );
  }
  return { width, height };
}

function readText(flag: string, path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    throw new UsageError(`Cannot read ${flag} "${path}": ${(e as Error).message.split("\n")[0]}`);
  }
}

/** A boolean setting's text (`1`, `true`, `0`, `false`, empty). @throws UsageError */
export function envFlag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new UsageError(`Invalid ${name} "${value}": expected 1 or 0`);
}

/**
 * The browser settings of the flags (merged: command line over config file) and environment.
 *
 * @throws UsageError on a bad size, an unknown device, an unreadable or invalid file.
 */
export function browserSettings(
  values: FlagValues,
  env: (name: string) => string | undefined,
): BrowserSettings {
  const launchArgs: string[] = [];
  if (values["proxy-server"] !== undefined) {
    const proxy = values["proxy-server"].trim();
    // Chromium takes http, https, socks4 and socks5 proxies (a bare host:port is http).
    if (
      !proxy || /\s/.test(proxy) ||
      (/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) && !/^(https?|socks[45]?):\/\//i.test(proxy))
    ) {
      throw new UsageError(
        `Invalid --proxy-server "${proxy}": expected a proxy like http://myproxy:3128 or ` +
          "socks5://host:1080",
      );
    }
    launchArgs.push(`--proxy-server=${proxy}`);
  }
  if (values["proxy-bypass"] !== undefined) {
    // Chromium's list is `;`- or `,`-separated; the peer's is comma-separated.
    const list = values["proxy-bypass"].split(/[;,]/).map((s) => s.trim()).filter(Boolean);
    if (values["proxy-server"] === undefined) {
      throw new UsageError("--proxy-bypass needs --proxy-server");
    }
    launchArgs.push(`--proxy-bypass-list=${list.join(";")}`);
  }
  if (values["ignore-https-errors"]) launchArgs.push("--ignore-certificate-errors");
  const defaults: SessionDefaults = {};
  if (values.device !== undefined) {
    const d = devicePreset(values.device);
    if (!d) {
      throw new UsageError(
        `Unknown --device "${values.device}": known are ${Object.keys(DEVICE_PRESETS).join(", ")}`,
      );
    }
    defaults.viewport = {
      width: d.width,
      height: d.height,
      deviceScaleFactor: d.deviceScaleFactor,
      mobile: d.mobile,
      touch: d.touch,
    };
    if (d.userAgent) defaults.userAgent = d.userAgent;
  }
  if (values["viewport-size"] !== undefined) {
    // With a device: its scale, mobile layout and touch, at this size.
    defaults.viewport = { ...defaults.viewport, ...parseViewportSize(values["viewport-size"]) };
  }
  const scripts = values["init-script"] ?? [];
  if (scripts.length) defaults.initScripts = scripts.map((p) => readText("--init-script", p));
  if (values["storage-state"] !== undefined) {
    const path = values["storage-state"];
    try {
      defaults.storageState = parseStorageState(JSON.parse(readText("--storage-state", path)));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const why = e instanceof StorageStateError ? e.message : (e as Error).message;
      throw new UsageError(`Invalid --storage-state "${path}": ${why}`);
    }
  }
  if (values["user-data-dir"] !== undefined) {
    if (!values["user-data-dir"].trim()) throw new UsageError("Invalid --user-data-dir: empty");
    defaults.userDataDir = resolve(values["user-data-dir"]);
  }
  if (values["shared-browser-context"]) defaults.sharedContext = true;
  return {
    launchArgs,
    automationTells: values["automation-tells"] ||
      envFlag("BROWX_AUTOMATION_TELLS", env("BROWX_AUTOMATION_TELLS")),
    defaults,
  };
}
