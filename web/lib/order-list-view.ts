/**
 * The orders list's address (?status=&q=&sort=&page=&size=, docs/screens.md) and the API request
 * it makes; web/preload.ts builds the same request. Pure.
 */
import type { OrderSort, OrderStatus } from "../../src/contract/constants.ts";
import type { MessageId } from "../i18n/index.ts";
import { isOrderSort, isOrderStatus } from "./order-guards.ts";

export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type StatusFilter = OrderStatus | "all";

export type ListView = {
  status: StatusFilter;
  q: string;
  /** null: not chosen by the user (the filter's own ordering, else Newest First). */
  sort: OrderSort | null;
  page: number;
  size: number;
};

export const DEFAULT_VIEW: ListView = {
  status: "all",
  q: "",
  sort: null,
  page: 1,
  size: DEFAULT_PAGE_SIZE,
};

/**
 * The filters whose orders come in their own order unless a sort is chosen
 * (docs/behaviour.md#constants-and-limits), with the message naming it (order-status.ts shows it).
 */
export const FILTER_ORDER_LABELS: Partial<Record<OrderStatus, MessageId>> = {
  Shipped: "orders.sort.arrivingSoonest",
  Received: "orders.sort.oldestDelivery",
  "Review Submitted": "orders.sort.oldestSubmitted",
  "Review Approved": "orders.sort.newestApproved",
  "Review Rejected": "orders.sort.oldestRejected",
};

/** The message naming each sort (src/contract's ORDER_SORT_LABELS are the English ones). */
export const SORT_LABELS: Record<OrderSort, MessageId> = {
  newest: "orders.sort.newest",
  oldest: "orders.sort.oldest",
  "product-asc": "orders.sort.productAsc",
  "product-desc": "orders.sort.productDesc",
  "status-asc": "orders.sort.statusAsc",
  "value-desc": "orders.sort.valueDesc",
  "value-asc": "orders.sort.valueAsc",
};

export function hasOwnOrdering(status: StatusFilter): boolean {
  return status !== "all" && FILTER_ORDER_LABELS[status] !== undefined;
}

export function parseListView(search: string): ListView {
  const p = new URLSearchParams(search);
  const status = p.get("status");
  const sort = p.get("sort");
  const page = Number.parseInt(p.get("page") ?? "", 10);
  const size = Number.parseInt(p.get("size") ?? "", 10);
  return {
    status: isOrderStatus(status) ? status : "all",
    q: p.get("q") ?? "",
    sort: isOrderSort(sort) ? sort : null,
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** "status=Shipped&q=lamp&page=2" (defaults other than the status are left out). */
export function listViewSearch(view: ListView): string {
  const p = new URLSearchParams();
  p.set("status", view.status);
  if (view.q.trim()) p.set("q", view.q.trim());
  if (view.sort) p.set("sort", view.sort);
  if (view.page > 1) p.set("page", String(view.page));
  if (view.size !== DEFAULT_PAGE_SIZE) p.set("size", String(view.size));
  return p.toString();
}

export function listViewPath(view: ListView): string {
  return `/orders?${listViewSearch(view)}`;
}

/** GET /api/orders for this view: the sort only when chosen, paging as limit/offset. */
export function ordersApiPath(view: ListView): string {
  const p = new URLSearchParams();
  p.set("status", view.status);
  if (view.q.trim()) p.set("q", view.q.trim());
  if (view.sort) p.set("sort", view.sort);
  p.set("limit", String(view.size));
  p.set("offset", String((view.page - 1) * view.size));
  return `/api/orders?${p.toString()}`;
}
