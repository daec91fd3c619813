/**
 * Tracking refresh buttons for the first-load screens (the dashboard's Shipped card, the order
 * cards). The tracking code (web/hooks/useTracking.ts, its toasts) loads on the first press, so
 * the dashboard's bundle only carries these few lines.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CARRIER_LABELS, type Carrier } from "../../../src/contract/constants.ts";
import type { Order } from "../../../src/contract/orders.ts";
import { usePublicConfig } from "../../hooks/usePublicConfig.ts";
import { translate, useT } from "../../i18n/index.ts";
import { isAdmin, useAuth } from "../../lib/auth.tsx";
import { toastError } from "../../lib/toast.tsx";
import "../../styles/tracking.css";

type TrackingModule = typeof import("../../hooks/useTracking.ts");
const loadTracking = (): Promise<TrackingModule> => import("../../hooks/useTracking.ts");

/** Runs one call of the tracking module with a busy flag; a failed chunk load gets a toast. */
function useTrackingCall() {
  const [busy, setBusy] = useState(false);
  const run = async (call: (m: TrackingModule) => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    try {
      await call(await loadTracking());
    } catch (err) {
      toastError(
        err,
        translate("tracking.updateFailed"),
        translate("tracking.updateFailedDescription"),
      );
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** The Shipped card's refresh (docs/screens.md): a tracking update for all Shipped orders. */
export function ShippedRefreshButton() {
  const queryClient = useQueryClient();
  const { busy, run } = useTrackingCall();
  const t = useT();
  return (
    <button
      type="button"
      className="status-card-refresh secondary outline"
      aria-label={t("tracking.updateAllShipped")}
      title={t("tracking.updateAllShipped")}
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => void run((m) => m.updateAllTracking(queryClient))}
    >
      <span aria-hidden="true">↻</span>
    </button>
  );
}

/**
 * False when this server has no look-up for the carrier (GET /api/config's trackingCarriers):
 * Update Tracking could only fail. True while the configuration loads.
 */
export function useCanLookUp(carrier: Carrier | null | undefined): boolean {
  const config = usePublicConfig().data;
  if (!config) return true;
  return carrier != null && config.trackingCarriers.includes(carrier);
}

/** The line under a disabled Update Tracking: why, and for the administrator where to set it up. */
export function TrackingLookupNote(props: { id?: string; carrier: Carrier | null }) {
  const admin = isAdmin(useAuth().user);
  const t = useT();
  const { carrier } = props;
  if (carrier === "AMAZON") {
    return (
      <small id={props.id} className="muted tracking-unavailable">
        {t("tracking.amazonNoLookup")}
      </small>
    );
  }
  return (
    <small id={props.id} className="muted tracking-unavailable">
      {carrier && carrier !== "OTHER"
        ? t("tracking.noLookupFor", { carrier: CARRIER_LABELS[carrier] })
        : t("tracking.noLookup")}
      {admin && <> {t("tracking.noLookupAdmin")}</>}
    </small>
  );
}

/** A card's Update Tracking: asks the carrier about this one order. */
export function UpdateOrderTrackingButton(props: { order: Order; disabled?: boolean }) {
  const queryClient = useQueryClient();
  const { busy, run } = useTrackingCall();
  const canLookUp = useCanLookUp(props.order.carrier);
  const noteId = `tracking-note-${props.order.orderid}`;
  const t = useT();
  return (
    <>
      <button
        type="button"
        className="outline secondary small tracking-update"
        aria-label={t("tracking.updateOrderLabel", { product: props.order.productname })}
        aria-describedby={canLookUp ? undefined : noteId}
        disabled={busy || props.disabled || !canLookUp}
        aria-busy={busy || undefined}
        onClick={() => void run((m) => m.updateOrderTracking(queryClient, props.order.orderid))}
      >
        {t("tracking.updateOrder")}
      </button>
      {!canLookUp && <TrackingLookupNote id={noteId} carrier={props.order.carrier} />}
    </>
  );
}
