/**
 * Orders through the API, to set up state quickly (a user's many orders, a delivered order, dates
 * in the past). Everything a test checks is still done through the browser.
 */
import type { APIRequestContext } from "@playwright/test";
import type { Order, OrderStatus } from "../../src/contract/index.ts";
import { DashboardPage } from "../pages/DashboardPage.ts";
import { AddOrderPage, EditOrderPage } from "../pages/EditOrderPage.ts";
import { OrdersPage } from "../pages/OrdersPage.ts";
import { test as base, expect } from "./fixtures.ts";

/** The shared `test` plus the order screens' page models. */
export const test = base.extend<{
  dashboard: DashboardPage;
  ordersPage: OrdersPage;
  editOrder: EditOrderPage;
  addOrder: AddOrderPage;
}>({
  dashboard: async ({ page }, use) => use(new DashboardPage(page)),
  ordersPage: async ({ page }, use) => use(new OrdersPage(page)),
  editOrder: async ({ page }, use) => use(new EditOrderPage(page)),
  addOrder: async ({ page }, use) => use(new AddOrderPage(page)),
});
export { expect };

export type NewOrder = {
  productname: string;
  asin: string;
  amazonordernumber?: string | null;
  producturl?: string | null;
  productimage?: string | null;
  estimatedretailvalue?: string | null;
  expecteddeliverydate?: string | null;
  expecteddeliverydatetext?: string | null;
  dateordered?: string | null;
  datedelivered?: string | null;
  status?: OrderStatus;
  trackingnumber?: string | null;
  carrier?: string | null;
  rating?: number | null;
  reviewsubject?: string | null;
  reviewtext?: string | null;
  datereviewsubmitted?: string | null;
  datereviewapproved?: string | null;
  datereviewrejected?: string | null;
  shiptoaddress?: string | null;
};

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

let serial = 0;
/** An Amazon-looking order number no other order of the run has. */
export function orderNumber(): string {
  serial += 1;
  const n = `${Date.now() % 10_000_000}${serial}`.padStart(7, "0").slice(-7);
  return `112-${String(process.pid % 10_000_000).padStart(7, "0")}-${n}`;
}

export async function createOrderApi(
  request: APIRequestContext,
  token: string,
  order: NewOrder,
): Promise<Order> {
  const res = await request.post("/api/orders", { headers: auth(token), data: order });
  expect(res.status(), `creating ${order.productname}: ${await res.text()}`).toBe(201);
  return (await res.json()) as Order;
}

export async function updateOrderApi(
  request: APIRequestContext,
  token: string,
  id: number,
  changes: Partial<NewOrder>,
): Promise<Order> {
  const res = await request.put(`/api/orders/${id}`, { headers: auth(token), data: changes });
  expect(res.status(), `updating order ${id}: ${await res.text()}`).toBe(200);
  return (await res.json()) as Order;
}

export async function getOrderApi(
  request: APIRequestContext,
  token: string,
  id: number,
): Promise<Order> {
  const res = await request.get(`/api/orders/${id}`, { headers: auth(token) });
  expect(res.status()).toBe(200);
  return (await res.json()) as Order;
}

/** Creates `count` Ordered orders named `${prefix} 01`, `${prefix} 02`, … one after the other. */
export async function createManyOrders(
  request: APIRequestContext,
  token: string,
  count: number,
  prefix = "Bulk Item",
): Promise<Order[]> {
  const made: Order[] = [];
  for (let i = 1; i <= count; i++) {
    made.push(
      await createOrderApi(request, token, {
        productname: `${prefix} ${String(i).padStart(2, "0")}`,
        asin: `B0BULK${String(i).padStart(4, "0")}`,
        amazonordernumber: orderNumber(),
        estimatedretailvalue: `${10 + i}.00`,
      }),
    );
  }
  return made;
}

/** A UPS number with a valid check digit (the carrier detector recognises it). */
export const UPS_NUMBER = "1Z999AA10123456784";
