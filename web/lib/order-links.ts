/** Links between the order screens: to Edit Order and back to where it was opened from. Pure. */

/**
 * The page to return to after the edit screen: a path on this site only ("/…", not "//host"),
 * else the fallback.
 */
export function safeFrom(from: string | null | undefined, fallback = "/orders?status=all"): string {
  if (!from?.startsWith("/") || from.startsWith("//") || from.startsWith("/\\")) {
    return fallback;
  }
  return from;
}

/** The page `from` names, for the messages that say where a link goes back to ("Back to …"). */
export type FromPage = "dashboard" | "orders" | "vine";
export function fromPage(from: string): FromPage {
  const path = from.split("?")[0];
  if (path === "/vine") return "vine";
  return path === "/" || path === "" ? "dashboard" : "orders";
}

/** "Dashboard" when `from` is the dashboard, "Vine" for the Vine page, else "Order List". */
export function fromLabel(from: string): "Dashboard" | "Order List" | "Vine" {
  const page = fromPage(from);
  return page === "vine" ? "Vine" : page === "dashboard" ? "Dashboard" : "Order List";
}

export function editOrderPath(orderid: number, from: string, section?: "review"): string {
  const p = new URLSearchParams({ from });
  if (section) p.set("section", section);
  return `/orders/${orderid}/edit?${p.toString()}`;
}
