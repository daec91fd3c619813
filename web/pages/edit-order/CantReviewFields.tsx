/**
 * "Can't review": why Amazon will not get a review of this order, an optional note,
 * whether Vine support removed it from the review list (it then leaves the review rate), and a
 * ready-to-copy message to Vine support naming the order. Saved with the rest of the form.
 */
import type { Order } from "../../../src/contract/orders.ts";
import {
  CANT_REVIEW_REASONS,
  type CantReviewReason,
} from "../../../src/contract/vine-constants.ts";
import { Check, Field } from "../../components/Field.tsx";
import { type MessageId, useT } from "../../i18n/index.ts";
import { supportMessage } from "../../lib/vine.ts";
import { type FormProps, ORDER_FIELD } from "./fields.tsx";
import "../../styles/vine.css";

/** Each reason's words in the reader's language (CANT_REVIEW_LABELS are the English ones). */
const REASON_LABEL: Record<CantReviewReason, MessageId> = {
  "not-received": "review.cantReason.notReceived",
  damaged: "review.cantReason.damaged",
  "not-as-described": "review.cantReason.notAsDescribed",
  "removed-from-amazon": "review.cantReason.removedFromAmazon",
  other: "review.cantReason.other",
};

const isReason = (v: string): v is CantReviewReason =>
  (CANT_REVIEW_REASONS as readonly string[]).includes(v);

export function CantReviewFields(
  props: FormProps & { order: Order; onCopy: (text: string) => void },
) {
  const { form } = props;
  const t = useT();
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
      <legend>{t("review.cantReview.title")}</legend>
      <Field
        {...ORDER_FIELD}
        label={t("review.cantReview.reason")}
        error={props.errors.cantreviewreason}
        control={(a) => (
          <select
            {...a}
            name="cantreviewreason"
            value={form.cantreviewreason}
            onChange={(e) => props.set("cantreviewreason", e.currentTarget.value)}
          >
            <option value="">{t("review.cantReview.none")}</option>
            {CANT_REVIEW_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(REASON_LABEL[r])}
              </option>
            ))}
          </select>
        )}
      />
      {reason && (
        <>
          <Field
            {...ORDER_FIELD}
            label={t("review.cantReview.note")}
            error={props.errors.cantreviewnote}
            control={(a) => (
              <textarea
                {...a}
                name="cantreviewnote"
                rows={2}
                maxLength={1000}
                value={form.cantreviewnote}
                placeholder={t("review.cantReview.notePlaceholder")}
                onChange={(e) => props.set("cantreviewnote", e.currentTarget.value)}
              />
            )}
          />
          <Field
            {...ORDER_FIELD}
            label={t("review.cantReview.message")}
            hint={t("review.cantReview.messageHint")}
            control={(a) => (
              <div className="with-copy">
                <textarea {...a} readOnly rows={11} value={message} className="support-message" />
                <button
                  type="button"
                  className="outline secondary small"
                  onClick={() => props.onCopy(message)}
                  aria-label={t("review.cantReview.copyMessage")}
                >
                  {t("review.copy")}
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
        label={t("review.cantReview.exempt")}
      />
    </fieldset>
  );
}
