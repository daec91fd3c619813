/**
 * Paths of the web app's screens in links the server writes: notifications in the bell (as HTML
 * links) and alerts (the push's click target, ntfy's `click`, the webhook's `url`).
 */

/**
 * Edit Order of an order; `from` is the page its Back button returns to (a path on this site,
 * "/" for the dashboard), `section: "review"` opens the review part.
 */
export function orderPath(orderId: number, opts: { from?: string; section?: "review" } = {}) {
  const query = [
    opts.from !== undefined ? `from=${encodeURIComponent(opts.from).replace(/%2F/gi, "/")}` : "",
    opts.section ? `section=${opts.section}` : "",
  ]
    .filter(Boolean)
    .join("&");
  return `/orders/${orderId}/edit${query ? `?${query}` : ""}`;
}

/** A notification's link to write or rewrite the order's review, back to the dashboard. */
export const reviewLink = (orderId: number) => orderPath(orderId, { from: "/", section: "review" });

/** Account Settings on one tab. */
export const accountPath = (tab: string) => `/account?tab=${tab}`;
