import { describe, expect, test } from "bun:test";
import { accountPath, orderPath, reviewLink } from "./app-links.ts";
import { plural, pluralForm } from "./plural.ts";

describe("plural", () => {
  const orders = { one: "order", other: "orders" };
  test("one for exactly 1, other for 0, many and fractions", () => {
    expect(plural(1, orders)).toBe("1 order");
    expect(plural(0, orders)).toBe("0 orders");
    expect(plural(2, orders)).toBe("2 orders");
    expect(plural(1000, orders)).toBe("1000 orders");
    expect(plural(1.5, orders)).toBe("1.5 orders");
    expect(pluralForm(1, { one: "was", other: "were" })).toBe("was");
    expect(pluralForm(4, { one: "was", other: "were" })).toBe("were");
  });
  test("a category the forms do not name falls back to other", () => {
    expect(plural(1, { other: "sheep" })).toBe("1 sheep");
  });
});

describe("app links", () => {
  test("Edit Order, with where Back returns to and the review section", () => {
    expect(orderPath(7)).toBe("/orders/7/edit");
    expect(orderPath(7, { from: "/" })).toBe("/orders/7/edit?from=/");
    expect(reviewLink(7)).toBe("/orders/7/edit?from=/&section=review");
    expect(orderPath(7, { from: "/orders?status=all" })).toBe(
      "/orders/7/edit?from=/orders%3Fstatus%3Dall",
    );
    expect(new URL(`http://x${orderPath(7, { from: "/a?b=c&d" })}`).searchParams.get("from")).toBe(
      "/a?b=c&d",
    );
  });
  test("Account Settings on a tab", () => {
    expect(accountPath("alerts")).toBe("/account?tab=alerts");
  });
});
