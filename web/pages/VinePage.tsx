/**
 * Vine (/vine, issue 17): the review rate against its minimum (gauge), the evaluation period's
 * progress towards Gold, today's orders against the daily limit, reviews awaiting approval
 * (oldest first, each a link to its order), ETV per year with a bar per month and its CSV export,
 * the Itemized Report import, the settings, and how it is all counted. Live: "order" events
 * refetch the standing (web/lib/live-events.ts). A lazy chunk: not in the first-load bundle.
 */
import { Link } from "wouter";
import { useNow } from "../components/orders/useNow.ts";
import { useOrderList } from "../hooks/useOrders.ts";
import { useVineStanding } from "../hooks/useVine.ts";
import { downloadFile, errorMessage } from "../lib/api.ts";
import { ageText } from "../lib/format.ts";
import { editOrderPath } from "../lib/order-links.ts";
import { toastError } from "../lib/toast.tsx";
import { evaluationLine, formatAmount, formatDay, rateState } from "../lib/vine.ts";
import { EtvChart } from "./vine/EtvChart.tsx";
import { ImportReport } from "./vine/ImportReport.tsx";
import { RateGauge } from "./vine/RateGauge.tsx";
import { VineSettingsForm } from "./vine/VineSettingsForm.tsx";
import "../styles/orders.css";
import "../styles/vine.css";
import { LoadFailed } from "../components/LoadFailed.tsx";

const AWAITING_SHOWN = 10;

