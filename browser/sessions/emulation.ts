/**
 * A session's device emulation: the knobs set so far (timezone, locale, colour scheme,
 * reduced motion, user agent, viewport, geolocation), applied to every open tab and re-applied to every
 * new page, popup and out-of-process iframe of the session while it still waits for the
 * debugger, so the overrides hold before its first script runs. Re-applying a knob replaces
 * its value; a null knob is cleared.
 *
 * CDP: `Emulation.setTimezoneOverride`, `Emulation.setLocaleOverride`,
 * `Emulation.setUserAgentOverride` (User-Agent and Accept-Language headers,
 * `navigator.userAgent`, `navigator.language`), `Emulation.setEmulatedMedia` (the
 * `prefers-color-scheme` and `prefers-reduced-motion` features),
 * `Emulation.setDeviceMetricsOverride` / `Emulation.clearDeviceMetricsOverride` (pages only:
 * an iframe takes its size from its parent), `Browser.getVersion` (the browser's own user
 * agent, sent with a locale-only override), `Emulation.setGeolocationOverride` /
 * `Emulation.clearGeolocationOverride`, `Emulation.setTouchEmulationEnabled` (a viewport with
 * `touch`), `Page.addScriptToEvaluateOnNewDocument` (init scripts). Permission grants and the page-side prompts that
 * stand in for the ones a grant skips: {@link PermissionPrompts}.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { AttachedTarget } from "../../cdp/target_manager.ts";
import { PermissionPrompts } from "./permission_prompts.ts";

/** The warning every emulation result of an attached session carries. */
export const ATTACHED_WARNING =
  "attached session: the override stays in the person's Chrome until it navigates or restarts";

/** A viewport override. */
export interface ViewportOverride {
  width: number;
  height: number;
  deviceScaleFactor?: number;
  mobile?: boolean;
  /** Emulate a touch screen (`Emulation.setTouchEmulationEnabled`, pages only). */
  touch?: boolean;
}

/** A geolocation override: degrees, and accuracy in metres. */
export interface GeolocationOverride {
  latitude: number;
  longitude: number;
  accuracy: number;
}

/** Every emulation knob of a session; null: not overridden. */
export interface EmulationState {
  timezoneId: string | null;
  locale: string | null;
  colorScheme: "light" | "dark" | null;
  reducedMotion: "reduce" | null;
  userAgent: string | null;
  viewport: ViewportOverride | null;
  geolocation: GeolocationOverride | null;
}

/** The knobs and the permission grants (origin, `""` for every origin → names). */
export type EmulationView = EmulationState & { permissions: Record<string, string[]> };

/** A target the overrides go to. */
export interface EmulationTarget {
  session: CdpSession;
  /** `page` or `iframe` (no viewport for iframes). */
  type: string;
}

type Knob = keyof EmulationState;

/** Knobs sharing one CDP command, re-sent together. */
type Group = "timezone" | "locale" | "userAgent" | "media" | "viewport" | "geolocation";

const GROUPS: Record<Knob, Group[]> = {
  timezoneId: ["timezone"],
  locale: ["locale", "userAgent"],
  userAgent: ["userAgent"],
  colorScheme: ["media"],
  reducedMotion: ["media"],
  viewport: ["viewport"],
  geolocation: ["geolocation"],
};

const ALL_GROUPS: Group[] = ["timezone", "locale", "userAgent", "media", "viewport", "geolocation"];

/**
 * Errors a second session of one renderer process gets for a process-wide override that an
 * earlier session (the opener of a same-process popup) holds already: the override is in
 * effect there, so they are not failures.
 */
const ALREADY = /already in effect/i;

