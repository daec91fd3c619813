/**
 * "Mark delivered" for orders the Itemized Report says shipped and nobody tracks
 * (docs/screens.md): one order's dialog (a day, by default the shipped day plus the marketplace's
 * usual days, said beside it) and the Orders page's "Mark all delivered" (each on its usual day,
 * or all on one day). Loaded on demand from the cards and the Orders page.
 */
import { Trans } from "@lingui/react";
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
import { type T, useT } from "../../i18n/index.ts";
import { apiJson, errorMessage } from "../../lib/api.ts";
import { dayKey, displayDay } from "../../lib/order-days.ts";
import { orderKeys } from "../../lib/query-keys.ts";
import { toast, toastError } from "../../lib/toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { Check, Field } from "../Field.tsx";

/** A mark-delivered call failed: the server's sentence, else "Please try again." */
function markFailed(t: T, err: unknown) {
  toastError(err, t("orders.updateFailed"), errorMessage(err, t("orders.tryAgain")));
}

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
  const t = useT();
  const save = useMutation({
    mutationFn: () =>
      apiJson<Order>("POST", `/api/orders/${order.orderid}/delivered`, { datedelivered: day }),
    onSuccess: (saved) => {
      toast({
        title: t("card.markedDelivered"),
        description: t("card.markedDeliveredDescription", {
          product: saved.productname,
          date: displayDay(saved.datedelivered, timeZone),
        }),
        variant: "success",
      });
      props.onClose();
    },
    onError: (err) => markFailed(t, err),
    // The untracked list's key starts with /api/orders: invalidated with the orders.
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
  return (
    <Dialog
      open={props.open}
      title={t("card.markDelivered")}
      onClose={props.onClose}
      className="mark-delivered"
      footer={
        <DialogButtons
          label={t("card.markDelivered")}
          disabled={!day}
          pending={save.isPending}
          onCancel={props.onClose}
          onConfirm={() => save.mutate()}
        />
      }
    >
      <p>
        {order.dateshipped ? (
          <Trans
            id="card.markDeliveredIntroShipped"
            values={{
              // An element, so a product name is shown as text, never read as markup.
              product: <>{order.productname}</>,
              date: displayDay(order.dateshipped, timeZone),
            }}
            components={{ 0: <strong /> }}
          />
        ) : (
          <Trans
            id="card.markDeliveredIntro"
            values={{ product: <>{order.productname}</> }}
            components={{ 0: <strong /> }}
          />
        )}
      </p>
      <Field
        layout="stack"
        id={inputId}
        label={t("card.deliveredOn")}
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
        {t(
          suggested === today && order.dateshipped
            ? "card.suggestedNotAfterToday"
            : "card.suggested",
          {
            date: displayDay(suggested, timeZone),
            days: USUAL_DELIVERY_DAYS[marketplace],
            domain: MARKETPLACE_DOMAIN[marketplace],
          },
        )}
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
  const t = useT();
  const list = data?.orders ?? [];
  if (list.length === 0) return null;
  return (
    <div className="untracked-note" role="status">
      <p>
        <Trans
          id="card.untrackedNote"
          values={{ count: list.length }}
          components={{ 0: <strong /> }}
        />
      </p>
      <button type="button" className="small" onClick={() => setOpen(true)}>
        {t("card.markAllDeliveredButton")}
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
  const t = useT();
  const save = useMutation({
    mutationFn: () =>
      apiJson<MarkDeliveredAllResponse>(
        "POST",
        "/api/orders/untracked/delivered",
        mode === "one" ? { datedelivered: day } : {},
      ),
    onSuccess: (res) => {
      // The server's message is English: the same sentence, in the reader's language.
      toast({
        title: t("card.markedDelivered"),
        description: t("card.markedDeliveredCount", { count: res.updated }),
        variant: "success",
      });
      props.onClose();
    },
    onError: (err) => markFailed(t, err),
    // The untracked list's key starts with /api/orders: invalidated with the orders.
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });
  const n = props.orders.length;
  return (
    <Dialog
      open
      title={t("card.markAllDelivered")}
      onClose={props.onClose}
      className="mark-delivered"
      footer={
        <DialogButtons
          label={t("card.markCountDelivered", { count: n })}
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
          label={t("card.markUsualDay")}
        />
        <Check
          kind="radio"
          name={name}
          checked={mode === "one"}
          onChecked={() => setMode("one")}
          label={t("card.markOneDay")}
        />
        {mode === "one" && (
          <input
            type="date"
            aria-label={t("card.deliveredOn")}
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
              {mode === "usual"
                ? t("card.shippedToUsual", {
                    shipped: displayDay(o.dateshipped, timeZone),
                    delivered: displayDay(o.suggesteddelivered, timeZone),
                    days: o.usualdays,
                    domain: MARKETPLACE_DOMAIN[o.marketplace as MarketplaceCode] ?? "com",
                  })
                : t("card.shippedTo", {
                    shipped: displayDay(o.dateshipped, timeZone),
                    delivered: displayDay(day, timeZone),
                  })}
            </small>
          </li>
        ))}
        {n > SHOWN && <li className="muted">{t("card.andMore", { count: n - SHOWN })}</li>}
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
  const t = useT();
  return (
    <>
      <button type="button" className="secondary" onClick={props.onCancel}>
        {t("common.cancel")}
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
