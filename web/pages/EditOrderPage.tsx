/**
 * Edit Order (/orders/:id/edit?from=&section=review; docs/screens.md, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/api.md, docs/messages.md): skeleton while
 * loading, 'Order Not Found', three tabs, and Cancel / Save / Save & Close. When only the tracking
 * number or carrier changed, the save goes through the tracking call.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams, useSearch } from "wouter";
import type { Order, TrackingUpdateResponse } from "../../src/contract/orders.ts";
import { ConfirmDialog } from "../components/Dialog.tsx";
import { useNow } from "../components/orders/useNow.ts";
import { Tabs } from "../components/Tabs.tsx";
import { invalidateAfterOrderChange, isNotFound, useOrder } from "../hooks/useOrders.ts";
import { useMediaToken } from "../hooks/useReviewMedia.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { useRefreshOrderTracking } from "../hooks/useTracking.ts";
import { toastTrackingError, toastTrackingSaved } from "../hooks/useTrackingEntry.ts";
import { type T, translate, useT } from "../i18n/index.ts";
import { apiJson, apiRequest, errorMessage } from "../lib/api.ts";
import { useAuth } from "../lib/auth.tsx";
import { formatDate } from "../lib/format.ts";
import { dayKey } from "../lib/order-days.ts";
import {
  changedFields,
  type FormField,
  isTrackingOnlyChange,
  type OrderForm,
  type OrderPayload,
  orderToForm,
  withStatus,
} from "../lib/order-form.ts";
import { fromPage, safeFrom } from "../lib/order-links.ts";
import { type EditTab, FIELD_TABS } from "../lib/order-validation.ts";
import { orderKeys } from "../lib/query-keys.ts";
import {
  clearDraft,
  draftDiffers,
  type ReviewDraft,
  readDraft,
  writeDraft,
} from "../lib/review-draft.ts";
import { toast, toastError } from "../lib/toast.tsx";
import { ProductFields } from "./edit-order/ProductTab.tsx";
import { ReviewFields } from "./edit-order/ReviewTab.tsx";
import { ShippingFields } from "./edit-order/ShippingTab.tsx";
import { useOrderForm } from "./edit-order/useOrderForm.ts";
import "../styles/edit-order.css";

const TAB_IDS: readonly EditTab[] = ["product", "shipping", "review"];
const tabs = (t: T): { id: EditTab; label: string; short: string }[] => [
  { id: "product", label: t("form.section.product"), short: t("edit.tab.productShort") },
  { id: "shipping", label: t("form.section.shipping"), short: t("edit.tab.shippingShort") },
  { id: "review", label: t("form.section.review"), short: t("edit.tab.reviewShort") },
];

export function EditOrderPage() {
  const t = useT();
  const params = useParams<{ id: string }>();
  const search = new URLSearchParams(useSearch());
  const from = safeFrom(search.get("from"));
  const initialTab: EditTab = search.get("section") === "review" ? "review" : "product";
  const id = /^\d+$/.test(params.id ?? "") ? Number(params.id) : Number.NaN;
  const { data: order, isLoading, isError, error, refetch } = useOrder(id);
  // The review photos' token is asked for with the order, so the pictures never wait for it.
  useMediaToken();
  const missing = !Number.isInteger(id) || id <= 0 || (isError && isNotFound(error));

  return (
    <main className="container edit-order">
      {missing ? (
        <article className="empty-state">
          <h1>{t("edit.notFound.title")}</h1>
          <p>{t("edit.notFound.text")}</p>
          <Link href={from} className="button-link primary">
            {t("edit.backTo", { page: fromPage(from) })}
          </Link>
        </article>
      ) : isError ? (
        <article className="empty-state">
          <h1>{t("edit.title")}</h1>
          <p>{errorMessage(error, t("edit.loadFailed"))}</p>
          <div className="button-row center">
            <button type="button" onClick={() => void refetch()}>
              {t("common.tryAgain")}
            </button>
            <Link href={from} className="button-link">
              {t("edit.backTo", { page: fromPage(from) })}
            </Link>
          </div>
        </article>
      ) : isLoading || !order ? (
        <EditSkeleton />
      ) : (
        <EditOrderForm key={order.orderid} order={order} from={from} initialTab={initialTab} />
      )}
    </main>
  );
}

function EditSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-busy="true" aria-label={t("edit.loading")} className="edit-skeleton">
      <div className="skeleton-line wide" />
      <div className="skeleton-line" />
      <div className="skeleton-block" />
      <div className="skeleton-block" />
    </div>
  );
}

function EditOrderForm(props: { order: Order; from: string; initialTab: EditTab }) {
  const { order, from } = props;
  const t = useT();
  const timeZone = useTimeZone();
  const now = useNow();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<EditTab>(props.initialTab);
  const [original, setOriginal] = useState<OrderForm>(() => orderToForm(order, timeZone));
  const { form, setForm, errors, set, detecting, onTrackingNumber, validate, markSaved } =
    useOrderForm(() => original, timeZone);
  const [deleting, setDeleting] = useState(false);
  const dirty = Object.keys(changedFields(original, form)).length > 0;

  // Unsaved review text is kept on this device and offered back on return.
  const userId = useAuth().user?.userid ?? 0;
  const [offered, setOffered] = useState<ReviewDraft | null>(() => {
    const d = userId ? readDraft(userId, order.orderid) : null;
    return draftDiffers(d, order) ? d : null;
  });
  const reviewDirty =
    form.reviewsubject !== original.reviewsubject || form.reviewtext !== original.reviewtext;
  useEffect(() => {
    if (!userId) return;
    if (reviewDirty) {
      writeDraft(userId, order.orderid, {
        subject: form.reviewsubject,
        text: form.reviewtext,
        savedAt: new Date().toISOString(),
      });
    } else if (!offered) clearDraft(userId, order.orderid);
  }, [userId, order.orderid, form.reviewsubject, form.reviewtext, reviewDirty, offered]);
  // Closing or reloading the tab with unsaved review text asks first (the draft is kept too).
  useEffect(() => {
    if (!reviewDirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [reviewDirty]);
  function restoreDraft() {
    if (!offered) return;
    setForm((f) => ({ ...f, reviewsubject: offered.subject, reviewtext: offered.text }));
    setOffered(null);
    setTab("review");
  }
  function discardDraft() {
    clearDraft(userId, order.orderid);
    setOffered(null);
  }

  // A fresh copy from the server (refetch, live update) replaces the form while nothing is edited.
  const lastSeen = useRef(order.updatedate);
  useEffect(() => {
    if (order.updatedate === lastSeen.current) return;
    lastSeen.current = order.updatedate;
    if (!dirty) {
      const next = orderToForm(order, timeZone);
      setOriginal(next);
      setForm(next);
    }
  }, [order, dirty, timeZone, setForm]);

  const save = useMutation({
    mutationFn: async (vars: {
      changes: OrderPayload;
      next: OrderForm;
      trackingOnly: boolean;
      close: boolean;
    }): Promise<{ order: Order; tracking: TrackingUpdateResponse | null }> => {
      if (vars.trackingOnly) {
        const res = await apiJson<TrackingUpdateResponse>(
          "PUT",
          `/api/orders/${order.orderid}/tracking`,
          {
            trackingnumber: vars.next.trackingnumber.trim() || null,
            carrier: vars.next.carrier || null,
          },
        );
        return { order: res.order, tracking: res };
      }
      const updated = await apiJson<Order>("PUT", `/api/orders/${order.orderid}`, vars.changes);
      return { order: updated, tracking: null };
    },
    onSuccess: ({ order: saved, tracking }, vars) => {
      queryClient.setQueryData(orderKeys.detail(saved.orderid), saved);
      lastSeen.current = saved.updatedate;
      const next = orderToForm(saved, timeZone);
      setOriginal(next);
      markSaved(next);
      if (tracking) toastTrackingSaved(tracking, timeZone);
      else toast({ title: translate("edit.saved"), variant: "success" });
      if (vars.close) navigate(from);
    },
    onError: (err, vars) => {
      if (vars.trackingOnly) toastTrackingError(err);
      else
        toastError(
          err,
          translate("edit.saveFailed.title"),
          errorMessage(err, translate("edit.saveFailed.text")),
        );
    },
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });

  function submit(opts: { close?: boolean; overrides?: Partial<OrderForm> } = {}) {
    let next = { ...form, ...opts.overrides };
    if (opts.overrides?.status) {
      next = withStatus(next, opts.overrides.status, dayKey(new Date(), timeZone) ?? "");
    }
    const fields = validate(next);
    if (fields.length) {
      const first = TAB_IDS.find((tab) => fields.some((f) => FIELD_TABS[f] === tab));
      if (first) setTab(first);
      return;
    }
    const changes = changedFields(original, next);
    if (Object.keys(changes).length === 0) {
      if (opts.close) navigate(from);
      else toast({ title: t("edit.noChanges") });
      return;
    }
    if (opts.overrides) setForm(next);
    save.mutate({
      changes,
      next,
      trackingOnly: isTrackingOnlyChange(original, changes),
      close: Boolean(opts.close),
    });
  }

  function markSubmitted() {
    if (form.rating === null) {
      toast({
        title: t("review.ratingRequired.title"),
        description: t("review.ratingRequired.text"),
        variant: "destructive",
      });
      setTab("review");
      return;
    }
    submit({ close: true, overrides: { status: "Review Submitted" } });
  }

  const remove = useMutation({
    mutationFn: () => apiRequest("DELETE", `/api/orders/${order.orderid}`),
    onSuccess: () => {
      setDeleting(false);
      queryClient.removeQueries({ queryKey: orderKeys.detail(order.orderid) });
      toast({
        title: translate("edit.deleted"),
        description: order.productname,
        variant: "success",
      });
      navigate(from, { replace: true });
      void invalidateAfterOrderChange(queryClient);
    },
    onError: (err) => {
      setDeleting(false);
      toastError(
        err,
        translate("edit.deleteFailed.title"),
        errorMessage(err, translate("edit.deleteFailed.text")),
      );
    },
  });

  const refreshTracking = useRefreshOrderTracking(order.orderid);

  const busy = save.isPending;
  const tabErrors = (tab: EditTab) =>
    (Object.keys(errors) as FormField[]).some((f) => errors[f] && FIELD_TABS[f] === tab);

  return (
    <form
      className="edit-order-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <hgroup>
        <h1>{t("edit.title")}</h1>
        <p>
          {order.amazonordernumber
            ? t("edit.orderNumber", { number: order.amazonordernumber })
            : order.productname}
        </p>
      </hgroup>

      {offered && (
        <div className="draft-offer" role="status">
          <p>{t("edit.draft.kept", { date: formatDate(offered.savedAt, timeZone) })}</p>
          <div className="button-row">
            <button type="button" className="small" onClick={restoreDraft}>
              {t("edit.draft.restore")}
            </button>
            <button type="button" className="outline secondary small" onClick={discardDraft}>
              {t("edit.draft.discard")}
            </button>
          </div>
        </div>
      )}

      <Tabs
        tabs={tabs(t)}
        active={tab}
        onSelect={setTab}
        label={t("edit.sections")}
        tabClass={(id) => (tabErrors(id) ? "has-error" : undefined)}
      >
        {tab === "product" && (
          <ProductFields form={form} errors={errors} set={set} onDelete={() => setDeleting(true)} />
        )}
        {tab === "shipping" && (
          <ShippingFields
            form={form}
            errors={errors}
            set={set}
            order={order}
            originalExpected={original.expecteddeliverydate}
            detecting={detecting}
            timeZone={timeZone}
            onUpdateTracking={() => refreshTracking.mutate()}
            updatingTracking={refreshTracking.isPending}
            onTrackingNumber={onTrackingNumber}
          />
        )}
        {tab === "review" && (
          <ReviewFields
            form={form}
            errors={errors}
            set={set}
            order={order}
            now={now}
            timeZone={timeZone}
            busy={busy}
            onMarkSubmitted={markSubmitted}
            onMarkStatus={(status) => submit({ overrides: { status } })}
          />
        )}
      </Tabs>

      <footer className="edit-footer">
        <Link href={from} className="button-link">
          {t("edit.cancelReturn", { page: fromPage(from) })}
        </Link>
        <span className="spacer" />
        <button type="submit" className="outline" disabled={busy} aria-busy={busy || undefined}>
          {t("common.save")}
        </button>
        <button
          type="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => submit({ close: true })}
        >
          {t("edit.saveClose")}
        </button>
      </footer>

      <ConfirmDialog
        open={deleting}
        title={t("edit.delete.title")}
        message={t("edit.delete.confirm", { name: order.productname })}
        confirmLabel={t("common.delete")}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      />
    </form>
  );
}
