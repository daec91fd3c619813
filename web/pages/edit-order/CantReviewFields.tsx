/**
 * "Can't review": why Amazon will not get a review of this order, an optional note,
 * whether Vine support removed it from the review list (it then leaves the review rate), and a
 * ready-to-copy message to Vine support naming the order. Saved with the rest of the form.
 */
import type { Order } from "../../../src/contract/orders.ts";
import {
  CANT_REVIEW_LABELS,
  CANT_REVIEW_REASONS,
  type CantReviewReason,
} from "../../../src/contract/vine-constants.ts";
import { Check, Field } from "../../components/Field.tsx";
import { supportMessage } from "../../lib/vine.ts";
import { type FormProps, ORDER_FIELD } from "./fields.tsx";
import "../../styles/vine.css";

const isReason = (v: string): v is CantReviewReason =>
  (CANT_REVIEW_REASONS as readonly string[]).includes(v);

export function CantReviewFields(
  props: FormProps & { order: Order; onCopy: (text: string) => void },
) {
  const { form } = props;
  const reason = isReason(form.cantreviewreason) ? form.cantreviewreason : null;
  const message = reason
    ? supportMessage({
        amazonordernumber: form.amazonordernumber || props.order.amazonordernumber,
        asin: form.asin || props.order.asin,
        productname: form.productname || props.order.productname,
        reason,
        note: form.cantreviewnote,
      })
    : "";
  return (
    <fieldset className="cant-review">
      <legend>Can't review</legend>
      <Field
        {...ORDER_FIELD}
        label="Reason"
        error={props.errors.cantreviewreason}
        control={(a) => (
          <select
            {...a}
            name="cantreviewreason"
            value={form.cantreviewreason}
            onChange={(e) => props.set("cantreviewreason", e.currentTarget.value)}
          >
            <option value="">None: I will review it</option>
            {CANT_REVIEW_REASONS.map((r) => (
              <option key={r} value={r}>
                {CANT_REVIEW_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      />
      {reason && (
        <>
          <Field
            {...ORDER_FIELD}
            label="Note"
            error={props.errors.cantreviewnote}
            control={(a) => (
              <textarea
                {...a}
                name="cantreviewnote"
                rows={2}
                maxLength={1000}
                value={form.cantreviewnote}
                placeholder="e.g. Tracking stopped on Nov 3"
                onChange={(e) => props.set("cantreviewnote", e.currentTarget.value)}
              />
            )}
          />
          <Field
            {...ORDER_FIELD}
            label="Message to Vine support"
            hint="Send it through Vine's Contact Us page, then tick the box below once they removed the item."
            control={(a) => (
              <div className="with-copy">
                <textarea {...a} readOnly rows={11} value={message} className="support-message" />
                <button
                  type="button"
                  className="outline secondary small"
                  onClick={() => props.onCopy(message)}
                  aria-label="Copy message to Vine support"
                >
                  Copy
                </button>
              </div>
            )}
          />
        </>
      )}
      <Check
        labelClassName="checkbox-line"
        name="reviewexempt"
        checked={form.reviewexempt}
        onChecked={(on) => props.set("reviewexempt", on)}
        label="Vine support removed it from my review list (it no longer counts in the review rate)"
      />
    </fieldset>
  );
}
