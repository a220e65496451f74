import { assertEquals, assertThrows } from "../../tests/_assert.ts";
import { WorkspaceAreas } from "./areas.ts";

Deno.test("WorkspaceAreas: stdio keeps shared places, artifacts per instance", () => {
  const a = new WorkspaceAreas({ instance: "i1-ab" });
  assertEquals(
    [a.own, a.artifacts("s"), a.authStates(false), a.profile("p")],
    ["", ".artifacts/i1-ab/s", ".auth-states", "profiles/p"],
  );
  assertEquals(new WorkspaceAreas().instance === new WorkspaceAreas().instance, false);
});

Deno.test("WorkspaceAreas: an HTTP client has its own area; shared auth on request", () => {
  const a = new WorkspaceAreas({ namespace: "n1" });
  assertEquals(
    [a.own, a.artifacts("s"), a.authStates(false), a.authStates(true), a.profile("p")],
    [
      ".clients/n1",
      ".clients/n1/artifacts/s",
      ".clients/n1/auth-states",
      ".auth-states",
      ".clients/n1/profiles/p",
    ],
  );
  assertEquals(a.reserved.includes(".clients/n1/profiles"), true);
  for (const bad of ["", "../x", "a/b", ".hidden", "x".repeat(65)]) {
    assertThrows(() => new WorkspaceAreas({ namespace: bad }), RangeError);
  }
});
