/**
 * Typing and saving a tracking number (the card's inline editor, Add and Edit Order): carrier
 * detection while typing, PUT /api/orders/{id}/tracking and the save toasts (docs/messages.md).
 * Apart from useOrders.ts so the first screen's bundle does not carry them.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Carrier } from "../../src/contract/constants.ts";
import type { DetectCarrierResponse, TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { ApiError, apiJson } from "../lib/api.ts";
import { CARRIER_DETECT_DEBOUNCE_MS, shouldDetectCarrier } from "../lib/carrier-detection.ts";
import { orderKeys } from "../lib/query-keys.ts";
import { serverSentence } from "../lib/server-text.ts";
import { toast, toastError } from "../lib/toast.tsx";
import {
  TRACKING_WARNING_DELAY_MS,
  trackingErrorDescription,
  trackingErrorTitle,
  trackingSavedTitle,
  trackingSuccessDescription,
  trackingWarningTitle,
} from "../lib/tracking-save-toasts.ts";
import { invalidateAfterOrderChange } from "./useOrders.ts";

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
    title: trackingSavedTitle(),
    description: trackingSuccessDescription(res, timeZone),
    variant: "success",
  });
  const warning = res.warning
    ? serverSentence(res.warningCode, res.warningValues, res.warning)
    : null;
  if (warning) {
    setTimeout(
      () => toast({ title: trackingWarningTitle(), description: warning }),
      TRACKING_WARNING_DELAY_MS,
    );
  }
}

export function toastTrackingError(err: unknown) {
  toastError(err, trackingErrorTitle(), trackingErrorText(err));
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
