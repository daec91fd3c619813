/**
 * Orders: query keys, queries and mutations (docs/api.md). Keys are request paths, so the default
 * query function can GET them; every order change invalidates the orders, the order's detail and
 * the dashboard (the list reads X-Total-Count, so it has a query function of its own).
 */
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Carrier, OrderStatus } from "../../src/contract/constants.ts";
import type {
  DetectCarrierResponse,
  Order,
  TrackingUpdateResponse,
} from "../../src/contract/orders.ts";
import { ApiError, apiJson, apiRequest } from "../lib/api.ts";
import {
  CARRIER_DETECT_DEBOUNCE_MS,
  type ListView,
  ordersApiPath,
  shouldDetectCarrier,
  TRACKING_ERROR_TITLE,
  TRACKING_SAVED_TITLE,
  TRACKING_WARNING_DELAY_MS,
  TRACKING_WARNING_TITLE,
  trackingErrorDescription,
  trackingSuccessDescription,
} from "../lib/orders.ts";
import { toast, toastError } from "../lib/toast.tsx";
import { invalidateDashboard } from "./useDashboard.ts";

export const orderKeys = {
  all: () => ["/api/orders"] as const,
  list: (view: ListView) => [ordersApiPath(view)] as const,
  detail: (id: number | string) => [`/api/orders/${id}`] as const,
};

const isOrdersKey = (key: readonly unknown[]) =>
  typeof key[0] === "string" && key[0].startsWith("/api/orders");

/** Marks every orders query (lists and details) stale and refetches the ones on screen. */
export function invalidateOrders(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (q) => isOrdersKey(q.queryKey) });
}

/** After any order mutation: orders, order details and the dashboard (docs/api.md). */
export function invalidateAfterOrderChange(queryClient: QueryClient) {
  return Promise.all([invalidateOrders(queryClient), invalidateDashboard(queryClient)]);
}

export type OrderPage = { orders: Order[]; total: number };

/** One page of the orders list; the total comes from the X-Total-Count header. */
export function useOrderList(view: ListView) {
  return useQuery<OrderPage>({
    queryKey: orderKeys.list(view),
    queryFn: async ({ queryKey }) => {
      const res = await apiRequest("GET", String(queryKey[0]));
      const orders = (await res.json()) as Order[];
      const header = Number.parseInt(res.headers.get("X-Total-Count") ?? "", 10);
      return { orders, total: Number.isFinite(header) ? header : orders.length };
    },
    placeholderData: keepPreviousData,
  });
}

/** One order, always fetched fresh (docs/api.md). A missing order is not retried. */
export function useOrder(id: number) {
  return useQuery<Order>({
    queryKey: orderKeys.detail(id),
    staleTime: 0,
    enabled: Number.isInteger(id) && id > 0,
  });
}

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The JSON `details` of a failed call, when the server sent one. */
function errorDetails(err: unknown): unknown {
  if (!(err instanceof ApiError)) return undefined;
  try {
    return (JSON.parse(err.body) as { details?: unknown }).details;
  } catch {
    return undefined;
  }
}

export function trackingErrorText(err: unknown): string {
  const message = err instanceof ApiError ? (err.serverMessage ?? err.message) : null;
  return trackingErrorDescription(message, errorDetails(err));
}

/** The success toast of a tracking save, then its warning one second later (docs/messages.md). */
export function toastTrackingSaved(res: TrackingUpdateResponse, timeZone?: string) {
  toast({
    title: TRACKING_SAVED_TITLE,
    description: trackingSuccessDescription(res, timeZone),
    variant: "success",
  });
  const warning = res.warning;
  if (warning) {
    setTimeout(
      () => toast({ title: TRACKING_WARNING_TITLE, description: warning }),
      TRACKING_WARNING_DELAY_MS,
    );
  }
}

export function toastTrackingError(err: unknown) {
  toastError(err, TRACKING_ERROR_TITLE, trackingErrorText(err));
}

export type TrackingInput = { trackingnumber: string | null; carrier: Carrier | null };

/** PUT /api/orders/{id}/tracking with its toasts. */
export function useSaveTracking(timeZone?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: number } & TrackingInput) =>
      apiJson<TrackingUpdateResponse>("PUT", `/api/orders/${vars.id}/tracking`, {
        trackingnumber: vars.trackingnumber,
        carrier: vars.carrier,
      }),
    onSuccess: (res) => {
      queryClient.setQueryData(orderKeys.detail(res.order.orderid), res.order);
      toastTrackingSaved(res, timeZone);
    },
    onError: toastTrackingError,
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
}

/** PUT /api/orders/{id} with only the status (the list's inline change), with its toasts. */
export function useSetOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: number; status: OrderStatus }) =>
      apiJson<Order>("PUT", `/api/orders/${vars.id}`, { status: vars.status }),
    onSuccess: (_order, vars) =>
      toast({
        title: "Status updated successfully",
        description: `Order marked as ${vars.status}`,
        variant: "success",
      }),
    onError: (err) =>
      toastError(err, "Update failed", "Failed to update order status. Please try again."),
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
}

/**
 * Carrier detection for a tracking number being typed (docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation): after a 500 ms pause, from
 * 8 trimmed characters. `onResult` gets the carrier (null when it cannot be told) for the number
 * that was asked about, and only while that number is still the one typed.
 */
export function useCarrierDetection(
  trackingnumber: string,
  active: boolean,
  onResult: (carrier: Carrier | null) => void,
) {
  const [detecting, setDetecting] = useState(false);
  const callback = useRef(onResult);
  callback.current = onResult;
  useEffect(() => {
    if (!active || !shouldDetectCarrier(trackingnumber)) return;
    let stale = false;
    const timer = setTimeout(async () => {
      setDetecting(true);
      try {
        const res = await apiJson<DetectCarrierResponse>("POST", "/api/shipping/detect-carrier", {
          trackingNumber: trackingnumber.trim(),
        });
        if (!stale) callback.current(res.carrier ?? null);
      } catch (err) {
        // Detection only helps: the user can still choose the carrier.
        if (!stale) console.warn("Carrier detection failed", err);
      } finally {
        if (!stale) setDetecting(false);
      }
    }, CARRIER_DETECT_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
      setDetecting(false);
    };
  }, [trackingnumber, active]);
  return detecting;
}
