/**
 * Review media (docs/api.md): the media token for <img>/<video> URLs, upload, delete and reorder.
 * Each change writes the server's list into the order's cached detail and then invalidates the
 * orders and dashboard like every order change.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Order } from "../../src/contract/orders.ts";
import type { UploadMediaResponse } from "../../src/contract/reviews.ts";
import { apiJson, apiRequest, authHeaders, throwIfNotOk } from "../lib/api.ts";
import { mediaKeys, orderKeys } from "../lib/query-keys.ts";
import { invalidateAfterOrderChange } from "./useOrders.ts";

const HALF_HOUR = 30 * 60 * 1000;

/** A read-only media token (valid 1-2 h); renewed every half hour. */
export function useMediaToken() {
  return useQuery<{ token: string; expiresAt: string }>({
    queryKey: mediaKeys.token(),
    staleTime: HALF_HOUR,
    refetchInterval: HALF_HOUR,
  });
}

/** The address an <img> or <video> can load: the stored URL plus the media token. */
export const mediaSrc = (url: string, token: string | undefined) =>
  token ? `${url}?token=${encodeURIComponent(token)}` : url;

export function useReviewMedia(orderId: number) {
  const queryClient = useQueryClient();
  const setList = (urls: string[]) => {
    queryClient.setQueryData<Order>(orderKeys.detail(orderId), (o) =>
      o ? { ...o, reviewimages: urls } : o,
    );
    void invalidateAfterOrderChange(queryClient);
  };

  /** One file per request, so that each progress item can fail and be retried on its own. */
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const path = `/api/orders/${orderId}/review/images`;
      const body = new FormData();
      body.append("images", file);
      const res = await fetch(path, {
        method: "POST",
        headers: authHeaders(path),
        body,
        credentials: "include",
      });
      await throwIfNotOk(res);
      return (await res.json()) as UploadMediaResponse;
    },
    onSuccess: (r) => setList(r.urls),
  });

  const remove = useMutation({
    mutationFn: async (url: string) => {
      await apiRequest("DELETE", `/api/orders/${orderId}/review/images/${encodeURIComponent(url)}`);
      return url;
    },
    onSuccess: (url) => {
      const cur = queryClient.getQueryData<Order>(orderKeys.detail(orderId));
      setList((cur?.reviewimages ?? []).filter((u) => u !== url));
    },
  });

  const reorder = useMutation({
    mutationFn: (imageUrls: string[]) =>
      apiJson<{ urls: string[] }>("PUT", `/api/orders/${orderId}/review/images/order`, {
        imageUrls,
      }),
    onSuccess: (r) => setList(r.urls),
  });

  return { upload, remove, reorder };
}
