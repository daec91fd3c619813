/**
 * Shipping Information: expected delivery (with the Estimated badge), ship-to address, tracking
 * number (carrier detected as it is typed), carrier, delivery details, View Tracking, Update
 * Tracking (asks the carrier now, edit screen only) and the last-updated line.
 */
import type { Order } from "../../../src/contract/orders.ts";
import { Field } from "../../components/Field.tsx";
import { CarrierSelect } from "../../components/orders/CarrierSelect.tsx";
import { TrackingLookupNote, useCanLookUp } from "../../components/orders/TrackingButtons.tsx";
import { useT } from "../../i18n/index.ts";
import { formatDate } from "../../lib/format.ts";
import { trackingUrl } from "../../lib/tracking-links.ts";
import { type FormProps, ORDER_FIELD, TextInput } from "./fields.tsx";

export function ShippingFields(
  props: FormProps & {
    /** The saved order (edit screen only). */
    order?: Order;
    /** The original expected day, to keep the Estimated badge only while it is unchanged. */
    originalExpected?: string;
    detecting: boolean;
    onTrackingNumber: (value: string) => void;
    timeZone: string;
    /** Update Tracking (edit screen only): asks the carrier about the saved number. */
    onUpdateTracking?: () => void;
    updatingTracking?: boolean;
  },
) {
  const { form, order } = props;
  const t = useT();
  const estimated =
    order?.expecteddeliveryestimated === true &&
    form.expecteddeliverydate !== "" &&
    form.expecteddeliverydate === props.originalExpected;
  const link = trackingUrl(
    form.carrier || null,
    form.trackingnumber,
    form.amazonordernumber,
    form.producturl,
  );
  // The carrier is asked about the SAVED number: a new one typed here is saved first.
  const savedNumber = order?.trackingnumber ?? "";
  const unsavedNumber =
    form.trackingnumber.trim() !== savedNumber ||
    (form.carrier || null) !== (order?.carrier ?? null);
  const canLookUp = useCanLookUp(order?.carrier);
  return (
    <div className="edit-shipping">
      <div className="form-grid">
        <Field
          {...ORDER_FIELD}
          label={
            <>
              {t("form.expectedDelivery")}{" "}
              {estimated && (
                <span className="status-badge estimated-badge" title={t("form.estimatedTitle")}>
                  {t("form.estimated")}
                </span>
              )}
            </>
          }
          error={props.errors.expecteddeliverydate}
          control={(a) => (
            <input
              {...a}
              type="date"
              name="expecteddeliverydate"
              value={form.expecteddeliverydate}
              onChange={(e) => props.set("expecteddeliverydate", e.currentTarget.value)}
            />
          )}
        />
        <TextInput
          {...props}
          field="datedelivered"
          label={t("form.dateDelivered")}
          type="date"
          hint={t("form.dateDeliveredHint")}
        />
        <TextInput
          {...props}
          field="expecteddeliverydatetext"
          label={t("form.expectedDeliveryText")}
          placeholder={t("form.expectedDeliveryTextPlaceholder")}
        />
        <Field
          {...ORDER_FIELD}
          label={t("form.trackingNumber")}
          error={props.errors.trackingnumber}
          control={(a) => (
            <input
              {...a}
              name="trackingnumber"
              value={form.trackingnumber}
              autoComplete="off"
              aria-busy={props.detecting || undefined}
              onChange={(e) => props.onTrackingNumber(e.currentTarget.value)}
            />
          )}
        />
        <Field
          {...ORDER_FIELD}
          label={t("form.carrier")}
          error={props.errors.carrier}
          hint={props.detecting ? t("form.detectingCarrier") : t("form.carrierHint")}
          control={(a) => (
            <CarrierSelect {...a} value={form.carrier} onChange={(c) => props.set("carrier", c)} />
          )}
        />
        <TextInput {...props} field="shiptoaddress" label={t("form.shipTo")} multiline />
        <TextInput {...props} field="deliverydetails" label={t("form.deliveryDetails")} multiline />
      </div>
      <div className="button-row tracking-row">
        {link && (
          <a href={link} target="_blank" rel="noopener noreferrer" className="button-link">
            {t("form.viewTracking")}
          </a>
        )}
        {order && props.onUpdateTracking && savedNumber && (
          <button
            type="button"
            className="outline"
            disabled={props.updatingTracking || unsavedNumber || !canLookUp}
            aria-busy={props.updatingTracking || undefined}
            aria-describedby={canLookUp ? undefined : "tracking-lookup-note"}
            title={unsavedNumber ? t("edit.saveTrackingFirst") : undefined}
            onClick={props.onUpdateTracking}
          >
            {t("edit.updateTracking")}
          </button>
        )}
        {order && props.onUpdateTracking && savedNumber && !canLookUp && (
          <TrackingLookupNote id="tracking-lookup-note" carrier={order.carrier} />
        )}
        {order && (
          <p className="muted last-updated">
            {t("edit.lastUpdated", { date: formatDate(order.lastTrackingUpdate, props.timeZone) })}
          </p>
        )}
      </div>
    </div>
  );
}
