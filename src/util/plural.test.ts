import { describe, expect, test } from "bun:test";
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
