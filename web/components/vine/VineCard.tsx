/** The dashboard's compact Vine card: the review rate against its minimum, today's orders against the limit. */
import { Link } from "wouter";
import { useVineStanding } from "../../hooks/useVine.ts";

export function VineCard() {
  const { data: s } = useVineStanding();
  const rate = s?.reviewRate;
  const low = rate?.percent != null && rate.percent < rate.minimum;
  return (
    <article className="stat-card vine-stat-card">
      <h3>
        <Link href="/vine">Vine</Link>
      </h3>
      <p className="stat-value" style={low ? { color: "var(--gv-danger)" } : undefined}>
        {rate ? (rate.percent === null ? "–" : `${rate.percent}%`) : "–"}
      </p>
      <p className="stat-sub">
        {rate ? `${rate.windowDays}-day review rate (minimum ${rate.minimum}%)` : "review rate"}
      </p>
      <p className="stat-sub">{s ? `${s.today.ordered} of ${s.today.limit} ordered today` : "…"}</p>
    </article>
  );
}
