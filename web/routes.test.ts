import { describe, expect, test } from "bun:test";
import { parse } from "regexparam";
import { matchRoute as wouterMatch } from "wouter";
import { firstRequests, matchRoute, ROUTES } from "./routes.ts";

const PATHS = [
  "/",
  "/login",
  "/orders",
  "/orders/",
  "/orders/new",
  "/orders/12/edit",
  "/orders/abc/edit",
  "/orders/12",
  "/account",
  "/vine",
  "/admin/logs",
  "/privacy-policy",
  "/nowhere",
];

describe("the route table", () => {
  test("a path shows the page the router shows (same patterns, same parser as wouter)", () => {
    for (const pathname of PATHS) {
      const router = ROUTES.find((r) => wouterMatch(parse, r.path, pathname)[0]);
      expect(matchRoute(pathname)?.route.page ?? null).toBe(router?.page ?? null);
    }
    expect(matchRoute("/orders/new")?.route.page).toBe("AddOrderPage");
    expect(matchRoute("/orders/12/edit")?.params.id).toBe("12");
    expect(matchRoute("/nowhere")).toBeNull();
  });

  test("each route's first requests are the GETs its screen makes", () => {
    expect(firstRequests("/orders", "?status=Shipped")[0]).toStartWith(
      "/api/orders?status=Shipped",
    );
    expect(firstRequests("/", "")).toEqual([
      "/api/dashboard/counts",
      "/api/dashboard/recent",
      "/api/dashboard/stats",
    ]);
    expect(firstRequests("/orders/12/edit", "")).toEqual(["/api/orders/12"]);
    // Not an order number: nothing is asked for (the page says it is not found).
    expect(firstRequests("/orders/abc/edit", "")).toEqual([]);
    expect(firstRequests("/account", "")).toEqual([]);
    expect(firstRequests("/nowhere", "")).toEqual([]);
  });

  test("every path is written once", () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
