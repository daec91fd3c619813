/**
 * The orders list (docs/screens.md, docs/behaviour.md#constants-and-limits). Status filter, search, sort, page and page size live in the
 * address (?status=&q=&sort=&page=&size=), so the edit screen's `from` returns to the same view.
 * Filtering, search, sorting and paging happen on the server (GET /api/orders + X-Total-Count).
 */
import { lazy, Suspense, startTransition, useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ORDER_SORTS, ORDER_STATUSES } from "../../src/contract/constants.ts";
import { OrderCard } from "../components/orders/OrderCard.tsx";
import { Pagination } from "../components/orders/Pagination.tsx";
import { useNow } from "../components/orders/useNow.ts";
import { useDashboardCounts } from "../hooks/useDashboard.ts";
import { orderListQuery, useOrderList } from "../hooks/useOrders.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { useUpdateAllTracking } from "../hooks/useTracking.ts";
import { useUserData } from "../hooks/useUser.ts";
import { useT } from "../i18n/index.ts";
import { host } from "../lib/host.ts";
import { firstCardCount } from "../lib/order-list-first.ts";
import {
  hasOwnOrdering,
  type ListView,
  listViewPath,
  parseListView,
  SEARCH_DEBOUNCE_MS,
} from "../lib/order-list-view.ts";
import {
  filterOrderLabel,
  isOrderSort,
  isOrderStatus,
  sortLabel,
  statusLabel,
} from "../lib/order-status.ts";
import { totalPages } from "../lib/pagination.ts";
import type { Prime } from "../routes.ts";
import "../styles/orders.css";

// "Shipped, not tracked" orders and Mark all delivered: loaded after the list.
const UntrackedShipments = lazy(() =>
  import("../components/orders/MarkDelivered.tsx").then((m) => ({
    default: m.UntrackedShipments,
  })),
);

/** The list's first page before the first render (web/pages.ts). */
export const prime: Prime = (queryClient, search) =>
  queryClient.prefetchQuery(orderListQuery(parseListView(search)));

/** Whether this page has been drawn since the app started (see cardLimit below). */
let listDrawnBefore = false;

