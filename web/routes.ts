/**
 * The app's routes, written once (docs/CODEMAP.md#screens). `web/App.tsx` renders them,
 * `web/preload.ts` starts each route's page chunk and first requests before the app's bundle has
 * run, and `scripts/build-web.ts` finds each page's chunk by its page name. Plain data and pure
 * functions: the early script bundles this file, so it must not import React or a page.
 * Patterns are wouter's (regexparam, the parser wouter itself uses), so a path matches here exactly
 * when it matches in the router.
 */
import type { QueryClient } from "@tanstack/react-query";
import { parse } from "regexparam";
import { ordersApiPath, parseListView } from "./lib/order-list-view.ts";

/** A page module's name: `web/pages/<page>.tsx`, exporting a component of the same name. */
export type PageName =
  | "LoginPage"
  | "PrivacyPolicyPage"
  | "DashboardPage"
  | "OrdersPage"
  | "AddOrderPage"
  | "EditOrderPage"
  | "AccountPage"
  | "VinePage"
  | "AdminLogsPage";

/** Fills the query cache with a page's first render's data (a page module's `prime` export). */
export type Prime = (queryClient: QueryClient, search: string) => Promise<unknown>;

export type RouteDef = {
  path: string;
  page: PageName;
  /** Who may see it: anyone, a signed-in user (others go to sign-in), or the sign-in page itself. */
  access: "public" | "signed-in" | "sign-in";
  /** The GETs the page's first render makes (its query keys are these paths). */
  requests?: (params: Record<string, string | undefined>, search: string) => string[];
  /**
   * Drawn by the server too (GET /api/first-screen, web/server-render.tsx): shown until the app's
   * own first render. For the pages whose first render has its data (their module's `prime`).
   */
  serverRendered?: true;
};

export const ROUTES: readonly RouteDef[] = [
  { path: "/login", page: "LoginPage", access: "sign-in" },
  { path: "/privacy-policy", page: "PrivacyPolicyPage", access: "public" },
  {
    path: "/",
    page: "DashboardPage",
    access: "signed-in",
    // dashboardKeys in web/lib/query-keys.ts
    requests: () => ["/api/dashboard/counts", "/api/dashboard/recent", "/api/dashboard/stats"],
    serverRendered: true,
  },
  {
    path: "/orders",
    page: "OrdersPage",
    access: "signed-in",
    requests: (_, search) => [ordersApiPath(parseListView(search))],
    serverRendered: true,
  },
  { path: "/orders/new", page: "AddOrderPage", access: "signed-in" },
  {
    path: "/orders/:id/edit",
    page: "EditOrderPage",
    access: "signed-in",
    // Only an order number is asked for: anything else is the page's own "not found".
    requests: ({ id }) => (id && /^\d+$/.test(id) ? [`/api/orders/${id}`] : []),
  },
  { path: "/account", page: "AccountPage", access: "signed-in" },
  { path: "/vine", page: "VinePage", access: "signed-in", requests: () => ["/api/vine/standing"] },
  { path: "/admin/logs", page: "AdminLogsPage", access: "signed-in" },
];

const compiled = ROUTES.map((route) => ({ route, ...parse(route.path) }));

/** The route a path shows and its parameters; null for the not-found page. */
export function matchRoute(
  pathname: string,
): { route: RouteDef; params: Record<string, string | undefined> } | null {
  for (const { route, pattern, keys } of compiled) {
    const m = pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string | undefined> = {};
    keys.forEach((key, i) => {
      params[key] = m[i + 1];
    });
    return { route, params };
  }
  return null;
}

/** The GETs the first render of this address makes. */
export function firstRequests(pathname: string, search: string): string[] {
  const match = matchRoute(pathname);
  return match?.route.requests?.(match.params, search) ?? [];
}
