/** The review rate against its minimum as a half-circle gauge (inline SVG, no library). */
import type { VineStanding } from "../../../src/contract/vine.ts";
import { useT } from "../../i18n/index.ts";
import { formatPercentNumber, rateState } from "../../lib/vine.ts";

const R = 50;
/** A point on the half circle for 0..100 percent (left to right). */
function point(percent: number, radius = R): [number, number] {
  const a = Math.PI * (1 - Math.min(100, Math.max(0, percent)) / 100);
  return [60 + radius * Math.cos(a), 60 - radius * Math.sin(a)];
}

export function RateGauge({ rate }: { rate: VineStanding["reviewRate"] }) {
  const t = useT();
  const state = rateState(rate);
  const minimum = formatPercentNumber(rate.minimum);
  const value = rate.percent ?? 0;
  const [mx1, my1] = point(rate.minimum, R - 9);
  const [mx2, my2] = point(rate.minimum, R + 9);
  const label =
    rate.percent === null
      ? t("vine.gauge.labelEmpty", { count: rate.windowDays, minimum })
      : t("vine.gauge.label", { percent: formatPercentNumber(rate.percent), minimum });
  return (
    <figure className={`rate-gauge rate-${state ?? "none"}`}>
      <svg viewBox="0 0 120 70" role="img" aria-label={label}>
        <path className="gauge-track" d="M10 60 A50 50 0 0 1 110 60" pathLength={100} />
        {value > 0 && (
          <path
            className="gauge-value"
            d="M10 60 A50 50 0 0 1 110 60"
            pathLength={100}
            strokeDasharray={`${value} 100`}
          />
        )}
        <line className="gauge-minimum" x1={mx1} y1={my1} x2={mx2} y2={my2} />
      </svg>
      <figcaption>
        <span className="gauge-number">
          {rate.percent === null
            ? "–"
            : t("vine.percent", { percent: formatPercentNumber(rate.percent) })}
        </span>
        <span className="gauge-minimum-label">{t("vine.gauge.minimum", { minimum })}</span>
      </figcaption>
    </figure>
  );
}
