/**
 * Carrier tracking (docs/api.md): the preferences query and the update calls, with the toasts of docs/messages.md.
 * Keys are request paths, so the default query function GETs them.
 *
 * The dashboard and the order cards are in the first-load bundle: they import this module with
 * `import()` when a button is pressed, and call the plain functions (updateAllTracking,
 * updateOrderTracking), which show their own toasts and never throw.
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Order } from "../../src/contract/orders.ts";
import type {
  TrackingPreferences,
  TrackingPreferencesBody,
  UpdateAllTrackingResponse,
  UpdateOrderTrackingResponse,
} from "../../src/contract/tracking.ts";
import { apiJson, FIVE_MINUTES, readerMessage } from "../lib/api.ts";
import { useAuth } from "../lib/auth.tsx";
import { orderKeys, trackingKeys, userKeys } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";
import {
  orderRefreshToast,
  preferencesErrorToast,
  preferencesSavedToast,
  type ToastSpec,
  updateAllErrorToast,
  updateAllToast,
  updateOrderErrorToast,
  updateOrderToast,
} from "../lib/tracking-toasts.ts";
import { invalidateAfterOrderChange } from "./useOrders.ts";

const show = (t: ToastSpec) => toast(t);
const showError = (err: unknown, t: ToastSpec) => toastError(err, t.title, t.description);
const serverMessage = (err: unknown) => readerMessage(err);

/* ---- Preferences ---- */

/** GET /api/tracking/preferences: only when signed in; cached 5 minutes; one retry (docs/api.md). */
export function useTrackingPreferences() {
  const { user } = useAuth();
  return useQuery<TrackingPreferences>({
    queryKey: trackingKeys.preferences(),
    enabled: user !== null,
    staleTime: FIVE_MINUTES,
    retry: 1,
  });
}

/**
 * POST /api/tracking/preferences. The zone is also the one every date is shown in (docs/behaviour.md#states-and-transitions), so
 * the user's data is refetched too.
 */
export function useSaveTrackingPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TrackingPreferencesBody) =>
      apiJson<unknown>("POST", "/api/tracking/preferences", body),
    onSuccess: (_res, body) => {
      queryClient.setQueryData<TrackingPreferences>(trackingKeys.preferences(), {
        timezone: body.timezone,
        trackingUpdateTime: body.updateTime,
      });
      void queryClient.invalidateQueries({ queryKey: trackingKeys.preferences() });
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      show(preferencesSavedToast());
    },
    onError: (err) => showError(err, preferencesErrorToast(serverMessage(err))),
  });
}

/* ---- Update calls ---- */

/**
 * POST /api/tracking/update-all (the dashboard's Shipped refresh, Update All Tracking), with its
 * toast; orders and the dashboard are refetched either way. Resolves to the summary, or null.
 */
export async function updateAllTracking(
  queryClient: QueryClient,
): Promise<UpdateAllTrackingResponse | null> {
  try {
    const res = await apiJson<UpdateAllTrackingResponse>("POST", "/api/tracking/update-all");
    show(updateAllToast(res));
    return res;
  } catch (err) {
    showError(err, updateAllErrorToast(serverMessage(err)));
    return null;
  } finally {
    void invalidateAfterOrderChange(queryClient);
  }
}

/** POST /api/tracking/update-order/{id} (a card's Update Tracking), with its toast. */
export async function updateOrderTracking(
  queryClient: QueryClient,
  orderid: number,
): Promise<UpdateOrderTrackingResponse | null> {
  try {
    const res = await apiJson<UpdateOrderTrackingResponse>(
      "POST",
      `/api/tracking/update-order/${orderid}`,
    );
    if (res.order) queryClient.setQueryData(orderKeys.detail(orderid), res.order);
    show(updateOrderToast(res));
    return res;
  } catch (err) {
    showError(err, updateOrderErrorToast(serverMessage(err)));
    return null;
  } finally {
    void invalidateAfterOrderChange(queryClient);
  }
}

export function useUpdateAllTracking() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => updateAllTracking(queryClient) });
}

/**
 * POST /api/orders/{id}/tracking/update (Update Tracking in Edit Order): 'Tracking updated' and
 * the order is refetched, or 'Update failed'.
 */
export function useRefreshOrderTracking(orderid: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ order?: Order }>("POST", `/api/orders/${orderid}/tracking/update`),
    onSuccess: () => show(orderRefreshToast()),
    onError: (err) => showError(err, updateOrderErrorToast(serverMessage(err))),
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
}
