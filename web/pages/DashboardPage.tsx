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
import { intlLocale, useT } from "../i18n/index.ts";
import { useAuth } from "../lib/auth.tsx";
import { formatMoney, formatRelativeTime } from "../lib/format.ts";
import { statusLabel, statusSubtitle } from "../lib/order-status.ts";
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
  const t = useT();
  const liveText =
    live === "connected"
      ? t("dashboard.liveOn")
      : live === "reconnecting"
        ? t("dashboard.liveReconnecting")
        : live === "stopped"
          ? t("dashboard.liveStopped")
          : null;
  return (
    <p className="last-update" aria-live="off">
      {lastUpdate
        ? t("dashboard.lastUpdate", { time: formatRelativeTime(lastUpdate, now, timeZone) })
        : t("dashboard.loadingOrders")}
      {liveText && <span className="live-state"> · {liveText}</span>}
    </p>
  );
}

/** "87%" in the reader's way of writing a percentage ("87 %" in German and French). */
function percent(rate: number): string {
  return new Intl.NumberFormat(intlLocale(), { style: "percent", maximumFractionDigits: 0 }).format(
    Math.round(rate) / 100,
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
  const t = useT();

  return (
    <main className="container dashboard">
      <div className="page-head">
        <hgroup>
          <h1>{t("dashboard.title")}</h1>
          <p>{t("dashboard.welcome", { name: data?.displayname ?? user?.displayname ?? "" })}</p>
          <LastUpdate timeZone={timeZone} />
        </hgroup>
        <div className="button-row">
          <Link href="/orders?status=all" className="button-link outline-primary">
            {t("orders.allOrders")}
          </Link>
          <Link href="/orders/new" className="button-link primary">
            {t("orders.addOrder")}
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
  const t = useT();
  return (
    <section aria-label={t("dashboard.byStatus")} className="status-cards">
      {CARD_STATUSES.map((status) => {
        const label = statusLabel(status);
        const subtitle = statusSubtitle(status);
        const count = counts ? String(counts[status]) : "…";
        const extra =
          status === "Ordered" && today > 0
            ? t("dashboard.orderedToday", { count: today })
            : status === "Shipped" && late > 0
              ? t("dashboard.lateCount", { count: late })
              : null;
        const card = (
          <Link
            key={status}
            href={`/orders?status=${encodeURIComponent(status)}`}
            className={`status-card status-card-${status.toLowerCase().replace(/\s+/g, "-")}`}
            aria-label={
              extra
                ? t("dashboard.statusCardLabelExtra", { status: label, count, subtitle, extra })
                : t("dashboard.statusCardLabel", { status: label, count, subtitle })
            }
          >
            <span className="status-card-title">{label}</span>
            <span className="status-card-count" aria-busy={isLoading || undefined}>
              {counts ? counts[status] : "–"}
            </span>
            <span className="status-card-subtitle">
              {subtitle}
              {status === "Ordered" && extra && <span className="today-badge">{extra}</span>}
              {status === "Shipped" && extra && (
                <span className="today-badge late-count" title={t("dashboard.lateTitle")}>
                  {extra}
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
  const t = useT();
  return (
    <section aria-labelledby="recent-orders" className="recent-orders">
      <h2 id="recent-orders">{t("dashboard.recentOrders")}</h2>
      {isLoading ? (
        <div
          className="order-grid"
          role="status"
          aria-busy="true"
          aria-label={t("dashboard.loadingRecent")}
        >
          <div className="skeleton-card" />
          <div className="skeleton-card" />
        </div>
      ) : isError ? (
        <LoadFailed message={t("dashboard.recentFailed")} onRetry={refetch} />
      ) : !data?.length ? (
        <article className="empty-state">
          <h3>{t("orders.noneFound")}</h3>
          <p>{t("dashboard.emptyRecent")}</p>
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
  const t = useT();
  const items: { key: string; title: string; value: string; sub: string; more?: string }[] = [
    {
      key: "month",
      title: t("dashboard.thisMonth"),
      value: stats ? String(stats.monthlyOrders) : "–",
      sub: t("dashboard.ordersReceived"),
    },
    {
      key: "average",
      title: t("dashboard.averageValue"),
      value: stats ? formatMoney(stats.averageValue, stats.currency) : "–",
      sub: t("dashboard.perOrder"),
      // Orders in other currencies: their own averages (the first is the one above), never added.
      more: stats?.averages
        .slice(1)
        .map((a) => formatMoney(a.averageValue, a.currency))
        .join(" · "),
    },
    {
      key: "rate",
      title: t("dashboard.reviewRate"),
      value: stats ? percent(stats.reviewRate) : "–",
      sub: t("dashboard.ordersReviewed"),
      more: t("dashboard.reviewRateNote"),
    },
  ];
  return (
    <section aria-label={t("dashboard.statistics")} className="stat-cards">
      {items.map((s) => (
        <article key={s.key} className="stat-card">
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
  const t = useT();
  return (
    <article className="stat-card reviews-due-card">
      <h3>
        <Link href={`/orders?status=${encodeURIComponent("Received")}`}>
          {t("dashboard.reviewsDue")}
        </Link>
      </h3>
      <p className="stat-value">{r ? r.dueThisWeek : "–"}</p>
      <p className="stat-sub">{t("dashboard.thisWeek")}</p>
      <p className="stat-sub">
        {r ? (
          r.overdue > 0 ? (
            <strong className="overdue-count">
              {t("dashboard.overdueCount", { count: r.overdue })}
            </strong>
          ) : (
            t("dashboard.noneOverdue")
          )
        ) : (
          "…"
        )}
      </p>
      {r && (
        <p className="stat-sub muted">
          {t("dashboard.reviewsDueRule", {
            due: r.dueAfterDays,
            overdue: r.overdueAfterDays,
            rewriteDue: r.rewriteDueAfterDays,
            rewriteOverdue: r.rewriteOverdueAfterDays,
          })}
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
  const t = useT();
  return (
    <>
      <article className="stat-card emails-scanned-card">
        <h3>{t("dashboard.emailsScanned")}</h3>
        <p className="stat-value">{user ? scanned : "–"}</p>
        {connected || expired ? (
          <>
            <p className="stat-sub">
              <MailboxStatusBadge state={expired ? "expired" : (status?.status ?? "unknown")} />
            </p>
            <p className="stat-sub">
              {t("dashboard.lastProcessed", { time: formatRelativeTime(last, now, timeZone) })}
            </p>
            {expired && <Link href="/account?tab=email">{t("dashboard.reconnectMailbox")}</Link>}
          </>
        ) : (
          <p className="stat-sub">
            <Link href="/account?tab=email">{t("dashboard.connectMailbox")}</Link>
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
