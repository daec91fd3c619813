/**
 * Vine (/vine): the review rate against its minimum (gauge), the evaluation period's
 * progress towards Gold, today's orders against the daily limit, reviews awaiting approval
 * (oldest first, each a link to its order), ETV per year with a bar per month and its CSV export,
 * the Itemized Report import, the settings, and how it is all counted. Live: "order.*" events
 * refetch the standing (web/lib/live-events-keys.ts). A lazy chunk: not in the first-load bundle.
 */
import { Link } from "wouter";
import { useNow } from "../components/orders/useNow.ts";
import { useOrderList } from "../hooks/useOrders.ts";
import { useVineStanding } from "../hooks/useVine.ts";
import { downloadFile, errorMessage } from "../lib/api.ts";
import { ageText } from "../lib/format.ts";
import { editOrderPath } from "../lib/order-links.ts";
import { toastError } from "../lib/toast.tsx";
import {
  evaluationLine,
  form1099Line,
  formatAmount,
  pendingLine,
  periodText,
  projectionLine,
  rateState,
  rateWords,
  toMinimumLine,
} from "../lib/vine.ts";
import { EtvChart } from "./vine/EtvChart.tsx";
import { ImportReport } from "./vine/ImportReport.tsx";
import { RateGauge } from "./vine/RateGauge.tsx";
import { VineSettingsForm } from "./vine/VineSettingsForm.tsx";
import "../styles/dashboard.css";
import "../styles/order-card.css";
import "../styles/vine.css";
import { plural } from "../../src/util/plural.ts";
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
                {s.reviewRate.reviewed} {rateWords(s.reviewRate.rule).reviewed} of{" "}
                {s.reviewRate.counted} {rateWords(s.reviewRate.rule).counted} in the last{" "}
                {s.reviewRate.windowDays} days
                {s.reviewRate.exact !== null && ` (${s.reviewRate.exact}%, rounded down)`}
                {rateState(s.reviewRate) === "low" && (
                  <strong className="vine-warning"> · below the minimum</strong>
                )}
              </p>
              {toMinimumLine(s.reviewRate) && (
                <p className="stat-sub vine-to-minimum">
                  <strong>{toMinimumLine(s.reviewRate)}</strong>
                </p>
              )}
              {pendingLine(s.reviewRate) && (
                <p className="stat-sub vine-pending">{pendingLine(s.reviewRate)}</p>
              )}
            </article>

            <article className="vine-card">
              <h2>Evaluation</h2>
              {s.evaluation ? (
                <>
                  <p className="stat-sub vine-period">
                    {periodText(s.evaluation)}
                    {s.evaluation.rolled > 0
                      ? " · the next period after the one you saved"
                      : s.evaluation.defaultEnd
                        ? " · six months from the start"
                        : ""}
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
                      {s.evaluation.percent !== null && "%"} of {s.evaluation.goldPercent}% (
                      {s.evaluation.reviewed} {rateWords(s.evaluation.rule).reviewed} of{" "}
                      {s.evaluation.counted} {rateWords(s.evaluation.rule).counted})
                    </span>
                    <progress
                      value={Math.min(s.evaluation.percent ?? 0, s.evaluation.goldPercent)}
                      max={s.evaluation.goldPercent}
                    />
                  </label>
                  {pendingLine(s.evaluation) && (
                    <p className="stat-sub">{pendingLine(s.evaluation)}</p>
                  )}
                  {projectionLine(s.evaluation) && (
                    <p className="stat-sub vine-projection">{projectionLine(s.evaluation)}</p>
                  )}
                  <p className="vine-line">
                    <strong>{evaluationLine(s.evaluation)}</strong>
                    <span className={`vine-badge ${s.evaluation.onTrack ? "ok" : "low"}`}>
                      {s.evaluation.onTrack ? "On track for Gold" : "Not on track for Gold"}
                    </span>
                  </p>
                </>
              ) : (
                <p className="stat-sub">
                  Enter the start of your evaluation period (as your Vine account page shows it) in
                  the settings below to see your progress towards Gold.
                </p>
              )}
            </article>

            <article className="vine-card">
              <h2>Today</h2>
              <p className="stat-sub">Orders placed today</p>
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
                      {plural(e.orders, { one: "order", other: "orders" })}
                      {e.canceled > 0 && ` · ${e.canceled} canceled (not counted)`}
                    </p>
                    {e.threshold1099 !== null && (
                      <p className="stat-sub vine-1099">
                        {form1099Line(e.year, e.total, e.threshold1099)}. Information only, not tax
                        advice.
                      </p>
                    )}
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
              <strong>Review rate</strong>, as Vine's account page counts it since 2025: reviews
              Vine <em>approved</em> over items <em>delivered</em> (Received or later) among the
              orders of the last window days, today included, shown as a whole percent rounded down
              (89.7% is 89%, below Gold's 90%). Submitted reviews waiting for approval are shown
              apart ("92% once 3 pending reviews are approved"). If your marketplace still shows the
              older rule (reviews submitted over items ordered), choose it in the settings below.{" "}
              {s?.reviewRate.rule === "legacy"
                ? "You use the older rule."
                : "You use the 2025 rule."}
            </li>
            <li>
              <strong>Vine card on the dashboard</strong>: this rate over its window. The
              dashboard's Review Rate card is another figure: submitted reviews of every order that
              reached Received, over all time.
            </li>
            <li>
              <strong>Evaluation</strong>: the same count over your evaluation period, from its
              start day and time to its end day and time in your time zone. Without an end it lasts
              six months; when it ends, the next six-month period starts the day after. "Review N
              more" is how many more approved reviews reach the Gold rate; "on track" means
              reviewing what you have received would reach both Gold numbers. The projection scales
              the period's counts so far (approved and pending reviews, delivered items) to its full
              length; a range shows where rounding decides.
            </li>
            <li>
              <strong>Today</strong>: orders placed today in your time zone (their order date, or
              without one the day their mail arrived; not the day an order was added), against your
              tier's daily limit (Silver 3, Gold 8 by default).
            </li>
            <li>
              <strong>Awaiting approval</strong>: reviews submitted and neither approved nor
              rejected; the age is whole days since the oldest submission.
            </li>
            <li>
              <strong>ETV</strong>: the sum of the estimated value of each calendar year's orders
              per currency; canceled orders are left out of the total and counted apart. For US
              reviewers, the year's USD total is set beside the 1099-NEC reporting threshold ($600
              for 2025, $2,000 for payments from 2026 on), as information, not tax advice.
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
          : `oldest submitted ${plural(props.oldestDays ?? 0, { one: "day", other: "days" })} ago`}
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
