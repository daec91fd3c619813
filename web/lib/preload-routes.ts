/**
 * Which requests a route's first screen makes, so web/preload.ts can start them before the app's
 * bundle has run. The paths are built by the same functions the screens use (the query keys are
 * request paths), so a preloaded answer is exactly the one the screen asks for.
 */
import { ordersApiPath, parseListView } from "./order-list-view.ts";

/** The dashboard's first queries (dashboardKeys in web/lib/query-keys.ts). */
export const dashboardPreloadPaths = [
  "/api/dashboard/counts",
  "/api/dashboard/recent",
  "/api/dashboard/stats",
] as const;

/** The lazy page of a path (its chunk's name) and the GETs its first render makes. */
export function preloadRoute(
  pathname: string,
  search: string,
): { page: string | null; paths: string[] } | null {
  if (pathname === "/orders") {
    return { page: "OrdersPage", paths: [ordersApiPath(parseListView(search))] };
  }
  const edit = /^\/orders\/(\d+)\/edit$/.exec(pathname);
  if (edit) return { page: "EditOrderPage", paths: [`/api/orders/${edit[1]}`] };
  if (pathname === "/orders/new") return { page: "AddOrderPage", paths: [] };
  if (pathname === "/account") return { page: "AccountPage", paths: [] };
  if (pathname === "/admin/logs") return { page: "AdminLogsPage", paths: [] };
  if (pathname === "/vine") return { page: "VinePage", paths: ["/api/vine/standing"] };
  return null;
}
