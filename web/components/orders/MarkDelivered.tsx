/**
 * "Mark delivered" for orders the Itemized Report says shipped and nobody tracks
 * (docs/screens.md): one order's dialog (a day, by default the shipped day plus the marketplace's
 * usual days, said beside it) and the Orders page's "Mark all delivered" (each on its usual day,
 * or all on one day). Loaded on demand from the cards and the Orders page.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import {
  MARKETPLACE_DOMAIN,
  type MarketplaceCode,
  orderMarketplace,
  USUAL_DELIVERY_DAYS,
  usualDeliveredDay,
} from "../../../src/contract/marketplaces.ts";
import type {
  MarkDeliveredAllResponse,
  Order,
  UntrackedShipmentsResponse,
} from "../../../src/contract/orders.ts";
import { invalidateAfterOrderChange } from "../../hooks/useOrders.ts";
import { useTimeZone } from "../../hooks/useTimeZone.ts";
import { useUserData } from "../../hooks/useUser.ts";
import { apiJson, errorMessage } from "../../lib/api.ts";
import { dayKey, displayDay } from "../../lib/order-days.ts";
import { orderKeys } from "../../lib/query-keys.ts";
import { toast, toastError } from "../../lib/toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { Check, Field } from "../Field.tsx";

const usualText = (m: MarketplaceCode) =>
  `${USUAL_DELIVERY_DAYS[m]} days after shipping is usual on amazon.${MARKETPLACE_DOMAIN[m]}`;

/** One order's "Mark delivered" dialog. */
export function MarkDeliveredDialog(props: { order: Order; open: boolean; onClose: () => void }) {
  const { order } = props;
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const marketplace = orderMarketplace(order, useUserData().data?.vineMarketplace);
  const today = dayKey(new Date(), timeZone) ?? "";
  const suggested = order.dateshipped
    ? usualDeliveredDay(order.dateshipped, marketplace, today)
    : today;
  const [day, setDay] = useState(suggested);
  const inputId = useId();
  const save = useMutation({
    mutationFn: () =>
      apiJson<Order>("POST", `/api/orders/${order.orderid}/delivered`, { datedelivered: day }),
    onSuccess: (saved) => {
      toast({
        title: "Marked delivered",
        description: `${saved.productname}: delivered ${displayDay(saved.datedelivered, timeZone)}`,
        variant: "success",
      });
      props.onClose();
    },
    onError: (err) => toastError(err, "Update failed", errorMessage(err, "Please try again.")),
    // The untracked list's key starts with /api/orders: invalidated with the orders.
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
  return (
    <Dialog
      open={props.open}
      title="Mark delivered"
      onClose={props.onClose}
      className="mark-delivered"
      footer={
        <DialogButtons
          label="Mark delivered"
          disabled={!day}
          pending={save.isPending}
          onCancel={props.onClose}
          onConfirm={() => save.mutate()}
        />
      }
    >
      <p>
        <strong>{order.productname}</strong>
        {order.dateshipped && <> shipped {displayDay(order.dateshipped, timeZone)}</>} and has no
        tracking, so nothing will mark it delivered by itself.
      </p>
      <Field
        layout="stack"
        id={inputId}
        label="Delivered on"
        control={(a) => (
          <input
            {...a}
            type="date"
            value={day}
            max={today}
            onChange={(e) => setDay(e.currentTarget.value)}
          />
        )}
      />
      <small className="muted">
        Suggested: {displayDay(suggested, timeZone)} ({usualText(marketplace)}
        {suggested === today && order.dateshipped ? ", not after today" : ""}).
      </small>
    </Dialog>
  );
}

/** "Shipped, not tracked" orders (GET /api/orders/untracked). */
export function useUntracked() {
  return useQuery<UntrackedShipmentsResponse>({ queryKey: orderKeys.untracked(), staleTime: 0 });
}

/** The Orders page's note and "Mark all delivered" for every "shipped, not tracked" order. */
export function UntrackedShipments() {
  const { data } = useUntracked();
  const [open, setOpen] = useState(false);
  const list = data?.orders ?? [];
  if (list.length === 0) return null;
  const n = list.length;
  return (
    <div className="untracked-note" role="status">
      <p>
        <strong>
          {n} shipped {n === 1 ? "order has" : "orders have"} no tracking
        </strong>{" "}
        (from your Itemized Report): nothing will mark {n === 1 ? "it" : "them"} delivered, so{" "}
        {n === 1 ? "it does" : "they do"} not reach review reminders. Their cards say "Not tracked",
        apart from parcels in transit.
      </p>
      <button type="button" className="small" onClick={() => setOpen(true)}>
        Mark all delivered…
      </button>
      {open && <MarkAllDialog orders={list} onClose={() => setOpen(false)} />}
    </div>
  );
}

const SHOWN = 8;

function MarkAllDialog(props: {
  orders: UntrackedShipmentsResponse["orders"];
  onClose: () => void;
}) {
  const timeZone = useTimeZone();
  const queryClient = useQueryClient();
  const today = dayKey(new Date(), timeZone) ?? "";
  const [mode, setMode] = useState<"usual" | "one">("usual");
  const [day, setDay] = useState(today);
  const name = useId();
  const save = useMutation({
    mutationFn: () =>
      apiJson<MarkDeliveredAllResponse>(
        "POST",
        "/api/orders/untracked/delivered",
        mode === "one" ? { datedelivered: day } : {},
      ),
    onSuccess: (res) => {
      toast({ title: "Marked delivered", description: res.message, variant: "success" });
      props.onClose();
    },
    onError: (err) => toastError(err, "Update failed", errorMessage(err, "Please try again.")),
    // The untracked list's key starts with /api/orders: invalidated with the orders.
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
  const n = props.orders.length;
  return (
    <Dialog
      open
      title="Mark all delivered"
      onClose={props.onClose}
      className="mark-delivered"
      footer={
        <DialogButtons
          label={`Mark ${n} delivered`}
          disabled={mode === "one" && !day}
          pending={save.isPending}
          onCancel={props.onClose}
          onConfirm={() => save.mutate()}
        />
      }
    >
      <fieldset>
        <Check
          kind="radio"
          name={name}
          checked={mode === "usual"}
          onChecked={() => setMode("usual")}
          label="Each on its usual day: the shipped day plus its marketplace's usual days"
        />
        <Check
          kind="radio"
          name={name}
          checked={mode === "one"}
          onChecked={() => setMode("one")}
          label="All on one day"
        />
        {mode === "one" && (
          <input
            type="date"
            aria-label="Delivered on"
            value={day}
            max={today}
            onChange={(e) => setDay(e.currentTarget.value)}
          />
        )}
      </fieldset>
      <ul className="untracked-list">
        {props.orders.slice(0, SHOWN).map((o) => (
          <li key={o.orderid}>
            <span className="untracked-name">{o.productname}</span>
            <small className="muted">
              shipped {displayDay(o.dateshipped, timeZone)} →{" "}
              {displayDay(mode === "one" ? day : o.suggesteddelivered, timeZone)}
              {mode === "usual" &&
                ` (${o.usualdays} days, amazon.${MARKETPLACE_DOMAIN[o.marketplace as MarketplaceCode] ?? "com"})`}
            </small>
          </li>
        ))}
        {n > SHOWN && <li className="muted">and {n - SHOWN} more</li>}
      </ul>
    </Dialog>
  );
}

/** Cancel and the dialog's action, busy while the change is saved. */
function DialogButtons(props: {
  label: string;
  disabled: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <>
      <button type="button" className="secondary" onClick={props.onCancel}>
        Cancel
      </button>
      <button
        type="button"
        disabled={props.disabled || props.pending}
        aria-busy={props.pending || undefined}
        onClick={props.onConfirm}
      >
        {props.label}
      </button>
    </>
  );
}
