/**
 * Vine (/vine): the review rate against its minimum (gauge), the evaluation period's
 * progress towards Gold, today's orders against the daily limit, reviews awaiting approval
 * (oldest first, each a link to its order), ETV per year with a bar per month and its CSV export,
 * the Itemized Report import, the settings, and how it is all counted. Live: "order.*" events
 * refetch the standing (web/lib/live-events-keys.ts). A lazy chunk: not in the first-load bundle.
 */
import { Trans } from "@lingui/react";
import { Link } from "wouter";
import { useNow } from "../components/orders/useNow.ts";
import { useOrderList } from "../hooks/useOrders.ts";
import { useVineStanding } from "../hooks/useVine.ts";
import { useT } from "../i18n/index.ts";
import { downloadFile, errorMessage } from "../lib/api.ts";
import { ageText } from "../lib/format.ts";
import { editOrderPath } from "../lib/order-links.ts";
import { toastError } from "../lib/toast.tsx";
import {
  evaluationLine,
  form1099Line,
  formatAmount,
  formatPercentNumber,
  pendingLine,
  periodText,
  projectionLine,
  rateState,
  toMinimumLine,
} from "../lib/vine.ts";
import { EtvChart } from "./vine/EtvChart.tsx";
import { ImportReport } from "./vine/ImportReport.tsx";
import { RateGauge } from "./vine/RateGauge.tsx";
import { VineSettingsForm } from "./vine/VineSettingsForm.tsx";
import "../styles/dashboard.css";
import "../styles/order-card.css";
import "../styles/vine.css";
import { LoadFailed } from "../components/LoadFailed.tsx";

const AWAITING_SHOWN = 10;

