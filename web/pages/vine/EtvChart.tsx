/** ETV per month of one year as a small bar chart (inline SVG; each bar has its amount as title). */
import { useT } from "../../i18n/index.ts";
import { barHeights, formatAmount, monthNames } from "../../lib/vine.ts";

export function EtvChart(props: { year: number; currency: string; months: number[] }) {
  const t = useT();
  const heights = barHeights(props.months);
  const names = monthNames();
  // A letter under each bar ("J F M"); where a month's shortest name is longer (Japanese "10月"),
  // its number.
  const narrow = monthNames("narrow");
  const letters = narrow.some((m) => m.length > 2) ? narrow.map((_, i) => String(i + 1)) : narrow;
  const H = 60;
  return (
    <svg
      className="etv-chart"
      viewBox={`0 0 ${12 * 20} ${H + 14}`}
      role="img"
      aria-label={t("vine.etv.chartLabel", {
        year: String(props.year),
        months: props.months
          .map((m, i) => `${names[i]} ${formatAmount(m, props.currency)}`)
          .join(", "),
      })}
    >
      {heights.map((h, i) => {
        const barH = Math.max(h * H, props.months[i] ? 2 : 0);
        return (
          <g key={names[i]}>
            <rect className="etv-bar-bg" x={i * 20 + 3} y={0} width={14} height={H} rx={2} />
            <rect className="etv-bar" x={i * 20 + 3} y={H - barH} width={14} height={barH} rx={2}>
              <title>{`${names[i]} ${props.year}: ${formatAmount(props.months[i] ?? 0, props.currency)}`}</title>
            </rect>
            <text className="etv-month" x={i * 20 + 10} y={H + 11} textAnchor="middle">
              {letters[i]}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
