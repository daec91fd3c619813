/**
 * Review Information: the status line with urgency, star rating, subject, text with its word
 * counter, copy buttons, the lifecycle buttons (Mark Review Submitted / Mark Approved / Mark
 * Rejected) and the review reference with its 'View on Amazon' link (docs/screens.md, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation).
 */

import { REVIEW_SUBJECT_MAX } from "../../../src/contract/constants.ts";
import type { Order } from "../../../src/contract/orders.ts";
import { plural } from "../../../src/util/plural.ts";
import { Field } from "../../components/Field.tsx";
import { StarRating } from "../../components/orders/StarRating.tsx";
import { useReviewSettings } from "../../hooks/useReviewSettings.ts";
import { useUserData } from "../../hooks/useUser.ts";
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
    toast({ title: "Nothing to copy" });
    return;
  }
  try {
    if (navigator.clipboard?.writeText) await navigator.clipboard.writeText(text);
    else legacyCopy(text);
    toast({ title: "Copied to clipboard", variant: "success" });
  } catch {
    toast({ title: "Copy failed", variant: "destructive" });
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
  return (
    <button
      type="button"
      className="outline secondary small"
      onClick={() => void copy(text)}
      aria-label={label}
    >
      Copy
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
        label="Review subject"
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
            <CopyButton text={form.reviewsubject} label="Copy subject" />
            {enhance.button("subject")}
          </div>
        )}
      />

      <Field
        {...ORDER_FIELD}
        label="Review text"
        error={props.errors.reviewtext}
        hint={
          <span className={`word-count word-${band}`}>
            {plural(words, { one: "word", other: "words" })}
            {band !== "done" && ` (target ${target})`}
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
            <CopyButton text={form.reviewtext} label="Copy review text" />
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
            title="Amazon's review form for this product, on the order's marketplace"
          >
            Write review on Amazon ↗
          </a>
        )}
        {canSubmit && (
          <button type="button" onClick={props.onMarkSubmitted} disabled={props.busy}>
            Mark Review Submitted
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
              Mark Approved
            </button>
            <button
              type="button"
              className="danger outline"
              onClick={() => props.onMarkStatus("Review Rejected")}
              disabled={props.busy}
            >
              Mark Rejected
            </button>
          </>
        )}
      </div>

      <TextInput
        {...props}
        field="reviewreference"
        label="Review reference"
        placeholder="e.g. R1ABCDEFGHIJKL"
        hint="The ID of the published review on Amazon"
      />
      {link && (
        <a href={link} target="_blank" rel="noopener noreferrer" className="button-link">
          View on Amazon ↗
        </a>
      )}

      <CantReviewFields {...props} onCopy={(text) => void copy(text)} />
    </div>
  );
}
