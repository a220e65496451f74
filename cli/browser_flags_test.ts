/** `policyLaunchArgs`: the switches the policy needs of a launched Chromium (red team s14 #4). */
import { assertEquals } from "../tests/_assert.ts";
import { policyLaunchArgs } from "./browser_flags.ts";

const NO_UDP = ["--webrtc-ip-handling-policy=disable_non_proxied_udp"];
const store = (n: number) => ({ bound: () => Array.from({ length: n }, () => ({})) });

Deno.test("policyLaunchArgs: WebRTC's non-proxied UDP off with bound secrets or an allowlist", () => {
  assertEquals(policyLaunchArgs({}), []);
  assertEquals(policyLaunchArgs({ secrets: store(0), allowedOrigins: [] }), []);
  assertEquals(policyLaunchArgs({ secrets: store(1) }), NO_UDP);
  assertEquals(policyLaunchArgs({ allowedOrigins: ["x"] }), NO_UDP);
});
