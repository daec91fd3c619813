/**
 * Orders: queries and mutations (docs/api.md). Keys (web/lib/query-keys.ts) are request paths, so the default
 * query function can GET them; every order change invalidates the orders, the order's detail and
 * the dashboard (the list reads X-Total-Count, so it has a query function of its own).
 */
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { OrderStatus } from "../../src/contract/constants.ts";
import type { Order } from "../../src/contract/orders.ts";
import { translate } from "../i18n/index.ts";
import { ApiError, apiJson, apiRequest } from "../lib/api.ts";
import type { ListView } from "../lib/order-list-view.ts";
import { statusLabel } from "../lib/order-status.ts";
import { keyMatches, orderKeys, under } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";
import { invalidateDashboard } from "./useDashboard.ts";

/** Marks every orders query (lists and details) stale and refetches the ones on screen. */
export function invalidateOrders(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) => keyMatches(q.queryKey, under(orderKeys.all())),
  });
}

/** After any order mutation: orders, order details and the dashboard (docs/api.md). */
export function invalidateAfterOrderChange(queryClient: QueryClient) {
  return Promise.all([invalidateOrders(queryClient), invalidateDashboard(queryClient)]);
}

export type OrderPage = { orders: Order[]; total: number };

/** One page of the orders list; the total comes from the X-Total-Count header. */
export function useOrderList(view: ListView) {
  return useQuery({ ...orderListQuery(view), placeholderData: keepPreviousData });
}

/** The list query's key and function (also used to fill the cache before the first render). */
export const orderListQuery = (view: ListView) =>
  queryOptions<OrderPage>({
    queryKey: orderKeys.list(view),
    queryFn: async ({ queryKey }) => {
      const res = await apiRequest("GET", String(queryKey[0]));
      const orders = (await res.json()) as Order[];
      const header = Number.parseInt(res.headers.get("X-Total-Count") ?? "", 10);
      return { orders, total: Number.isFinite(header) ? header : orders.length };
    },
  });

/** One order, always fetched fresh (docs/api.md). A missing order is not retried. */
export function useOrder(id: number) {
  return useQuery<Order>({
    queryKey: orderKeys.detail(id),
    staleTime: 0,
    enabled: Number.isInteger(id) && id > 0,
  });
}

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** PUT /api/orders/{id} with only the status (the list's inline change), with its toasts. */
export function useSetOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: number; status: OrderStatus }) =>
      apiJson<Order>("PUT", `/api/orders/${vars.id}`, { status: vars.status }),
    onSuccess: (_order, vars) =>
      toast({
        title: translate("orders.statusUpdated"),
        description: translate("orders.statusUpdatedDescription", {
          status: statusLabel(vars.status),
        }),
        variant: "success",
      }),
    onError: (err) =>
      toastError(err, translate("orders.updateFailed"), translate("orders.statusUpdateFailed")),
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
}