export function VinePage() {
  const t = useT();
  const { data: s, isLoading, isError, error, refetch } = useVineStanding();
  return (
    <main className="container vine-page">
      <div className="page-head">
        <hgroup>
          <h1>{t("nav.vine")}</h1>
          <p className="muted">{t("vine.intro")}</p>
        </hgroup>
      </div>
      {isLoading ? (
        <div className="vine-grid" role="status" aria-busy="true" aria-label={t("vine.loading")}>
          <div className="skeleton-card" />
          <div className="skeleton-card" />
          <div className="skeleton-card" />
        </div>
      ) : isError || !s ? (
        <LoadFailed message={errorMessage(error, t("vine.loadFailed"))} onRetry={refetch} />
      ) : (
        <>
          <section className="vine-grid" aria-label={t("vine.standing")}>
            <article className="vine-card">
              <h2>{t("vine.rate.title")}</h2>
              <RateGauge rate={s.reviewRate} />
              <p className="stat-sub">
                {t("vine.rate.counts", {
                  rule: s.reviewRate.rule,
                  reviewed: s.reviewRate.reviewed,
                  counted: s.reviewRate.counted,
                  days: s.reviewRate.windowDays,
                })}
                {s.reviewRate.exact !== null &&
                  t("vine.rate.exact", { exact: formatPercentNumber(s.reviewRate.exact) })}
                {rateState(s.reviewRate) === "low" && (
                  <strong className="vine-warning"> · {t("vine.rate.belowMinimum")}</strong>
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
              <h2>{t("vine.evaluation.title")}</h2>
              {s.evaluation ? (
                <>
                  <p className="stat-sub vine-period">
                    {periodText(s.evaluation)}
                    {s.evaluation.rolled > 0
                      ? ` · ${t("vine.evaluation.rolled")}`
                      : s.evaluation.defaultEnd
                        ? ` · ${t("vine.evaluation.defaultEnd")}`
                        : ""}
                  </p>
                  <label className="vine-progress">
                    <span>
                      {t("vine.evaluation.reviews", {
                        reviewed: s.evaluation.reviewed,
                        goldItems: s.evaluation.goldItems,
                      })}
                    </span>
                    <progress
                      value={Math.min(s.evaluation.reviewed, s.evaluation.goldItems)}
                      max={s.evaluation.goldItems}
                    />
                  </label>
                  <label className="vine-progress">
                    <span>
                      {t("vine.evaluation.rate", {
                        rule: s.evaluation.rule,
                        percent:
                          s.evaluation.percent === null
                            ? "–"
                            : t("vine.percent", {
                                percent: formatPercentNumber(s.evaluation.percent),
                              }),
                        goldPercent: formatPercentNumber(s.evaluation.goldPercent),
                        reviewed: s.evaluation.reviewed,
                        counted: s.evaluation.counted,
                      })}
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
                      {s.evaluation.onTrack
                        ? t("vine.evaluation.onTrack")
                        : t("vine.evaluation.notOnTrack")}
                    </span>
                  </p>
                </>
              ) : (
                <p className="stat-sub">{t("vine.evaluation.empty")}</p>
              )}
            </article>

            <article className="vine-card">
              <h2>{t("vine.today.title")}</h2>
              <p className="stat-sub">{t("vine.today.placed")}</p>
              <p className="stat-value">
                {s.today.ordered}{" "}
                <span className="stat-of">{t("vine.today.of", { limit: s.today.limit })}</span>
              </p>
              <progress
                className={s.today.ordered >= s.today.limit ? "at-limit" : undefined}
                value={Math.min(s.today.ordered, s.today.limit)}
                max={s.today.limit}
                aria-label={t("vine.today.label", {
                  ordered: s.today.ordered,
                  limit: s.today.limit,
                })}
              />
              <p className="stat-sub">
                {s.today.ordered >= s.today.limit
                  ? t("vine.today.limitReached")
                  : t("vine.today.more", { count: s.today.limit - s.today.ordered })}
              </p>
            </article>

            <AwaitingApproval
              count={s.awaitingApproval.count}
              oldestDays={s.awaitingApproval.oldestDays}
            />
          </section>

          <section className="vine-section" aria-labelledby="vine-etv">
            <h2 id="vine-etv">{t("vine.etv.title")}</h2>
            {s.etv.length === 0 ? (
              <p className="muted">{t("vine.etv.empty")}</p>
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
                            toastError(err, errorMessage(err, t("vine.etv.exportFailed"))),
                          )
                        }
                      >
                        {t("vine.etv.export", { year: String(e.year) })}
                      </button>
                    </header>
                    <p className="stat-value">{formatAmount(e.total, e.currency)}</p>
                    <p className="stat-sub">
                      {t("vine.etv.orders", { count: e.orders })}
                      {e.canceled > 0 && ` · ${t("vine.etv.canceled", { count: e.canceled })}`}
                    </p>
                    {e.threshold1099 !== null && (
                      <p className="stat-sub vine-1099">
                        {t("vine.etv.form1099Note", {
                          line: form1099Line(e.year, e.total, e.threshold1099),
                        })}
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
        <h2 id="vine-import">{t("vine.import.title")}</h2>
        <ImportReport />
      </section>

      <section className="vine-section">
        <details>
          <summary>{t("vine.settings.title")}</summary>
          <VineSettingsForm />
        </details>
        <details>
          <summary>{t("vine.how.title")}</summary>
          <ul className="vine-definitions">
            <li>{t("vine.how.day")}</li>
            <li>
              <Trans
                id="vine.how.rate"
                values={{ rule: s?.reviewRate.rule ?? "2025" }}
                components={{ 0: <strong />, 1: <em />, 2: <em /> }}
              />
            </li>
            <li>
              <Trans id="vine.how.card" components={{ 0: <strong /> }} />
            </li>
            <li>
              <Trans id="vine.how.evaluation" components={{ 0: <strong /> }} />
            </li>
            <li>
              <Trans id="vine.how.today" components={{ 0: <strong /> }} />
            </li>
            <li>
              <Trans id="vine.how.awaiting" components={{ 0: <strong /> }} />
            </li>
            <li>
              <Trans id="vine.how.etv" components={{ 0: <strong /> }} />
            </li>
          </ul>
        </details>
      </section>
    </main>
  );
}

function AwaitingApproval(props: { count: number; oldestDays: number | null }) {
  const t = useT();
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
      <h2>{t("vine.awaiting.title")}</h2>
      <p className="stat-value">{props.count}</p>
      <p className="stat-sub">
        {props.count === 0
          ? t("vine.awaiting.none")
          : t("vine.awaiting.oldest", { count: props.oldestDays ?? 0 })}
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
                {t("vine.awaiting.all", { count: props.count })}
              </Link>
            </li>
          )}
        </ol>
      )}
    </article>
  );
}