export function VinePage() {
  const { data: s, isLoading, isError, error, refetch } = useVineStanding();
  return (
    <main className="container vine-page">
      <div className="page-head">
        <hgroup>
          <h1>Vine</h1>
          <p className="muted">Your standing, counted from your own orders on this server.</p>
        </hgroup>
      </div>
      {isLoading ? (
        <div
          className="vine-grid"
          role="status"
          aria-busy="true"
          aria-label="Loading your standing"
        >
          <div className="skeleton-card" />
          <div className="skeleton-card" />
          <div className="skeleton-card" />
        </div>
      ) : isError || !s ? (
        <LoadFailed
          message={errorMessage(error, "Your Vine standing could not be loaded.")}
          onRetry={refetch}
        />
      ) : (
        <>
          <section className="vine-grid" aria-label="Standing">
            <article className="vine-card">
              <h2>Review rate</h2>
              <RateGauge rate={s.reviewRate} />
              <p className="stat-sub">
                {s.reviewRate.reviewed} of {s.reviewRate.ordered} orders of the last{" "}
                {s.reviewRate.windowDays} days reviewed
                {rateState(s.reviewRate) === "low" && (
                  <strong className="vine-warning"> · below the minimum</strong>
                )}
              </p>
            </article>

            <article className="vine-card">
              <h2>Evaluation</h2>
              {s.evaluation ? (
                <>
                  <p className="stat-sub">
                    {formatDay(s.evaluation.start)} – {formatDay(s.evaluation.end)}
                  </p>
                  <label className="vine-progress">
                    <span>
                      Reviews: {s.evaluation.reviewed} of {s.evaluation.goldItems}
                    </span>
                    <progress
                      value={Math.min(s.evaluation.reviewed, s.evaluation.goldItems)}
                      max={s.evaluation.goldItems}
                    />
                  </label>
                  <label className="vine-progress">
                    <span>
                      Review rate: {s.evaluation.percent ?? "–"}
                      {s.evaluation.percent !== null && "%"} of {s.evaluation.goldPercent}%
                    </span>
                    <progress
                      value={Math.min(s.evaluation.percent ?? 0, s.evaluation.goldPercent)}
                      max={s.evaluation.goldPercent}
                    />
                  </label>
                  <p className="vine-line">
                    <strong>{evaluationLine(s.evaluation)}</strong>
                    <span className={`vine-badge ${s.evaluation.onTrack ? "ok" : "low"}`}>
                      {s.evaluation.onTrack ? "On track for Gold" : "Not on track for Gold"}
                    </span>
                  </p>
                </>
              ) : (
                <p className="stat-sub">
                  Enter your evaluation period in the settings below to see your progress towards
                  Gold.
                </p>
              )}
            </article>

            <article className="vine-card">
              <h2>Today</h2>
              <p className="stat-value">
                {s.today.ordered} <span className="stat-of">of {s.today.limit}</span>
              </p>
              <progress
                className={s.today.ordered >= s.today.limit ? "at-limit" : undefined}
                value={Math.min(s.today.ordered, s.today.limit)}
                max={s.today.limit}
                aria-label={`${s.today.ordered} of ${s.today.limit} orders today`}
              />
              <p className="stat-sub">
                {s.today.ordered >= s.today.limit
                  ? "Daily limit reached"
                  : `${s.today.limit - s.today.ordered} more can be ordered today`}
              </p>
            </article>

            <AwaitingApproval
              count={s.awaitingApproval.count}
              oldestDays={s.awaitingApproval.oldestDays}
            />
          </section>

          <section className="vine-section" aria-labelledby="vine-etv">
            <h2 id="vine-etv">ETV for taxes</h2>
            {s.etv.length === 0 ? (
              <p className="muted">No orders yet: the Estimated Tax Value appears here per year.</p>
            ) : (
              <div className="etv-years">
                {s.etv.map((e) => (
                  <article key={`${e.year}-${e.currency}`} className="vine-card etv-year">
                    <header>
                      <h3>
                        {e.year} <small className="muted">{e.currency}</small>
                      </h3>
                      <button
                        type="button"
                        className="outline secondary small"
                        onClick={() =>
                          void downloadFile(
                            `/api/vine/etv.csv?year=${e.year}`,
                            `grapevine-etv-${e.year}.csv`,
                          ).catch((err: unknown) =>
                            toastError(err, errorMessage(err, "The export failed")),
                          )
                        }
                      >
                        Export {e.year} CSV
                      </button>
                    </header>
                    <p className="stat-value">{formatAmount(e.total, e.currency)}</p>
                    <p className="stat-sub">
                      {e.orders} {e.orders === 1 ? "order" : "orders"}
                      {e.canceled > 0 && ` · ${e.canceled} canceled (not counted)`}
                    </p>
                    <EtvChart year={e.year} currency={e.currency} months={e.months} />
                  </article>
                ))}
              </div>
            )}
          </section>
        </>
      )}

      <section className="vine-section" aria-labelledby="vine-import">
        <h2 id="vine-import">Import Amazon's Itemized Report</h2>
        <ImportReport />
      </section>

      <section className="vine-section">
        <details>
          <summary>Vine settings</summary>
          <VineSettingsForm />
        </details>
        <details>
          <summary>How this is counted</summary>
          <ul className="vine-definitions">
            <li>
              An order belongs to the day it was ordered, in your time zone (or, without an order
              date, the day it was added). Canceled orders and orders Vine support removed from your
              review list never count.
            </li>
            <li>
              <strong>Review rate</strong>: of the orders of the last window days (today included),
              those whose review is Submitted or Approved. A rejected review does not count until
              you resubmit it.
            </li>
            <li>
              <strong>Evaluation</strong>: the same over your evaluation period. "Review N more" is
              how many more reviews reach the Gold rate; "on track" means reviewing what you have
              already received would reach both Gold numbers.
            </li>
            <li>
              <strong>Today</strong>: orders dated today in your time zone, against your tier's
              daily limit.
            </li>
            <li>
              <strong>Awaiting approval</strong>: reviews submitted and neither approved nor
              rejected; the age is whole days since the oldest submission.
            </li>
            <li>
              <strong>ETV</strong>: the sum of the estimated value of each calendar year's orders
              per currency; canceled orders are left out of the total and counted apart.
            </li>
          </ul>
        </details>
      </section>
    </main>
  );
}

function AwaitingApproval(props: { count: number; oldestDays: number | null }) {
  const now = useNow();
  const list = useOrderList({
    status: "Review Submitted",
    q: "",
    sort: null,
    page: 1,
    size: AWAITING_SHOWN,
  });
  return (
    <article className="vine-card">
      <h2>Awaiting approval</h2>
      <p className="stat-value">{props.count}</p>
      <p className="stat-sub">
        {props.count === 0
          ? "No reviews waiting on Amazon"
          : `oldest submitted ${props.oldestDays ?? 0} ${props.oldestDays === 1 ? "day" : "days"} ago`}
      </p>
      {props.count > 0 && (
        <ol className="vine-awaiting">
          {list.data?.orders.map((o) => (
            <li key={o.orderid}>
              <Link href={editOrderPath(o.orderid, "/vine", "review")}>{o.productname}</Link>
              <small className="muted"> · {ageText(o.datereviewsubmitted, now)}</small>
            </li>
          ))}
          {props.count > AWAITING_SHOWN && (
            <li>
              <Link href={`/orders?status=${encodeURIComponent("Review Submitted")}`}>
                All {props.count} →
              </Link>
            </li>
          )}
        </ol>
      )}
    </article>
  );
}
