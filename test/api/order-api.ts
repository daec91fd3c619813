/**
 * The orders tests' requests and row reads (orders*.test.ts), against the harness the test file
 * holds at the time of the call.
 */
import type { Order, TrackingUpdateResponse } from "../../src/contract/index.ts";
import type { Harness } from "../harness.ts";
import { type SeedRow, seedOrders } from "../support/seed-orders.ts";
import { call } from "./helpers.ts";

// A UPS number whose check digit validates, and one no carrier can be told from.
export const UPS_NUMBER = "1Z879E930346834440";
export const UNKNOWN_NUMBER = "ZZ-0000-1234-5678";

export type OrderDbRow = Record<string, unknown> & { id: number; user_id: number };

export const names = (orders: Order[]) => orders.map((o) => o.productname);
export const ids = (orders: Order[]) => orders.map((o) => o.orderid);

/** Whether an instant is within `ms` of now. */
export const near = (iso: string | null, ms = 60_000) =>
  iso !== null && Math.abs(Date.parse(iso) - Date.now()) < ms;

export function orderApi(harness: () => Harness) {
  const orderRows = (): OrderDbRow[] =>
    harness().db.$client.query("SELECT * FROM orders ORDER BY id").all() as OrderDbRow[];
  return {
    orderRows,
    orderRow: (id: number): OrderDbRow | null =>
      (harness().db.$client.query("SELECT * FROM orders WHERE id = ?").get(id) as OrderDbRow) ??
      null,
    snapshot: () => JSON.stringify(orderRows()),

    async create(token: string, body: Record<string, unknown> = {}): Promise<Order> {
      const res = await call<Order>(harness(), "POST", "/api/orders", {
        token,
        body: { productname: "Bamboo Cutting Board", asin: "B0TEST0001", ...body },
      });
      if (res.status !== 201) {
        throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body;
    },
    put: (token: string, id: number, body: Record<string, unknown>) =>
      call<Order>(harness(), "PUT", `/api/orders/${id}`, { token, body }),
    get: (token: string, id: number) =>
      call<Order>(harness(), "GET", `/api/orders/${id}`, { token }),
    tracking: (token: string, id: number, body: Record<string, unknown>) =>
      call<TrackingUpdateResponse>(harness(), "PUT", `/api/orders/${id}/tracking`, {
        token,
        body,
      }),

    /** Rows straight into SQLite, for seeded sets with chosen dates. */
    seed<const T extends readonly SeedRow[]>(
      userId: number,
      rows: T,
    ): { -readonly [K in keyof T]: number } {
      return seedOrders(harness().db, userId, [...rows]) as { -readonly [K in keyof T]: number };
    },

    async list(token: string, query = "") {
      const res = await call<Order[]>(harness(), "GET", `/api/orders${query}`, { token });
      return { ...res, total: Number(res.res.headers.get("x-total-count")) };
    },
  };
}
