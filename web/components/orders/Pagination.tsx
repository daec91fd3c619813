/**
 * 'Showing X to Y of Z results', the 'Show' page-size selector, previous/next and page numbers with
 * ellipses around the current page ±2 (docs/screens.md, docs/behaviour.md#constants-and-limits).
 */
import { useT } from "../../i18n/index.ts";
import { PAGE_SIZES } from "../../lib/order-list-view.ts";
import { pageItems, showingText, totalPages } from "../../lib/pagination.ts";
import "../../styles/orders.css";

export function Pagination(props: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  const t = useT();
  const pages = totalPages(props.total, props.size);
  const items = pageItems(props.page, pages);
  return (
    <nav className="pagination" aria-label={t("orders.pagination")}>
      <p className="pagination-summary">{showingText(props.page, props.size, props.total)}</p>
      <label className="inline page-size">
        {t("orders.pageSize")}
        <select
          value={props.size}
          onChange={(e) => props.onSize(Number(e.currentTarget.value))}
          aria-label={t("orders.pageSize")}
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <ul className="pagination-pages">
        <li>
          <button
            type="button"
            className="outline secondary small"
            disabled={props.page <= 1}
            onClick={() => props.onPage(props.page - 1)}
            aria-label={t("orders.previousPage")}
          >
            ‹ {t("orders.previous")}
          </button>
        </li>
        {items.map((item) =>
          typeof item === "number" ? (
            <li key={item}>
              <button
                type="button"
                className={item === props.page ? "small" : "outline secondary small"}
                aria-current={item === props.page ? "page" : undefined}
                aria-label={t("orders.page", { page: item })}
                onClick={() => props.onPage(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className="ellipsis" aria-hidden="true">
              …
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className="outline secondary small"
            disabled={props.page >= pages}
            onClick={() => props.onPage(props.page + 1)}
            aria-label={t("orders.nextPage")}
          >
            {t("orders.next")} ›
          </button>
        </li>
      </ul>
    </nav>
  );
}
