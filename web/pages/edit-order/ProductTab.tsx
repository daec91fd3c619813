/** Product Information: image, name, ASIN, value, status, date ordered, View Product Page. */

import { currencyDigits } from "../../../src/util/money.ts";
import { Field } from "../../components/Field.tsx";
import { CurrencySelect } from "../../components/orders/CurrencySelect.tsx";
import { ProductImage } from "../../components/orders/ProductImage.tsx";
import { StatusSelect } from "../../components/orders/StatusSelect.tsx";
import { useUserData } from "../../hooks/useUser.ts";
import { intlLocale, useT } from "../../i18n/index.ts";
import { productPageUrl } from "../../lib/amazon-links.ts";
import { type FormProps, ORDER_FIELD, TextInput } from "./fields.tsx";

/** "$", "£", "€", "¥", "CA$", "A$": the sign formatMoney writes for a currency (reader's locale). */
export function currencySymbol(currency: string): string {
  try {
    const part = new Intl.NumberFormat(intlLocale(), {
      style: "currency",
      currency: currency || "USD",
    })
      .formatToParts(0)
      .find((p) => p.type === "currency");
    return part?.value ?? currency;
  } catch {
    return currency;
  }
}

/** An amount as the reader writes it: "24.99", "24,99" in German; "4990" for yen. */
function amountExample(currency: string): string {
  if (currencyDigits(currency || "USD") === 0) return "4990";
  return new Intl.NumberFormat(intlLocale(), {
    minimumFractionDigits: 2,
    useGrouping: false,
  }).format(24.99);
}

export function ProductFields(props: FormProps & { onDelete?: () => void }) {
  const { form } = props;
  const t = useT();
  const marketplace = useUserData().data?.vineMarketplace;
  const image = form.productimage.trim();
  const url = form.producturl.trim();
  // The edit screen always shows the picture (or a parcel); Add Order only once there is one.
  const showImage = Boolean(image) || Boolean(props.onDelete);
  // The product URL, else the ASIN's page on the order's Amazon site.
  const productPage = props.errors.producturl
    ? null
    : productPageUrl({ asin: form.asin, producturl: url, currency: form.currency }, marketplace);
  return (
    <div className={showImage ? "edit-product" : "edit-product no-image"}>
      {showImage && (
        <div className="product-image">
          <ProductImage src={image} alt={t("form.imageAlt")} size={48} />
        </div>
      )}
      <div className="form-grid">
        <TextInput
          {...props}
          field="productname"
          label={t("form.productName")}
          required
          multiline
        />
        <TextInput {...props} field="asin" label="ASIN" required placeholder="B0XXXXXXXX" />
        <TextInput {...props} field="amazonordernumber" label={t("form.orderNumber")} />
        <TextInput
          {...props}
          field="estimatedretailvalue"
          label={t("form.estimatedValue", { symbol: currencySymbol(form.currency) })}
          inputMode="decimal"
          placeholder={amountExample(form.currency)}
        />
        <Field
          {...ORDER_FIELD}
          label={t("form.currency")}
          error={props.errors.currency}
          control={(a) => (
            <CurrencySelect
              {...a}
              value={form.currency}
              onChange={(c) => props.set("currency", c)}
            />
          )}
        />
        <Field
          {...ORDER_FIELD}
          label={t("form.status")}
          error={props.errors.status}
          control={(a) => (
            <StatusSelect {...a} value={form.status} onChange={(s) => props.set("status", s)} />
          )}
        />
        <TextInput {...props} field="dateordered" label={t("form.dateOrdered")} type="date" />
        <TextInput
          {...props}
          field="producturl"
          label={t("form.productUrl")}
          type="url"
          inputMode="url"
          placeholder="https://www.amazon.com/dp/…"
        />
        <TextInput
          {...props}
          field="productimage"
          label={t("form.imageUrl")}
          type="url"
          inputMode="url"
          placeholder="https://…"
        />
      </div>
      <div className="button-row">
        {productPage && (
          <a href={productPage} target="_blank" rel="noopener noreferrer" className="button-link">
            {t("form.viewProductPage")}
          </a>
        )}
        {props.onDelete && (
          <button type="button" className="danger outline" onClick={props.onDelete}>
            {t("edit.deleteOrder")}
          </button>
        )}
      </div>
    </div>
  );
}
