/** ETV per month of one year as a small bar chart (inline SVG; each bar has its amount as title). */
import { barHeights, formatAmount, MONTH_NAMES } from "../../lib/vine.ts";

export function EtvChart(props: { year: number; currency: string; months: number[] }) {
  const heights = barHeights(props.months);
  const H = 60;
  return (
    <svg
      className="etv-chart"
      viewBox={`0 0 ${12 * 20} ${H + 14}`}
      role="img"
      aria-label={`ETV per month in ${props.year}: ${props.months
        .map((m, i) => `${MONTH_NAMES[i]} ${formatAmount(m, props.currency)}`)
        .join(", ")}`}
    >
      {heights.map((h, i) => {
        const barH = Math.max(h * H, props.months[i] ? 2 : 0);
        return (
          <g key={MONTH_NAMES[i]}>
            <rect className="etv-bar-bg" x={i * 20 + 3} y={0} width={14} height={H} rx={2} />
            <rect className="etv-bar" x={i * 20 + 3} y={H - barH} width={14} height={barH} rx={2}>
              <title>{`${MONTH_NAMES[i]} ${props.year}: ${formatAmount(props.months[i] ?? 0, props.currency)}`}</title>
            </rect>
            <text className="etv-month" x={i * 20 + 10} y={H + 11} textAnchor="middle">
              {MONTH_NAMES[i]?.[0]}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
