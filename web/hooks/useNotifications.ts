/**
 * Notifications (docs/api.md): the list query and the four actions. Each action updates the cached list
 * at once (rolled back on failure) and then refetches it.
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Notification } from "../../src/contract/notifications.ts";
import { apiRequest } from "../lib/api.ts";
import { notificationKeys } from "../lib/query-keys.ts";

export function useNotifications(opts: { enabled?: boolean } = {}) {
  return useQuery<Notification[]>({ queryKey: notificationKeys.all(), ...opts });
}

export function unreadCount(list: readonly Notification[] | undefined): number {
  return list ? list.filter((n) => !n.isread).length : 0;
}

type Snapshot = { previous: Notification[] | undefined };

/** A mutation that edits the cached list optimistically, restores it on error, refetches after. */
function useListMutation<V>(
  request: (vars: V) => Promise<unknown>,
  edit: (list: Notification[], vars: V) => Notification[],
) {
  const queryClient = useQueryClient();
  return useMutation<unknown, Error, V, Snapshot>({
    mutationFn: request,
    onMutate: async (vars) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.all() });
      const previous = queryClient.getQueryData<Notification[]>(notificationKeys.all());
      if (previous) queryClient.setQueryData(notificationKeys.all(), edit(previous, vars));
      return { previous };
    },
    onError: (_err, _vars, ctx) => restore(queryClient, ctx),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
  });
}

function restore(queryClient: QueryClient, ctx: Snapshot | undefined) {
  if (ctx?.previous) queryClient.setQueryData(notificationKeys.all(), ctx.previous);
}

export function useMarkNotificationRead() {
  return useListMutation<number>(
    (id) => apiRequest("PUT", `/api/notifications/${id}/read`),
    (list, id) => list.map((n) => (n.notificationid === id ? { ...n, isread: true } : n)),
  );
}

export function useDeleteNotification() {
  return useListMutation<number>(
    (id) => apiRequest("DELETE", `/api/notifications/${id}`),
    (list, id) => list.filter((n) => n.notificationid !== id),
  );
}

export function useMarkAllNotificationsRead() {
  return useListMutation<void>(
    () => apiRequest("PUT", "/api/notifications/mark-all-read"),
    (list) => list.map((n) => (n.isread ? n : { ...n, isread: true })),
  );
}

export function useDeleteAllNotifications() {
  return useListMutation<void>(
    () => apiRequest("DELETE", "/api/notifications/delete-all"),
    () => [],
  );
}
