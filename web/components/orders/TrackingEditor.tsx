/**
 * Inline tracking edit on an order card (docs/behaviour.md#states-and-transitions): number and carrier. When focus leaves the editor
 * it waits 200 ms (focus may just be moving between its two fields), then saves through
 * PUT /api/orders/{id}/tracking only if the number or carrier changed, otherwise it just closes.
 * An empty number clears the carrier. Enter or Save saves at once; Escape or Cancel closes
 * without saving.
 */
import { type FocusEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { Carrier } from "../../../src/contract/constants.ts";
import type { Order } from "../../../src/contract/orders.ts";
import { useCarrierDetection, useSaveTracking } from "../../hooks/useTrackingEntry.ts";
import { useT } from "../../i18n/index.ts";
import { CarrierSelect } from "./CarrierSelect.tsx";
import "../../styles/order-card.css";

/** After focus leaves the editor: focus may just be moving between its fields (docs/behaviour.md#constants-and-limits). */
const BLUR_SAVE_DELAY_MS = 200;

export function TrackingEditor(props: { order: Order; timeZone: string; onDone: () => void }) {
  const { order } = props;
  const [number, setNumber] = useState(order.trackingnumber ?? "");
  const [carrier, setCarrier] = useState<Carrier | "">(order.carrier ?? "");
  const [carrierTouched, setCarrierTouched] = useState(false);
  const group = useRef<HTMLFieldSetElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const finishing = useRef(false);
  const save = useSaveTracking(props.timeZone);
  const t = useT();

  // A number typed here gets its carrier detected as on the edit screen, unless one was chosen.
  const detecting = useCarrierDetection(
    number,
    number.trim() !== (order.trackingnumber ?? "") && !carrierTouched,
    (found) => {
      if (found) setCarrier(found);
    },
  );

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function finish() {
    if (finishing.current) return;
    finishing.current = true;
    const trimmed = number.trim();
    const chosen: Carrier | null = trimmed ? carrier || null : null;
    const unchanged =
      trimmed === (order.trackingnumber ?? "") && chosen === (order.carrier ?? null);
    if (unchanged) {
      props.onDone();
      return;
    }
    // A number saved without a carrier gets one detected by the server (PUT …/tracking).
    save.mutate(
      { id: order.orderid, trackingnumber: trimmed || null, carrier: chosen },
      { onSettled: () => props.onDone() },
    );
  }

  function onBlur(e: FocusEvent<HTMLFieldSetElement>) {
    if (group.current?.contains(e.relatedTarget as Node | null)) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (group.current?.contains(document.activeElement)) return;
      finish();
    }, BLUR_SAVE_DELAY_MS);
  }

  function onFocus() {
    if (timer.current) clearTimeout(timer.current);
  }

  function cancel() {
    if (timer.current) clearTimeout(timer.current);
    finishing.current = true;
    props.onDone();
  }

  function onKeyDown(e: KeyboardEvent<HTMLFieldSetElement>) {
    if (e.key === "Escape") {
      e.preventDefault();
      cancel();
    } else if (e.key === "Enter" && e.target instanceof HTMLInputElement) {
      e.preventDefault();
      finish();
    }
  }

  const busy = save.isPending;
  return (
    <fieldset
      ref={group}
      aria-label={t("tracking.editorLabel", { product: order.productname })}
      className="tracking-editor"
      onBlur={onBlur}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
      aria-busy={busy || undefined}
    >
      <input
        autoFocus
        aria-label={t("tracking.number")}
        placeholder={t("tracking.number")}
        value={number}
        disabled={busy}
        onChange={(e) => {
          setNumber(e.currentTarget.value);
          if (e.currentTarget.value.trim() === "") setCarrier("");
        }}
      />
      <CarrierSelect
        aria-label={t("tracking.carrier")}
        value={carrier}
        disabled={busy || number.trim() === ""}
        aria-busy={detecting || undefined}
        onChange={(c) => {
          setCarrier(c);
          setCarrierTouched(true);
        }}
      />
      <span className="tracking-editor-buttons">
        <button
          type="button"
          className="small"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={finish}
        >
          {t("common.save")}
        </button>
        <button type="button" className="outline secondary small" disabled={busy} onClick={cancel}>
          {t("common.cancel")}
        </button>
      </span>
    </fieldset>
  );
}
