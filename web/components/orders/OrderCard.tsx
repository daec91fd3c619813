/**
 * One order as a card (dashboard and orders list). The product name links to the edit screen and a
 * click anywhere else on the card does the same. A card can open one inline editor (tracking on the
 * dashboard, status on the list); while any card edits, the others are blocked (docs/screens.md).
 */
import { lazy, type MouseEvent, Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import type { OrderStatus } from "../../../src/contract/constants.ts";
import type { MarketplaceCode } from "../../../src/contract/marketplaces.ts";
import type { Order } from "../../../src/contract/orders.ts";
import { useSetOrderStatus } from "../../hooks/useOrders.ts";
import { useT } from "../../i18n/index.ts";
import { writeReviewUrl } from "../../lib/amazon-links.ts";
import { deliveryAge, isJustDelivered } from "../../lib/delivery.ts";
import { formatMoney } from "../../lib/format.ts";
import { displayDay, reviewDateText } from "../../lib/order-days.ts";
import { editOrderPath } from "../../lib/order-links.ts";
import type { StatusFilter } from "../../lib/order-list-view.ts";
import { carrierLabel } from "../../lib/order-status.ts";
import { DeliveryDate } from "./DeliveryDate.tsx";
import { LateBadge } from "./LateBadge.tsx";
import { ProductImage } from "./ProductImage.tsx";
import { JustDeliveredBadge, StatusBadge } from "./StatusBadge.tsx";
import { UpdateOrderTrackingButton } from "./TrackingButtons.tsx";
import "../../styles/order-card.css";

// The inline editors open on a click, so they are not part of the first screen's bundle.
const TrackingEditor = lazy(() =>
  import("./TrackingEditor.tsx").then((m) => ({ default: m.TrackingEditor })),
);
const StatusSelect = lazy(() =>
  import("./StatusSelect.tsx").then((m) => ({ default: m.StatusSelect })),
);
const MarkDeliveredDialog = lazy(() =>
  import("./MarkDelivered.tsx").then((m) => ({ default: m.MarkDeliveredDialog })),
);
/** While an inline editor's code arrives (once per visit). */
function EditorLoading() {
  const t = useT();
  return <span className="muted">{t("common.loading")}</span>;
}
const EDITOR_LOADING = <EditorLoading />;

export type CardEditMode = "tracking" | "status";

const INTERACTIVE = "a, button, input, select, textarea, label, summary, fieldset";

export function OrderCard(props: {
  order: Order;
  timeZone: string;
  now: Date;
  /** Where the edit screen returns to (the current path and query). */
  from: string;
  /** The user's Vine marketplace (`GET /api/user/data`), read once by the list, not per card. */
  marketplace: MarketplaceCode | undefined;
  /** The list's status filter, for the per-filter extra info; undefined on the dashboard. */
  filter?: StatusFilter;
  mode: CardEditMode;
  editing: boolean;
  blocked: boolean;
  onEdit: () => void;
  onEditDone: () => void;
}) {
  const { order, timeZone, now, filter, marketplace } = props;
  const [, navigate] = useLocation();
  const t = useT();
  const href = editOrderPath(order.orderid, props.from);
  const justDelivered = isJustDelivered(order, now);
  const titleId = `order-${order.orderid}-title`;
  const inactive = props.blocked;

  function onCardClick(e: MouseEvent<HTMLElement>) {
    if (inactive || props.editing) return;
    if ((e.target as HTMLElement).closest(INTERACTIVE)) return;
    navigate(href);
  }

  const value = formatMoney(order.estimatedretailvalue, order.currency);
  const age = filter === "Received" ? deliveryAge(order.datedelivered, now) : null;
  const reviewDate =
    filter === "Review Submitted" || filter === "Review Approved" || filter === "Review Rejected"
      ? reviewDateText(order, timeZone)
      : null;
  const canEditReview = order.status === "Received" || order.status === "Review Rejected";
  // Shipped per the Itemized Report, no tracking: nothing will mark it delivered.
  const untracked =
    order.status === "Shipped" && !order.trackingnumber && Boolean(order.dateshipped);
  // Amazon's review form on the order's own site, where a review is due.
  const writeLink = canEditReview ? writeReviewUrl(order, marketplace) : null;
  // A Shipped order with a number can be asked about now (docs/screens.md 'Update Tracking').
  const canUpdateTracking = order.status === "Shipped" && Boolean(order.trackingnumber);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the product name link is the keyboard path
    <article
      className={[
        "order-card",
        justDelivered ? "just-delivered" : "",
        inactive ? "blocked" : "",
        props.editing ? "editing" : "",
      ].join(" ")}
      aria-labelledby={titleId}
      aria-disabled={inactive || undefined}
      onClick={onCardClick}
    >
      <div className="order-card-media" aria-hidden="true">
        <ProductImage src={order.productimage} alt="" />
      </div>
      <div className="order-card-body">
        <div className="order-card-head">
          <h3 id={titleId} className="order-card-title">
            {inactive ? (
              <span>{order.productname}</span>
            ) : (
              <Link href={href}>{order.productname}</Link>
            )}
          </h3>
          <div className="order-card-badges">
            {justDelivered && <JustDeliveredBadge />}
            <LateBadge order={order} now={now} timeZone={timeZone} />
            <StatusBadge status={order.status} />
          </div>
        </div>
        <p className="order-card-meta">
          {order.amazonordernumber && <span>#{order.amazonordernumber}</span>}
          {value && <span>{value}</span>}
          {order.dateordered && (
            <span>{t("card.orderedOn", { date: displayDay(order.dateordered, timeZone) })}</span>
          )}
        </p>

        {untracked && (
          <UntrackedLine order={order} timeZone={timeZone} disabled={inactive || props.editing} />
        )}
        {filter === "Shipped" && !untracked && (
          <p className="order-card-extra">
            <DeliveryDate order={order} now={now} timeZone={timeZone} />
          </p>
        )}
        {age && (
          <p className="order-card-extra">
            <span className={`urgency urgency-${age.urgency}`}>{age.text}</span>
          </p>
        )}
        {reviewDate && <p className="order-card-extra">{reviewDate}</p>}

        {props.mode === "tracking" && (
          <TrackingLine
            order={order}
            timeZone={timeZone}
            now={now}
            editing={props.editing}
            disabled={inactive}
            onEdit={props.onEdit}
            onDone={props.onEditDone}
          />
        )}
        {props.mode === "status" && (
          <div className="order-card-actions">
            {canUpdateTracking && !props.editing && (
              <UpdateOrderTrackingButton order={order} disabled={inactive} />
            )}
            <StatusLine
              order={order}
              editing={props.editing}
              disabled={inactive}
              onEdit={props.onEdit}
              onDone={props.onEditDone}
            />
            {canEditReview &&
              !props.editing &&
              (inactive ? (
                <button type="button" className="small" disabled>
                  {t("card.editReview")}
                </button>
              ) : (
                <Link
                  href={editOrderPath(order.orderid, props.from, "review")}
                  className="button-link primary small"
                  aria-label={t("card.editReviewLabel", { product: order.productname })}
                >
                  {t("card.editReview")}
                </Link>
              ))}
            {writeLink && !props.editing && (
              <a
                href={writeLink}
                target="_blank"
                rel="noopener noreferrer"
                className="button-link small write-review"
                aria-label={t("card.writeReviewLabel", { product: order.productname })}
              >
                {t("card.writeReview")} ↗
              </a>
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/** "Shipped Oct 2 · not tracked" and Mark delivered (its dialog loads on the first press). */
function UntrackedLine(props: { order: Order; timeZone: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const { order } = props;
  return (
    <p className="order-card-extra untracked-line">
      <span>
        <span className="status-badge untracked-badge">{t("card.notTracked")}</span>{" "}
        {t("card.shippedOn", { date: displayDay(order.dateshipped, props.timeZone) })}
      </span>
      <button
        type="button"
        className="outline small"
        disabled={props.disabled}
        onClick={() => setOpen(true)}
        aria-label={t("card.markDeliveredLabel", { product: order.productname })}
      >
        {t("card.markDelivered")}
      </button>
      {open && (
        <Suspense fallback={EDITOR_LOADING}>
          <MarkDeliveredDialog order={order} open onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </p>
  );
}

function TrackingLine(props: {
  order: Order;
  timeZone: string;
  now: Date;
  editing: boolean;
  disabled: boolean;
  onEdit: () => void;
  onDone: () => void;
}) {
  const { order } = props;
  const t = useT();
  if (props.editing) {
    return (
      <Suspense fallback={EDITOR_LOADING}>
        <TrackingEditor order={order} timeZone={props.timeZone} onDone={props.onDone} />
      </Suspense>
    );
  }
  const number = order.trackingnumber;
  // Tracking is added and corrected while an order travels (docs/behaviour.md#states-and-transitions); later it is only shown.
  const editable = order.status === "Ordered" || order.status === "Shipped";
  if (!editable && !number) return null;
  return (
    <div className="order-card-tracking">
      <span className="tracking-text">
        {number ? (
          <>
            <span className="muted">{t("card.tracking")}</span> <code>{number}</code>
            {order.carrier && <> ({carrierLabel(order.carrier)})</>}
          </>
        ) : (
          <span className="muted">{t("card.noTrackingNumber")}</span>
        )}
      </span>
      {order.status === "Shipped" && (
        <DeliveryDate order={order} now={props.now} timeZone={props.timeZone} />
      )}
      {/* The buttons stay together at the right, also when the line wraps. */}
      <span className="tracking-buttons">
        {order.status === "Shipped" && number && (
          <UpdateOrderTrackingButton order={order} disabled={props.disabled} />
        )}
        {editable && (
          <button
            type="button"
            className="outline secondary small"
            disabled={props.disabled}
            onClick={props.onEdit}
            aria-label={t(number ? "card.editTrackingLabel" : "card.addTrackingLabel", {
              product: order.productname,
            })}
          >
            {t(number ? "card.editTracking" : "card.addTracking")}
          </button>
        )}
      </span>
    </div>
  );
}

type StatusLineProps = {
  order: Order;
  editing: boolean;
  disabled: boolean;
  onEdit: () => void;
  onDone: () => void;
};

function StatusLine(props: StatusLineProps) {
  // The save's mutation exists only while the select is open: a list renders ten of these.
  const t = useT();
  if (props.editing) return <StatusEditor {...props} />;
  return (
    <button
      type="button"
      className="outline secondary small"
      disabled={props.disabled}
      onClick={props.onEdit}
      aria-label={t("card.changeStatusLabel", { product: props.order.productname })}
    >
      {t("card.changeStatus")}
    </button>
  );
}

function StatusEditor(props: StatusLineProps) {
  const { order } = props;
  const setStatus = useSetOrderStatus();
  const t = useT();
  const change = (status: OrderStatus) => {
    if (status === order.status) return props.onDone();
    setStatus.mutate({ id: order.orderid, status }, { onSettled: props.onDone });
  };
  return (
    <>
      <Suspense fallback={EDITOR_LOADING}>
        <StatusSelect
          autoFocus
          aria-label={t("card.statusOf", { product: order.productname })}
          // While the save is in flight the select shows the chosen status, not the old one.
          value={setStatus.isPending ? (setStatus.variables?.status ?? order.status) : order.status}
          disabled={setStatus.isPending}
          aria-busy={setStatus.isPending || undefined}
          onChange={change}
          onBlur={() => {
            if (!setStatus.isPending) props.onDone();
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              props.onDone();
            }
          }}
        />
      </Suspense>
      <button
        type="button"
        className="outline secondary small"
        onMouseDown={(e) => e.preventDefault()}
        onClick={props.onDone}
      >
        {t("common.cancel")}
      </button>
    </>
  );
}
