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

/** "Dashboard" when `from` is the dashboard, "Vine" for the Vine page, else "Order List". */
export function fromLabel(from: string): "Dashboard" | "Order List" | "Vine" {
  const path = from.split("?")[0];
  if (path === "/vine") return "Vine";
  return path === "/" || path === "" ? "Dashboard" : "Order List";
}

export function editOrderPath(orderid: number, from: string, section?: "review"): string {
  const p = new URLSearchParams({ from });
  if (section) p.set("section", section);
  return `/orders/${orderid}/edit?${p.toString()}`;
}
