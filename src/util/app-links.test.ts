import { describe, expect, test } from "bun:test";
import { accountPath, orderPath, reviewLink } from "./app-links.ts";

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
