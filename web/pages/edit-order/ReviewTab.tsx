/**
 * Review Information: the status line with urgency, star rating, subject, text with its word
 * counter, copy buttons, the lifecycle buttons (Mark Review Submitted / Mark Approved / Mark
 * Rejected) and the review reference with its 'View on Amazon' link (docs/screens.md, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation).
 */

import { REVIEW_SUBJECT_MAX } from "../../../src/contract/constants.ts";
import type { Order } from "../../../src/contract/orders.ts";
import { Field } from "../../components/Field.tsx";
import { StarRating } from "../../components/orders/StarRating.tsx";
import { useReviewSettings } from "../../hooks/useReviewSettings.ts";
import { useUserData } from "../../hooks/useUser.ts";
import { translate, useT } from "../../i18n/index.ts";
import { orderSite, writeReviewUrl } from "../../lib/amazon-links.ts";
import { reviewStatusLine, reviewUrl } from "../../lib/review-status.ts";
import { DEFAULT_TARGET_WORDS, wordBand, wordCount } from "../../lib/review-text.ts";
import { toast } from "../../lib/toast.tsx";
import { CantReviewFields } from "./CantReviewFields.tsx";
import { type FormProps, ORDER_FIELD, TextInput } from "./fields.tsx";
import { MediaArea } from "./media/MediaArea.tsx";
import { useEnhance } from "./useEnhance.tsx";

async function copy(text: string) {
  if (!text.trim()) {
    toast({ title: translate("review.nothingToCopy") });
    return;
  }
  try {
    if (navigator.clipboard?.writeText) await navigator.clipboard.writeText(text);
    else legacyCopy(text);
    toast({ title: translate("review.copied"), variant: "success" });
  } catch {
    toast({ title: translate("review.copyFailed"), variant: "destructive" });
  }
}

/**
 * The Clipboard API exists only in secure contexts; a self-hosted server is often opened over
 * plain http on the LAN, where the old copy command still works.
 */
function legacyCopy(text: string) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy command refused");
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useT();
  return (
    <button
      type="button"
      className="outline secondary small"
      onClick={() => void copy(text)}
      aria-label={label}
    >
      {t("review.copy")}
    </button>
  );
}

export function ReviewFields(
  props: FormProps & {
    order: Order;
    now: Date;
    timeZone: string;
    busy: boolean;
    targetWords?: number;
    onMarkSubmitted: () => void;
    onMarkStatus: (status: "Review Approved" | "Review Rejected") => void;
  },
) {
  const { form, order } = props;
  const t = useT();
  // The line describes the saved order: its dates are the server's.
  const line = reviewStatusLine(order, props.now, props.timeZone);
  // The saved target (Account → Review Settings); the default while it loads or if it cannot.
  const savedTarget = useReviewSettings().data?.targetWordCount;
  const target = props.targetWords ?? savedTarget ?? DEFAULT_TARGET_WORDS;
  const words = wordCount(form.reviewtext);
  // Once the review is approved the count is history, not a goal: shown without a colour.
  const band = order.status === "Review Approved" ? "done" : wordBand(words, target);
  const marketplace = useUserData().data?.vineMarketplace;
  const site = orderSite(order, marketplace);
  const link = order.status === "Review Approved" ? reviewUrl(order.reviewreference, site) : null;
  const writeLink = writeReviewUrl(order, marketplace);
  const canSubmit = form.status === "Received" || form.status === "Review Rejected";
  const enhance = useEnhance({ ...props, orderId: order.orderid });

  return (
    <div className="edit-review">
      <p className={`review-status urgency-${line.urgency}`}>
        <strong>{line.label}</strong>
        {line.detail && <span> · {line.detail}</span>}
      </p>

      <StarRating
        value={form.rating}
        onChange={(v) => props.set("rating", v)}
        invalid={Boolean(props.errors.rating)}
      />
      {props.errors.rating && <small className="field-error">{props.errors.rating}</small>}

      <Field
        {...ORDER_FIELD}
        label={t("review.subject")}
        error={props.errors.reviewsubject}
        hint={`${form.reviewsubject.length}/${REVIEW_SUBJECT_MAX}`}
        control={(a) => (
          <div className="with-copy">
            <input
              {...a}
              name="reviewsubject"
              value={form.reviewsubject}
              maxLength={REVIEW_SUBJECT_MAX}
              onChange={(e) => props.set("reviewsubject", e.currentTarget.value)}
            />
            <CopyButton text={form.reviewsubject} label={t("review.copySubject")} />
            {enhance.button("subject")}
          </div>
        )}
      />

      <Field
        {...ORDER_FIELD}
        label={t("review.text")}
        error={props.errors.reviewtext}
        hint={
          <span className={`word-count word-${band}`}>
            {band === "done"
              ? t("review.wordCount", { count: words })
              : t("review.wordCountTarget", { count: words, target })}
          </span>
        }
        control={(a) => (
          <div className="with-copy">
            <textarea
              {...a}
              name="reviewtext"
              rows={10}
              value={form.reviewtext}
              onChange={(e) => props.set("reviewtext", e.currentTarget.value)}
            />
            <CopyButton text={form.reviewtext} label={t("review.copyText")} />
            {enhance.button("text")}
          </div>
        )}
      />
      {enhance.extras}

      <MediaArea order={order} />

      <div className="button-row">
        {writeLink && (
          <a
            href={writeLink}
            target="_blank"
            rel="noopener noreferrer"
            className="button-link"
            title={t("review.writeOnAmazonTitle")}
          >
            {t("review.writeOnAmazon")}
          </a>
        )}
        {canSubmit && (
          <button type="button" onClick={props.onMarkSubmitted} disabled={props.busy}>
            {t("review.markSubmitted")}
          </button>
        )}
        {form.status === "Review Submitted" && (
          <>
            <button
              type="button"
              className="approve"
              onClick={() => props.onMarkStatus("Review Approved")}
              disabled={props.busy}
            >
              {t("review.markApproved")}
            </button>
            <button
              type="button"
              className="danger outline"
              onClick={() => props.onMarkStatus("Review Rejected")}
              disabled={props.busy}
            >
              {t("review.markRejected")}
            </button>
          </>
        )}
      </div>

      <TextInput
        {...props}
        field="reviewreference"
        label={t("review.reference")}
        placeholder={t("review.referencePlaceholder")}
        hint={t("review.referenceHint")}
      />
      {link && (
        <a href={link} target="_blank" rel="noopener noreferrer" className="button-link">
          {t("review.viewOnAmazon")}
        </a>
      )}

      <CantReviewFields {...props} onCopy={(text) => void copy(text)} />
    </div>
  );
}
