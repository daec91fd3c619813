/** GET /api/dashboard/counts|recent|stats (docs/behaviour.md#data). */
import type { Order } from "./orders.ts";

export type DashboardCounts = {
  Ordered: number;
  /**
   * Orders (not Canceled) placed today in the user's time zone: their date ordered is today, or
   * without one, the mail that created them arrived today. The day an order was added (typed, or
   * imported from old mail or a report) is not the day it was ordered.
   */
  OrderedToday: number;
  Shipped: number;
  Received: number;
  "Review Submitted": number;
  "Review Rejected": number;
  "Review Approved": number;
  /** Shipped orders whose expected delivery day is before today (user's zone): late parcels. */
  ShippedLate: number;
  /**
   * Reviews by the reminder days (docs/behaviour.md#constants-and-limits): a Received order is
   * due `dueAfterDays` days after delivery and overdue after `overdueAfterDays`; a rejected review
   * likewise after `rewriteDueAfterDays` / `rewriteOverdueAfterDays` days. `overdue`: past the
   * overdue day; `dueThisWeek`: not overdue, and due today, already due, or due within 6 days.
   */
  Reviews: {
    dueThisWeek: number;
    overdue: number;
    dueAfterDays: number;
    overdueAfterDays: number;
    rewriteDueAfterDays: number;
    rewriteOverdueAfterDays: number;
  };
};

/**
 * - monthlyOrders: orders (not Canceled) ordered in the current calendar month, user's zone.
 * - averageValue: mean estimated retail value, in `currency`, of orders (not Canceled) in that
 *   currency that have one. `currency` is the user's Vine marketplace's when they have valued orders
 *   in it, else the currency most of their valued orders are in.
 * - averages: the same per currency (most valued orders first): amounts in different currencies
 *   are never added together.
 * - reviewRate: percent (0-100, rounded) of orders that reached Received or later whose review was
 *   submitted (Review Submitted, Approved or Rejected); 0 when there are none.
 */
export type DashboardStats = {
  monthlyOrders: number;
  averageValue: number;
  currency: string;
  averages: { currency: string; averageValue: number; totalValue: number; orders: number }[];
  reviewRate: number;
};

export type DashboardRecent = Order[];
