/**
 * The orders list's page links and "Showing X to Y" (docs/screens.md); the page sizes are part of
 * the list's address (order-list-view.ts). Pure.
 */
import { translate } from "../i18n/index.ts";

export type PageItem = number | "start-ellipsis" | "end-ellipsis";

/**
 * First and last page, the current page ±2, and an ellipsis for each gap (a gap of exactly one
 * page shows that page instead: an ellipsis would hide no more than the number itself).
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const start = Math.max(1, page - 2);
  const end = Math.min(totalPages, page + 2);
  const items: PageItem[] = [];
  if (start > 1) items.push(1);
  if (start > 3) items.push("start-ellipsis");
  else if (start === 3) items.push(2);
  for (let i = start; i <= end; i++) items.push(i);
  if (end < totalPages - 2) items.push("end-ellipsis");
  else if (end === totalPages - 2) items.push(totalPages - 1);
  if (end < totalPages) items.push(totalPages);
  return items;
}

export function totalPages(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, size)));
}

/** "Showing X to Y of Z results" */
export function showingText(page: number, size: number, total: number): string {
  if (total <= 0) return translate("orders.showing", { from: 0, to: 0, total: 0 });
  const from = Math.min((page - 1) * size + 1, total);
  const to = Math.min(page * size, total);
  return translate("orders.showing", { from, to, total });
}
