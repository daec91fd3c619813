/** GET /api/dashboard/counts|recent|stats (docs/behaviour.md#data). */
import type { Order } from "./orders.ts";

export type DashboardCounts = {
  Ordered: number;
  /** Orders whose date ordered (else created) is today in the user's time zone. */
  OrderedToday: number;
  Shipped: number;
  Received: number;
  "Review Submitted": number;
  "Review Rejected": number;
  "Review Approved": number;
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