export function OrdersPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const view = parseListView(search);
  const here = listViewPath(view);
  const timeZone = useTimeZone();
  const now = useNow();
  const marketplace = useUserData().data?.vineMarketplace;
  const { data, isLoading, isError, isPlaceholderData, refetch } = useOrderList(view);
  const [editing, setEditing] = useState<number | null>(null);
  const t = useT();
  // On the app's first screen, the first render draws the cards the screen shows
  // (web/lib/order-list-first.ts); the rest and the pagination below them come in a transition
  // once those are on screen. Later visits (back from an order) draw the whole list at once, so
  // the browser can put the scroll position back where it was.
  const [cardLimit, setCardLimit] = useState(() =>
    listDrawnBefore ? Number.POSITIVE_INFINITY : firstCardCount(host().viewport()),
  );
  const restDrawn = cardLimit === Number.POSITIVE_INFINITY;
  useEffect(() => {
    listDrawnBefore = true;
    startTransition(() => setCardLimit(Number.POSITIVE_INFINITY));
  }, []);

  const go = (next: Partial<ListView>, replace = false) =>
    navigate(listViewPath({ ...view, ...next }), { replace });
  // Effects below read the latest view without restarting on every render.
  const latest = useRef({ view, go });
  latest.current = { view, go };

  // The search box follows the address, and the address follows typing after a 300 ms pause.
  const [query, setQuery] = useState(view.q);
  useEffect(() => setQuery(view.q), [view.q]);
  useEffect(() => {
    if (query.trim() === latest.current.view.q.trim()) return;
    const t = setTimeout(() => latest.current.go({ q: query, page: 1 }, true), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);

  // A page past the end (after orders left the filter): show the last page instead.
  const total = data?.total ?? 0;
  const pages = totalPages(total, view.size);
  const pastEnd = Boolean(data) && !isPlaceholderData && view.page > pages;
  useEffect(() => {
    if (pastEnd) latest.current.go({ page: pages }, true);
  }, [pastEnd, pages]);

  const filtersActive = view.status !== "all" || view.q.trim() !== "";
  const ownOrder = hasOwnOrdering(view.status);
  const sortValue = view.sort ?? (ownOrder ? "" : "newest");

  return (
    <main className="container orders-page">
      <div className="page-head">
        <hgroup>
          <h1>{t("orders.title")}</h1>
          <p>
            {t("orders.subtitle")}
            {view.status === "Shipped" && <ShippedCount />}
          </p>
        </hgroup>
        <div className="button-row">
          {view.status === "Shipped" && (data?.orders.length ?? 0) > 0 && <UpdateAllTracking />}
          <Link
            href={`/orders/new?from=${encodeURIComponent(here)}`}
            className="button-link primary"
          >
            {t("orders.addOrder")}
          </Link>
        </div>
      </div>

      <search className="orders-toolbar">
        <input
          type="search"
          aria-label={t("orders.search")}
          placeholder={t("orders.searchPlaceholder")}
          title={t("orders.searchTitle")}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <select
          aria-label={t("orders.statusFilter")}
          value={view.status}
          onChange={(e) => {
            const v = e.currentTarget.value;
            go({ status: isOrderStatus(v) ? v : "all", page: 1 });
          }}
        >
          <option value="all">{t("orders.allOrders")}</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
        <select
          aria-label={t("orders.sort")}
          value={sortValue}
          onChange={(e) => {
            const v = e.currentTarget.value;
            // Newest First is the plain default: only a different choice goes in the address.
            const sort = isOrderSort(v) && !(v === "newest" && !ownOrder) ? v : null;
            go({ sort, page: 1 });
          }}
        >
          {ownOrder && view.status !== "all" && (
            <option value="">{filterOrderLabel(view.status)}</option>
          )}
          {ORDER_SORTS.map((s) => (
            <option key={s} value={s}>
              {sortLabel(s)}
            </option>
          ))}
        </select>
      </search>

      {/* With the rest of the list: its code and its query are not needed for the first cards. */}
      {restDrawn && (view.status === "Shipped" || view.status === "all") && (
        <Suspense fallback={null}>
          <UntrackedShipments />
        </Suspense>
      )}

      {isLoading ? (
        <div className="order-list" role="status" aria-busy="true" aria-label={t("orders.loading")}>
          <div className="skeleton-card" />
          <div className="skeleton-card" />
          <div className="skeleton-card" />
        </div>
      ) : isError ? (
        <article className="empty-state">
          <h2>{t("orders.loadFailed")}</h2>
          <button type="button" className="outline" onClick={() => void refetch()}>
            {t("common.tryAgain")}
          </button>
        </article>
      ) : !data?.orders.length ? (
        <article className="empty-state">
          <h2>{t("orders.noneFound")}</h2>
          <p>{filtersActive ? t("orders.noneMatch") : t("orders.emptyHint")}</p>
        </article>
      ) : (
        <>
          <section
            className="order-list"
            aria-label={t("orders.list")}
            aria-busy={isPlaceholderData || undefined}
          >
            {data.orders.slice(0, cardLimit).map((order) => (
              <OrderCard
                key={order.orderid}
                order={order}
                timeZone={timeZone}
                now={now}
                marketplace={marketplace}
                from={here}
                filter={view.status}
                mode="status"
                editing={editing === order.orderid}
                blocked={editing !== null && editing !== order.orderid}
                onEdit={() => setEditing(order.orderid)}
                onEditDone={() => setEditing((id) => (id === order.orderid ? null : id))}
              />
            ))}
          </section>
          {cardLimit >= data.orders.length && (
            <Pagination
              page={Math.min(view.page, pages)}
              size={view.size}
              total={total}
              onPage={(page) => {
                go({ page });
                window.scrollTo({ top: 0 });
              }}
              onSize={(size) => go({ size, page: 1 })}
            />
          )}
        </>
      )}
    </main>
  );
}

/** docs/screens.md: only under the Shipped filter when it has results. */
function UpdateAllTracking() {
  const update = useUpdateAllTracking();
  const t = useT();
  return (
    <button
      type="button"
      className="outline"
      disabled={update.isPending}
      aria-busy={update.isPending || undefined}
      onClick={() => update.mutate()}
    >
      {t("tracking.updateAll")}
    </button>
  );
}

function ShippedCount() {
  const { data } = useDashboardCounts();
  const t = useT();
  if (!data) return null;
  return (
    <span className="shipped-count"> · {t("orders.shippedCount", { count: data.Shipped })}</span>
  );
}
