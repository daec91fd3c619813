/**
 * The dashboard's compact Vine card: Vine's review rate over its window as Vine counts it (the
 * rule in words, and how it differs from the Review Rate card beside it), how many more reviews
 * reach the minimum, what the pending approvals would make it, and today's orders against the
 * daily limit.
 */
import { Link } from "wouter";
import { useVineStanding } from "../../hooks/useVine.ts";
import { pendingLine, rateState, rateWords, toMinimumLine } from "../../lib/vine.ts";

export function VineCard() {
  const { data: s } = useVineStanding();
  const rate = s?.reviewRate;
  const low = rate ? rateState(rate) === "low" : false;
  const words = rate ? rateWords(rate.rule) : null;
  const toMinimum = rate ? toMinimumLine(rate) : null;
  const pending = rate ? pendingLine(rate) : null;
  return (
    <article className="stat-card vine-stat-card">
      <h3>
        <Link href="/vine">Vine</Link>
      </h3>
      <p className="stat-value" style={low ? { color: "var(--gv-danger)" } : undefined}>
        {rate ? (rate.percent === null ? "–" : `${rate.percent}%`) : "–"}
      </p>
      <p className="stat-sub">
        {rate && words
          ? `${rate.reviewed} ${words.reviewed} of ${rate.counted} ${words.counted}, last ${rate.windowDays} days (minimum ${rate.minimum}%)`
          : "Vine's review rate"}
      </p>
      {toMinimum && <p className="stat-sub vine-to-minimum">{toMinimum}</p>}
      {pending && <p className="stat-sub">{pending}</p>}
      <p className="stat-sub muted vine-rate-note">
        {rate?.rule === "legacy"
          ? "Vine's older rule, over its window; Review Rate counts every order you received."
          : "As Vine counts it, over its window; Review Rate counts submitted reviews of every order you received."}
      </p>
      <p className="stat-sub">{s ? `${s.today.ordered} of ${s.today.limit} ordered today` : "…"}</p>
    </article>
  );
}
