/**
 * The dashboard's compact Vine card: Vine's review rate over its window as Vine counts it (the
 * rule in words, and how it differs from the Review Rate card beside it), how many more reviews
 * reach the minimum, what the pending approvals would make it, and today's orders against the
 * daily limit.
 */
import { Link } from "wouter";
import { useVineStanding } from "../../hooks/useVine.ts";
import { useT } from "../../i18n/index.ts";
import { formatPercentNumber, pendingLine, rateState, toMinimumLine } from "../../lib/vine.ts";

export function VineCard() {
  const t = useT();
  const { data: s } = useVineStanding();
  const rate = s?.reviewRate;
  const low = rate ? rateState(rate) === "low" : false;
  const toMinimum = rate ? toMinimumLine(rate) : null;
  const pending = rate ? pendingLine(rate) : null;
  return (
    <article className="stat-card vine-stat-card">
      <h3>
        <Link href="/vine">{t("nav.vine")}</Link>
      </h3>
      <p className={low ? "stat-value vine-rate-low" : "stat-value"}>
        {rate?.percent != null
          ? t("vine.percent", { percent: formatPercentNumber(rate.percent) })
          : "–"}
      </p>
      <p className="stat-sub">
        {rate
          ? t("vine.card.counts", {
              rule: rate.rule,
              reviewed: rate.reviewed,
              counted: rate.counted,
              days: rate.windowDays,
              minimum: formatPercentNumber(rate.minimum),
            })
          : t("vine.card.title")}
      </p>
      {toMinimum && <p className="stat-sub vine-to-minimum">{toMinimum}</p>}
      {pending && <p className="stat-sub">{pending}</p>}
      <p className="stat-sub muted vine-rate-note">
        {t("vine.card.note", { rule: rate?.rule ?? "2025" })}
      </p>
      <p className="stat-sub">
        {s ? t("vine.card.today", { ordered: s.today.ordered, limit: s.today.limit }) : "…"}
      </p>
    </article>
  );
}
