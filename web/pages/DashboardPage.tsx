/**
 * The dashboard (docs/screens.md): last live update, All Orders / Add Order, six status cards, Recent
 * Orders with inline tracking edit (one card at a time), and the stat cards.
 */
import { lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import type { DashboardCounts } from "../../src/contract/dashboard.ts";
import { MailboxStatusBadge } from "../components/mailbox/MailboxStatusBadge.tsx";
import { OrderCard } from "../components/orders/OrderCard.tsx";
import { ShippedRefreshButton } from "../components/orders/TrackingButtons.tsx";
import { useNow } from "../components/orders/useNow.ts";
import {
  useDashboardCounts,
  useDashboardRecent,
  useDashboardStats,
} from "../hooks/useDashboard.ts";
import { useLastLiveUpdate, useLiveConnectionState } from "../hooks/useLiveEvents.ts";
import { useMailboxStatus } from "../hooks/useMailbox.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { useUserData } from "../hooks/useUser.ts";
import { useAuth } from "../lib/auth.tsx";
import { formatMoney, formatRelativeTime } from "../lib/format.ts";
import { STATUS_SUBTITLES } from "../lib/order-status.ts";
import { dashboardKeys } from "../lib/query-keys.ts";
import type { Prime } from "../routes.ts";
import "../styles/dashboard.css";
import { LoadFailed } from "../components/LoadFailed.tsx";

// The reconnect / retry offer shows only while the mailbox is disconnected or polling.
const ReconnectOffer = lazy(() =>
  import("../components/mailbox/ReconnectOffer.tsx").then((m) => ({ default: m.ReconnectOffer })),
);

// The Vine card loads after the first screen (its hooks are shared with the lazy Vine page).
const VineCard = lazy(() =>
  import("../components/vine/VineCard.tsx").then((m) => ({ default: m.VineCard })),
);

/** The six status cards (the other keys of the counts are figures shown on them). */
type CardStatus = Exclude<keyof DashboardCounts, "OrderedToday" | "ShippedLate" | "Reviews">;
const CARD_STATUSES: CardStatus[] = [
  "Ordered",
  "Shipped",
  "Received",
  "Review Submitted",
  "Review Rejected",
  "Review Approved",
];

/**
 * When the dashboard's data was last refreshed: the later of the last live event and the last
 * successful load of its figures (so it never reads as stuck while the stream is quiet); null
 * before the first load.
 */
function useLastRefresh(): Date | null {
  const live = useLastLiveUpdate();
  const loaded = Math.max(
    useDashboardCounts().dataUpdatedAt,
    useDashboardRecent().dataUpdatedAt,
    useDashboardStats().dataUpdatedAt,
  );
  const at = Math.max(live?.getTime() ?? 0, loaded);
  return at > 0 ? new Date(at) : null;
}

/** "Last update: Just now", and whether live updates are on (words, not only a colour). */
function LastUpdate({ timeZone }: { timeZone: string }) {
  const now = useNow(15_000);
  const lastUpdate = useLastRefresh();
  const live = useLiveConnectionState();
  const liveText =
    live === "connected"
      ? "live updates on"
      : live === "reconnecting"
        ? "reconnecting live updates"
        : live === "stopped"
          ? "live updates stopped"
          : null;
  return (
    <p className="last-update" aria-live="off">
      {lastUpdate
        ? `Last update: ${formatRelativeTime(lastUpdate, now, timeZone)}`
        : "Loading your orders…"}
      {liveText && <span className="live-state"> · {liveText}</span>}
    </p>
  );
}

/** The dashboard's figures before the first render (web/pages.ts). */
export const prime: Prime = (queryClient) =>
  Promise.all(
    [dashboardKeys.counts(), dashboardKeys.recent(), dashboardKeys.stats()].map((queryKey) =>
      queryClient.prefetchQuery({ queryKey }),
    ),
  );

export function DashboardPage() {
  const timeZone = useTimeZone();
  const now = useNow();
  const { user } = useAuth();
  const { data } = useUserData();

  return (
    <main className="container dashboard">
      <div className="page-head">
        <hgroup>
          <h1>Dashboard</h1>
          <p>Welcome, {data?.displayname ?? user?.displayname}.</p>
          <LastUpdate timeZone={timeZone} />
        </hgroup>
        <div className="button-row">
          <Link href="/orders?status=all" className="button-link outline-primary">
            All Orders
          </Link>
          <Link href="/orders/new" className="button-link primary">
            Add Order
          </Link>
        </div>
      </div>
      <StatusCards />
      <RecentOrders timeZone={timeZone} now={now} />
      <StatCards timeZone={timeZone} now={now} />
    </main>
  );
}

function StatusCards() {
  const { data: counts, isLoading } = useDashboardCounts();
  const today = counts?.OrderedToday ?? 0;
  const late = counts?.ShippedLate ?? 0;
  return (
    <section aria-label="Orders by status" className="status-cards">
      {CARD_STATUSES.map((status) => {
        const card = (
          <Link
            key={status}
            href={`/orders?status=${encodeURIComponent(status)}`}
            className={`status-card status-card-${status.toLowerCase().replace(/\s+/g, "-")}`}
            aria-label={`${status}: ${counts ? counts[status] : "…"}, ${STATUS_SUBTITLES[status]}${
              status === "Ordered" && today > 0 ? `, ${today} ordered today` : ""
            }${status === "Shipped" && late > 0 ? `, ${late} late` : ""}`}
          >
            <span className="status-card-title">{status}</span>
            <span className="status-card-count" aria-busy={isLoading || undefined}>
              {counts ? counts[status] : "–"}
            </span>
            <span className="status-card-subtitle">
              {STATUS_SUBTITLES[status]}
              {status === "Ordered" && today > 0 && (
                <span className="today-badge">{today} ordered today</span>
              )}
              {status === "Shipped" && late > 0 && (
                <span
                  className="today-badge late-count"
                  title="Shipped orders whose expected delivery day has passed"
                >
                  {late} late
                </span>
              )}
            </span>
          </Link>
        );
        // The refresh sits beside the link, not inside it (no button within a link).
        return status === "Shipped" && (counts?.Shipped ?? 0) > 0 ? (
          <div key={status} className="status-card-wrap">
            {card}
            <ShippedRefreshButton />
          </div>
        ) : (
          card
        );
      })}
    </section>
  );
}

function RecentOrders({ timeZone, now }: { timeZone: string; now: Date }) {
  const { data, isLoading, isError, refetch } = useDashboardRecent();
  const marketplace = useUserData().data?.vineMarketplace;
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <section aria-labelledby="recent-orders" className="recent-orders">
      <h2 id="recent-orders">Recent Orders</h2>
      {isLoading ? (
        <div
          className="order-grid"
          role="status"
          aria-busy="true"
          aria-label="Loading recent orders"
        >
          <div className="skeleton-card" />
          <div className="skeleton-card" />
        </div>
      ) : isError ? (
        <LoadFailed message="Recent orders could not be loaded." onRetry={refetch} />
      ) : !data?.length ? (
        <article className="empty-state">
          <h3>No orders found</h3>
          <p>Orders appear here once they're tracked, or when you add one by hand.</p>
        </article>
      ) : (
        <div className="order-grid">
          {data.map((order) => (
            <OrderCard
              key={order.orderid}
              order={order}
              timeZone={timeZone}
              now={now}
              marketplace={marketplace}
              from="/"
              mode="tracking"
              editing={editing === order.orderid}
              blocked={editing !== null && editing !== order.orderid}
              onEdit={() => setEditing(order.orderid)}
              onEditDone={() => setEditing((id) => (id === order.orderid ? null : id))}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function StatCards({ timeZone, now }: { timeZone: string; now: Date }) {
  const { data: stats } = useDashboardStats();
  const items: { title: string; value: string; sub: string; more?: string }[] = [
    {
      title: "This Month",
      value: stats ? String(stats.monthlyOrders) : "–",
      sub: "orders received",
    },
    {
      title: "Average Value",
      value: stats ? formatMoney(stats.averageValue, stats.currency) : "–",
      sub: "per order",
      // Orders in other currencies: their own averages (the first is the one above), never added.
      more: stats?.averages
        .slice(1)
        .map((a) => formatMoney(a.averageValue, a.currency))
        .join(" · "),
    },
    {
      title: "Review Rate",
      value: stats ? `${Math.round(stats.reviewRate)}%` : "–",
      sub: "orders reviewed",
      more: "of every order you received, any time",
    },
  ];
  return (
    <section aria-label="Statistics" className="stat-cards">
      {items.map((s) => (
        <article key={s.title} className="stat-card">
          <h3>{s.title}</h3>
          <p className="stat-value">{s.value}</p>
          <p className="stat-sub">{s.sub}</p>
          {s.more && <p className="stat-sub">{s.more}</p>}
        </article>
      ))}
      <ReviewsDueCard />
      <Suspense fallback={<article className="stat-card" aria-busy="true" />}>
        <VineCard />
      </Suspense>
      <EmailsScannedCard timeZone={timeZone} now={now} />
    </section>
  );
}

/**
 * Reviews due this week and overdue, by the reminder days (src/contract/dashboard.ts `Reviews`);
 * each count opens the orders waiting for a review.
 */
function ReviewsDueCard() {
  const { data: counts } = useDashboardCounts();
  const r = counts?.Reviews;
  return (
    <article className="stat-card reviews-due-card">
      <h3>
        <Link href={`/orders?status=${encodeURIComponent("Received")}`}>Reviews Due</Link>
      </h3>
      <p className="stat-value">{r ? r.dueThisWeek : "–"}</p>
      <p className="stat-sub">this week</p>
      <p className="stat-sub">
        {r ? (
          r.overdue > 0 ? (
            <strong className="overdue-count">{r.overdue} overdue</strong>
          ) : (
            "none overdue"
          )
        ) : (
          "…"
        )}
      </p>
      {r && (
        <p className="stat-sub muted">
          Due {r.dueAfterDays} days after delivery, overdue after {r.overdueAfterDays} (rewrites:{" "}
          {r.rewriteDueAfterDays} and {r.rewriteOverdueAfterDays} days after a rejection), as the
          reminders count.
        </p>
      )}
    </article>
  );
}

/** Emails Scanned: the count, the mailbox status badge, the last processed time and the offers. */
function EmailsScannedCard({ timeZone, now }: { timeZone: string; now: Date }) {
  const { data: user } = useUserData();
  const settings = user?.emailSettings ?? null;
  const connected = settings?.isConnected === true;
  const { data: status } = useMailboxStatus(connected);
  const expired = !!settings && !connected && settings.accessToken === null;
  const scanned = status?.emailsScanned ?? user?.emailsscanned ?? 0;
  const last = status?.lastProcessedTime ?? user?.lastprocessedtime ?? null;
  return (
    <>
      <article className="stat-card emails-scanned-card">
        <h3>Emails Scanned</h3>
        <p className="stat-value">{user ? scanned : "–"}</p>
        {connected || expired ? (
          <>
            <p className="stat-sub">
              <MailboxStatusBadge state={expired ? "expired" : (status?.status ?? "unknown")} />
            </p>
            <p className="stat-sub">Last processed: {formatRelativeTime(last, now, timeZone)}</p>
            {expired && <Link href="/account?tab=email">Reconnect your mailbox</Link>}
          </>
        ) : (
          <p className="stat-sub">
            <Link href="/account?tab=email">Connect your mailbox</Link>
          </p>
        )}
      </article>
      {/* Below the four cards, across the grid, so the cards keep one height. */}
      {(status?.status === "disconnected" || status?.status === "polling") && (
        <Suspense fallback={null}>
          <ReconnectOffer status={status} timeZone={timeZone} />
        </Suspense>
      )}
    </>
  );
}
