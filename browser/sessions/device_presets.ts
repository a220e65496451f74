/**
 * Device presets for `--device` (the names @playwright/mcp users know): the viewport in CSS
 * px, the device pixel ratio, mobile layout, touch, and the user agent the device sends.
 *
 * @module
 */

/** One device preset. */
export interface DevicePreset {
  /** CSS px. */
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
  touch: boolean;
  userAgent: string;
}

const IOS_17 = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 " +
  "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const IPAD = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 " +
  "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const android = (model: string) =>
  `Mozilla/5.0 (Linux; Android 14; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) ` +
  "Chrome/131.0.0.0 Mobile Safari/537.36";

/** The presets, by name (matched without regard to case). */
export const DEVICE_PRESETS: Readonly<Record<string, DevicePreset>> = {
  "iPhone 15": phone(393, 659, 3, IOS_17),
  "iPhone 15 Pro": phone(393, 659, 3, IOS_17),
  "iPhone 15 Pro Max": phone(430, 739, 3, IOS_17),
  "iPhone 14": phone(390, 664, 3, IOS_17),
  "iPhone SE": phone(320, 568, 2, IOS_17),
  "iPad Mini": { ...phone(768, 1024, 2, IPAD) },
  "iPad Pro 11": { ...phone(834, 1194, 2, IPAD) },
  "Pixel 7": phone(412, 839, 2.625, android("Pixel 7")),
  "Pixel 5": phone(393, 727, 2.75, android("Pixel 5")),
  "Galaxy S9+": phone(320, 658, 4.5, android("SM-G965U")),
  "Desktop Chrome": {
    width: 1280,
    height: 720,
    deviceScaleFactor: 1,
    mobile: false,
    touch: false,
    userAgent: "",
  },
};

function phone(width: number, height: number, dpr: number, userAgent: string): DevicePreset {
  return { width, height, deviceScaleFactor: dpr, mobile: true, touch: true, userAgent };
}

/** The preset named `name` (any case), or undefined. An empty `userAgent`: the browser's own. */
export function devicePreset(name: string): DevicePreset | undefined {
  const key = Object.keys(DEVICE_PRESETS).find((k) =>
    k.toLowerCase() === name.trim().toLowerCase()
  );
  return key === undefined ? undefined : DEVICE_PRESETS[key];
}