/** A session's emulation state. */
export class SessionEmulation {
  #state: EmulationState = {
    timezoneId: null,
    locale: null,
    colorScheme: null,
    reducedMotion: null,
    userAgent: null,
    viewport: null,
    geolocation: null,
  };
  /** The browser's own user agent, sent with a locale-only override. */
  #defaultUserAgent = "";
  /**
   * Targets seen attaching, by type: out-of-process iframes, and pages, since a page is in
   * the session's tabs only once attached, after a knob set meanwhile missed it.
   */
  #targets = new Map<CdpSession, string>();

  /** Permission grants and the prompts standing in for the ones they skip. */
  readonly permissions = new PermissionPrompts();
  /**
   * Scripts every page and out-of-process iframe of the session runs before its own
   * (`--init-script`): `Page.addScriptToEvaluateOnNewDocument`, which covers a target's
   * same-process frames too.
   */
  #initScripts: string[] = [];
  /** Touch emulation was turned on once: a viewport without it turns it off again. */
  #touched = false;

  /**
   * Adds init scripts: sent to `pages` now (`runImmediately`: their current documents run
   * them too) and to every target that attaches from now on, before its first script.
   */
  async addInitScripts(scripts: readonly string[], pages: readonly CdpSession[]): Promise<void> {
    this.#initScripts.push(...scripts);
    await Promise.all(
      [...this.#live(pages)].flatMap((t) =>
        scripts.map((source) =>
          t.session.send("Page.addScriptToEvaluateOnNewDocument", { source, runImmediately: true })
            .catch(() => {})
        )
      ),
    );
  }

  /** A copy of the knobs and the grants. */
  get state(): EmulationView {
    return {
      ...this.#state,
      viewport: this.#state.viewport && { ...this.#state.viewport },
      geolocation: this.#state.geolocation && { ...this.#state.geolocation },
      permissions: this.permissions.grants,
    };
  }

  /** True when some knob is set. */
  get active(): boolean {
    return Object.values(this.#state).some((v) => v !== null);
  }

  /**
   * BrowserSession.targetAttaching (and pageAttached, for a tab adopted later): sends every
   * set knob to a target that waits for the debugger (synchronously, so the commands precede
   * its resumption). Once per target.
   */
  attach(target: AttachedTarget): void {
    // Once per target: a tab that attached before the session claimed its context comes
    // here only when the session adopts it (pageAttached), already running.
    if (this.#targets.has(target.session)) return;
    if (target.type === "iframe" || target.type === "page") {
      for (const t of this.#targets.keys()) if (t.detached) this.#targets.delete(t);
      this.#targets.set(target.session, target.type);
    }
    if (this.permissions.armed) void this.permissions.install(target.session, false);
    if (target.type === "iframe" || target.type === "page") {
      for (const source of this.#initScripts) {
        target.session.send("Page.addScriptToEvaluateOnNewDocument", { source }).catch(() => {});
      }
    }
    if (!this.active) return;
    for (const p of this.#commands(ALL_GROUPS, target.type)) {
      target.session.send(p.method as never, p.params as never).catch(() => {});
    }
  }

  /**
   * Sets knobs and applies them to `pages` (the session's tabs) and the iframes seen
   * attaching. `userAgentSource` answers `Browser.getVersion` (once, when needed).
   *
   * @returns Failures per target, other than targets gone meanwhile.
   */
  async set(
    patch: Partial<EmulationState>,
    pages: readonly CdpSession[],
    userAgentSource: () => Promise<string>,
  ): Promise<string[]> {
    Object.assign(this.#state, patch);
    const groups = [...new Set(Object.keys(patch).flatMap((k) => GROUPS[k as Knob]))];
    if (groups.includes("userAgent") && this.#state.locale && !this.#defaultUserAgent) {
      this.#defaultUserAgent = await userAgentSource().catch(() => "");
    }
    const targets: EmulationTarget[] = [...this.#live(pages)];
    const failures: string[] = [];
    await Promise.all(targets.map(async (t) => {
      for (const p of this.#commands(groups, t.type)) {
        try {
          await t.session.send(p.method as never, p.params as never);
        } catch (e) {
          const text = e instanceof Error ? e.message : String(e);
          if (!t.session.detached && !ALREADY.test(text)) failures.push(`${p.method}: ${text}`);
        }
      }
    }));
    return [...new Set(failures)];
  }

  /**
   * Puts the permission prompts on the open tabs and the iframes seen attaching, for their
   * current main-frame document and every next one (new targets get them in {@link attach}).
   */
  async installPrompts(pages: readonly CdpSession[]): Promise<void> {
    await Promise.all(
      [...this.#live(pages)].map((t) => this.permissions.install(t.session, true)),
    );
  }

  /** `pages` and every target seen attaching that is still there, once each. */
  *#live(pages: readonly CdpSession[]): Generator<EmulationTarget> {
    for (const session of this.#targets.keys()) {
      if (session.detached) this.#targets.delete(session);
    }
    const seen = new Set<CdpSession>();
    for (const session of pages) {
      seen.add(session);
      yield { session, type: "page" };
    }
    for (const [session, type] of this.#targets) {
      if (!seen.has(session)) yield { session, type };
    }
  }

  /** The commands that put `groups` of the state on a target of `type`. */
  #commands(groups: Group[], type: string): { method: string; params: unknown }[] {
    const s = this.#state;
    const out: { method: string; params: unknown }[] = [];
    for (const g of groups) {
      if (g === "timezone") {
        // An empty id clears the override.
        out.push({
          method: "Emulation.setTimezoneOverride",
          params: { timezoneId: s.timezoneId ?? "" },
        });
      } else if (g === "locale") {
        out.push({
          method: "Emulation.setLocaleOverride",
          params: s.locale ? { locale: s.locale } : {},
        });
      } else if (g === "userAgent") {
        // An empty user agent (and accept language) is no override.
        out.push({
          method: "Emulation.setUserAgentOverride",
          params: {
            userAgent: s.userAgent ?? (s.locale ? this.#defaultUserAgent : ""),
            acceptLanguage: s.locale ? acceptLanguage(s.locale) : "",
          },
        });
      } else if (g === "media") {
        out.push({
          method: "Emulation.setEmulatedMedia",
          params: {
            features: [
              { name: "prefers-color-scheme", value: s.colorScheme ?? "" },
              { name: "prefers-reduced-motion", value: s.reducedMotion ?? "" },
            ],
          },
        });
      } else if (g === "geolocation") {
        const geo = s.geolocation;
        out.push(
          geo
            ? { method: "Emulation.setGeolocationOverride", params: geo }
            : { method: "Emulation.clearGeolocationOverride", params: {} },
        );
      } else if (g === "viewport" && type === "page") {
        const v = s.viewport;
        out.push(
          v
            ? {
              method: "Emulation.setDeviceMetricsOverride",
              params: {
                width: v.width,
                height: v.height,
                deviceScaleFactor: v.deviceScaleFactor ?? 0,
                mobile: v.mobile ?? false,
              },
            }
            : { method: "Emulation.clearDeviceMetricsOverride", params: {} },
        );
        if (v?.touch || this.#touched) {
          this.#touched = true;
          out.push({
            method: "Emulation.setTouchEmulationEnabled",
            params: { enabled: v?.touch === true, maxTouchPoints: 5 },
          });
        }
      }
    }
    return out;
  }
}

/**
 * The accept-language list for a locale: `de-DE` → `de-DE,de` (Chromium adds the q-values:
 * the header reads `de-DE,de;q=0.9`).
 */
export function acceptLanguage(locale: string): string {
  const base = locale.split("-")[0]!;
  return base === locale ? locale : `${locale},${base}`;
}
