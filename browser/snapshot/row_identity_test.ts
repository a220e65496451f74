import { assertEquals } from "../../tests/_assert.ts";
import {
  identityOf,
  keepsIdentity,
  keepsValues,
  sameSkeleton,
  sameSteady,
} from "./row_identity.ts";

Deno.test("sameSkeleton: counts, times and prices tick; names of items do not", () => {
  const row = (text: string) => ({ kind: "row", text });
  assertEquals(sameSkeleton(row("Build 42 3s ago"), row("Build 42 5s ago")), true);
  assertEquals(sameSkeleton(row("Cart (3) $12.50 45%"), row("Cart (4) $13.00 50%")), true);
  assertEquals(sameSkeleton(row("Note 5/140 12:03"), row("Note 6/140 12:04")), true);
  assertEquals(sameSkeleton(row("INV-1003"), row("INV-1004")), false);
  assertEquals(sameSkeleton(row("Order #1001"), row("Order #1004")), false);
  // An item's own number (the first whole number of 3 digits or more) is not a count.
  assertEquals(sameSkeleton(row("Order 1001 Cancel"), row("Order 1011 Cancel")), false);
  assertEquals(
    sameSkeleton(row("Build 420 3s ago 1,204 views"), row("Build 420 5s ago 1,310 views")),
    true,
  );
  assertEquals(sameSkeleton(row("Alice"), { kind: "list item", text: "Alice" }), false);
  // Ended by a comma or a full stop, the number is still the item's.
  assertEquals(sameSkeleton(row("Order 1001, shipped"), row("Order 1011, shipped")), false);
  assertEquals(sameSkeleton(row("Seen 3s ago, 12:03."), row("Seen 5s ago, 12:04.")), true);
  // A long text's exact hash (`~…`) is not part of its skeleton; its skeleton's hash is.
  assertEquals(
    sameSkeleton(row("Invoice for ACME… #1x2y~3z"), row("Invoice for ACME… #1x2y~4a")),
    true,
  );
  assertEquals(
    sameSkeleton(row("Invoice for ACME… #1x2y~3z"), row("Invoice for ACME… #5b6c~3z")),
    false,
  );
  assertEquals(sameSkeleton(row("Invoice… 1001 #1x2y~3z"), row("Invoice… 1001 #1x2y~4a")), true);
});

Deno.test("identityOf / keepsIdentity: a hover may change a row around its item, not the item", () => {
  assertEquals(identityOf("Order 1001 2 days ago"), "1001");
  assertEquals(identityOf("Build 42 3s ago $1,204.00 INV-1003 #77"), "INV-1003");
  assertEquals(identityOf("Order #1001, shipped"), "#1001");
  assertEquals(identityOf("Alice 3s ago (12) 12:03 $120"), undefined);
  // A long text's hash (all digits, by chance) and the word it cut are not the row's.
  assertEquals(identityOf("Invoice for ACME Corporation INV-10… #123456"), undefined);
  // Past the shown part, the page gives the number after the cut.
  assertEquals(identityOf("Invoice for ACME Corporation retai… INV-1003 #1x2y3z"), "INV-1003");
  assertEquals(identityOf("Invoice for ACME Corporation retai… #1001 #123456"), "#1001");
  assertEquals(identityOf("Invoice for ACME Corporation retai… INV-1003 #1x2y~123"), "INV-1003");
  assertEquals(identityOf("Invoice for ACME Corporation INV-10… #123~456"), undefined);
  assertEquals(
    keepsIdentity("Invoice for ACME Corp… 1001 #1x2y3z", "Invoice for ACME Corp… 1011 #4a5b6c"),
    false,
  );
  assertEquals(
    keepsIdentity("Invoice for ACME Corp… 1001 #1x2y3z", "Invoice for ACME Corp… 1001 #4a5b6c"),
    true,
  );
  // Actions revealed, a date swapped in: the same order.
  assertEquals(keepsIdentity("Order 1001 2 days ago", "Order 1001 Nov 30, 2026 14:03"), true);
  assertEquals(keepsIdentity("Order 1001, shipped", "Order 1001 Edit Archive"), true);
  assertEquals(keepsIdentity("INV-1003 2 days ago", "INV-1003 Edit"), true);
  assertEquals(keepsIdentity("Alice 2 days ago", "Alice Edit"), true);
  // Renumbered (the node re-used for an order never shown): another item.
  assertEquals(keepsIdentity("Order 1001", "Order 1011"), false);
  assertEquals(keepsIdentity("INV-1003 2 days ago", "INV-1013 2 days ago"), false);
  assertEquals(keepsIdentity("Order #1001", "Order"), false);
  // No number: a row all of whose own words changed is another item.
  assertEquals(keepsIdentity("Alice Adams · 2d", "Erin Evans · 3d Archive"), false);
  assertEquals(keepsIdentity("Alice Adams · 2 days ago", "Alice Adams Archive Snooze"), true);
  assertEquals(keepsIdentity("12:03 $4.50", "Nov 30"), true);
});

Deno.test("steady: times and counters tick; prices, amounts and seats do not", () => {
  const row = (text: string) => ({ kind: "row", text });
  const same = (a: string, b: string) => sameSteady(row(a), row(b));
  assertEquals(same("Build 42 3s ago", "Build 42 5s ago"), true);
  assertEquals(same("Posted 3 min ago", "Posted 12 min ago"), true);
  assertEquals(same("Standup 9:41am", "Standup 9:42am"), true);
  assertEquals(same("Message 0/140", "Message 5/140"), true);
  assertEquals(same("Bio 135 characters left", "Bio 120 characters left"), true);
  assertEquals(same("Widget $10", "Widget $12"), false);
  assertEquals(same("Transfer $10 to Bob", "Transfer $99,999 to Bob"), false);
  assertEquals(same("Seat 12B", "Seat 14B"), false);
  assertEquals(same("Cart (3)", "Cart (4)"), false);
});

Deno.test("keepsValues: a hover may add words and numbers, not change a price", () => {
  assertEquals(keepsValues("Gadget $5", "Gadget $5 Edit Delete"), true);
  assertEquals(keepsValues("Note 2 days ago", "Note Dec 1, 2026"), true);
  assertEquals(keepsValues("Gadget $5", "Gadget $500"), false);
  assertEquals(keepsValues("Seat 12B", "Seat 14B Book"), false);
});
