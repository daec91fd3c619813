import { describe, expect, test } from "bun:test";
import { classify, looksForwarded, normaliseSubject, withoutQuoted } from "./classify.ts";
import type { MailKind } from "./types.ts";

const bySubject = (s: string, body: string[] = [], namesOrder = true): MailKind =>
  classify(s, body, namesOrder).kind;

describe("subjects", () => {
  test.each<[string, MailKind]>([
    ['Ordered: "Amazon Basics Stapler with..."', "ordered"],
    ['Ordered: 2 "solaround Acrylic Side..."', "ordered"],
    ['Fwd: Ordered: "BLACK+DECKER 2.5 Cu. Ft..."', "ordered"],
    ['Your Amazon.com order of "Sabco Dustpan Set..."', "ordered"],
    ["Your order has been placed", "ordered"],
    ['Shipped: "WOLFBOX MF50 Electric Air..." and 7 more items', "shipped"],
    ["Shipped: Now arriving early on Monday, November 28 (#000-0000000-0000000)", "shipped"],
    ["Your Amazon.com order #113-1234567-1234567 has shipped", "shipped"],
    ["Your AmazonSmile order #XXXXXXXXX has shipped", "shipped"],
    ["Your package was shipped!", "shipped"],
    ['Your Amazon.co.uk order of "30 Ft Navy Blue Party..." has been dispatched', "shipped"],
    ["Il tuo ordine Amazon.it n. 405-5236882-9395563 di 1 articolo è stato spedito", "shipped"],
    ["Out for delivery: ‘Mopeka 024-2003 Tank Pro...’", "out-for-delivery"],
    ["Out for delivery: 'PETKIT Automatic Cat...' and 1 more item", "out-for-delivery"],
    ["Arriving today: Your Amazon package", "out-for-delivery"],
    ["Delivered: 2 items | Order # 111-9196457-791234", "delivered"],
    ["Delivered: Your Amazon.com order #123-1234567-1234567", "delivered"],
    ["Your Amazon order has arrived!", "delivered"],
    ["Consegna effettuata: Il tuo ordine Amazon.it #123-4567890-1234567", "delivered"],
    ["Zugestellt: Ihre Amazon.de-Bestellung", "delivered"],
    ["Delivery update: Logitech ERGO M575 Wireless...", "delayed"],
    ["Your Amazon.com order #113-1 has been canceled", "canceled"],
    ['Successful cancellation of "Thing..." from your Amazon.com order #113-1', "canceled"],
    ["Partial item(s) cancellation from your Amazon.com order #113-1", "canceled"],
    ["Arriving Today: A one-time password is required for your Amazon delivery", "other"],
    ["Amazon.com: Sign-in attempt", "other"],
    ["Your package is ready for pickup from Amazon Hub Locker - X", "other"],
    ["You have a package to pick up at the Apartment Hub - 123456", "other"],
    ["Your refund for SAMPEEL Women's V Neck Color....", "other"],
    ["Price changes: review your upcoming delivery", "other"],
    ["Deals picked for you: up to 50% off", "other"],
  ])("%s → %s", (subject, kind) => {
    expect(bySubject(subject, [], true)).toBe(kind);
  });

  test("pickup points: collected is delivered when an order is named; ready for pickup stays other", () => {
    expect(bySubject("Your package was picked up from Amazon Hub Locker - Maple")).toBe(
      "delivered",
    );
    expect(bySubject("Amazon.de", ["Dein Paket wurde an der Packstation abgeholt."])).toBe(
      "delivered",
    );
    expect(
      bySubject("Your package was picked up by UPS", ["Your package was picked up by UPS."]),
    ).not.toBe("delivered");
    expect(bySubject("Amazon.fr", ["Votre colis a été retiré au point relais."], true)).toBe(
      "delivered",
    );
    expect(bySubject("Your package was picked up from Amazon Hub Locker - Maple", [], false)).toBe(
      "other",
    );
    expect(bySubject("Your package is ready for pickup from Amazon Hub Locker - X")).toBe("other");
    expect(
      bySubject("Amazon.com", ["Your package is ready to be picked up from Amazon Hub Locker."]),
    ).toBe("other");
  });

  test("a product name in quotes does not change the kind", () => {
    expect(bySubject('Shipped: "Pick Up Sticks Game, Refund Edition..."')).toBe("shipped");
    expect(bySubject('Ordered: "Running Late Alarm Clock..."')).toBe("ordered");
    expect(bySubject('Your Amazon.com order of "Delayed Reaction Board Game..."')).toBe("ordered");
  });

  test("normalises prefixes and padding", () => {
    expect(normaliseSubject("Fwd: RE: \u200bShipped: x")).toBe("Shipped: x");
    expect(withoutQuoted('Shipped: "a "b" c" and 1 more')).toBe("Shipped:  …  and 1 more");
  });
});

describe("bodies", () => {
  test("a generic subject is decided by the body's sentences", () => {
    const s = "Your Amazon.co.uk order #205-2169302-5352337";
    expect(bySubject(s, ["Hi Thomas,", "Your package with 1 item will be delivered today."])).toBe(
      "out-for-delivery",
    );
    expect(bySubject(s, ["Your package has been delivered!"])).toBe("delivered");
    expect(bySubject(s, ["Order Confirmation", "Hello,"])).toBe("ordered");
    expect(bySubject(s, ["Dispatch Confirmation"])).toBe("shipped");
    expect(bySubject(s, ["Your order #1 has been canceled."])).toBe("canceled");
    expect(bySubject(s, ["Your package is on the way but running late."])).toBe("delayed");
  });

  test("the 2025 progress bar alone says nothing", () => {
    const bar = ["Ordered", "Shipped", "Out for delivery", "Delivered", "Arriving today"];
    expect(bySubject("Your Amazon.com order #113-1", bar)).toBe("other");
  });

  test("a promise to ship is not a shipment", () => {
    expect(
      bySubject("", [
        "Order Confirmation",
        "Thanks for your order. We’ll let you know once your item(s) have dispatched.",
      ]),
    ).toBe("ordered");
  });

  test("body-only wording without an order number is other", () => {
    expect(bySubject("Hello", ["Thanks for your order"], false)).toBe("other");
    expect(bySubject("Hello", ["Your one-time password is", "123456"], true)).toBe("other");
  });

  test("cancellation scope", () => {
    expect(classify("Your Amazon.com order #1 has been canceled", [], true).cancelScope).toBe(
      "order",
    );
    expect(
      classify("Partial item(s) cancellation from your Amazon.com order #1", [], true).cancelScope,
    ).toBe("items");
    expect(
      classify("Canceled: order #1", ["We've canceled the following item(s) from your order"], true)
        .cancelScope,
    ).toBe("items");
    expect(classify("Shipped: x", [], true).cancelScope).toBeNull();
  });
});

describe("looksForwarded", () => {
  test("subject prefixes and body separators", () => {
    expect(looksForwarded("Fwd: Ordered: x", [])).toBe(true);
    expect(looksForwarded("FW: x", [])).toBe(true);
    expect(looksForwarded("Ordered: x", ["Hi", "---------- Forwarded message ---------"])).toBe(
      true,
    );
    expect(looksForwarded("Ordered: x", ["Begin forwarded message:"])).toBe(true);
    expect(looksForwarded("Ordered: x", ["Thanks for your order"])).toBe(false);
  });
});
