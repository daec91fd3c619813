/**
 * Add Order (/orders/new?from=): for orders placed before the mailbox was connected. The Product
 * and Shipping fields of the edit screen with the same rules; POST /api/orders, then back to
 * `from` (the dashboard by default) with 'Order added'.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation, useSearch } from "wouter";
import { DEFAULT_CURRENCY, MARKETPLACE_CURRENCY } from "../../src/contract/marketplaces.ts";
import type { Order } from "../../src/contract/orders.ts";
import { invalidateAfterOrderChange } from "../hooks/useOrders.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { useUserData } from "../hooks/useUser.ts";
import { translate, useT } from "../i18n/index.ts";
import { apiJson, errorMessage } from "../lib/api.ts";
import { dayKey } from "../lib/order-days.ts";
import { emptyOrderForm, formToPayload, type OrderForm } from "../lib/order-form.ts";
import { safeFrom } from "../lib/order-links.ts";
import { toast, toastError } from "../lib/toast.tsx";
import { ProductFields } from "./edit-order/ProductTab.tsx";
import { ShippingFields } from "./edit-order/ShippingTab.tsx";
import { useOrderForm } from "./edit-order/useOrderForm.ts";
import "../styles/edit-order.css";

export function AddOrderPage() {
  const t = useT();
  const from = safeFrom(new URLSearchParams(useSearch()).get("from"), "/");
  const timeZone = useTimeZone();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const user = useUserData().data;
  const {
    form: state,
    errors,
    set,
    detecting,
    onTrackingNumber,
    validate,
  } = useOrderForm(
    () => ({
      ...emptyOrderForm(),
      dateordered: dayKey(new Date(), timeZone) ?? "",
    }),
    timeZone,
  );
  // Until the user picks one, the currency of their Vine marketplace (what the server would use).
  const form: OrderForm = {
    ...state,
    currency:
      state.currency || MARKETPLACE_CURRENCY[user?.vineMarketplace ?? "US"] || DEFAULT_CURRENCY,
  };
  const add = useMutation({
    mutationFn: (payload: ReturnType<typeof formToPayload>) =>
      apiJson<Order>("POST", "/api/orders", payload),
    onSuccess: (order) => {
      toast({ title: translate("add.added"), description: order.productname, variant: "success" });
      navigate(from);
    },
    onError: (err) =>
      toastError(
        err,
        translate("add.failed.title"),
        errorMessage(err, translate("add.failed.text")),
      ),
    onSettled: () => invalidateAfterOrderChange(queryClient),
  });

  function submit() {
    if (validate(form).length) {
      // After the messages render: move to the first field that needs attention.
      setTimeout(() => document.querySelector<HTMLElement>("main [aria-invalid='true']")?.focus());
      return;
    }
    const {
      rating: _r,
      reviewsubject: _s,
      reviewtext: _t,
      reviewreference: _x,
      ...payload
    } = formToPayload(form);
    add.mutate(payload);
  }

  return (
    <main className="container add-order">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <hgroup>
          <h1>{t("add.title")}</h1>
          <p>{t("add.intro")}</p>
        </hgroup>
        <section aria-labelledby="add-product">
          <h2 id="add-product">{t("form.section.product")}</h2>
          <ProductFields form={form} errors={errors} set={set} />
        </section>
        <section aria-labelledby="add-shipping">
          <h2 id="add-shipping">{t("form.section.shipping")}</h2>
          <ShippingFields
            form={form}
            errors={errors}
            set={set}
            detecting={detecting}
            timeZone={timeZone}
            onTrackingNumber={onTrackingNumber}
          />
        </section>
        <footer className="edit-footer">
          <Link href={from} className="button-link">
            {t("common.cancel")}
          </Link>
          <span className="spacer" />
          <button type="submit" disabled={add.isPending} aria-busy={add.isPending || undefined}>
            {t("add.submit")}
          </button>
        </footer>
      </form>
    </main>
  );
}
