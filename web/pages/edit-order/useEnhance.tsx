/**
 * The Enhance buttons of the review section and their dialog (docs/behaviour.md#states-and-transitions): shown only when the
 * user's AI editing option is not None and the status is Received or Review Rejected; disabled
 * on an empty field; when this server has no AI configured (GET /api/config) they stay disabled
 * and say so. The dialog is loaded only when first opened.
 *
 * - Subject's button: sends the subject only; Accept replaces the subject.
 * - Text's button: sends the text, and the subject too when auto-generate is on (the server then
 *   improves it, or writes one when it is empty); Accept replaces the text and that subject.
 */
import { Trans } from "@lingui/react";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { Link } from "wouter";
import type { EnhanceRequestType } from "../../../src/contract/constants.ts";
import type { EnhanceResponse } from "../../../src/contract/reviews.ts";
import { usePublicConfig } from "../../hooks/usePublicConfig.ts";
import { useReviewSettings } from "../../hooks/useReviewSettings.ts";
import { useT } from "../../i18n/index.ts";
import type { EnhanceRequest } from "./EnhanceDialog.tsx";
import type { FormProps } from "./fields.tsx";
import "../../styles/enhance.css";

const EnhanceDialog = lazy(() => import("./EnhanceDialog.tsx"));

export function useEnhance(props: FormProps & { orderId: number }) {
  const { form, set } = props;
  const t = useT();
  const settings = useReviewSettings().data;
  const aiAvailable = usePublicConfig().data?.aiAvailable;
  const [request, setRequest] = useState<EnhanceRequest | null>(null);

  const option = settings?.aiEditingOption ?? "None";
  const writing = form.status === "Received" || form.status === "Review Rejected";
  const shown = option !== "None" && writing;
  // AI help is off for this user (and the settings loaded): say it exists and where to turn it on.
  const offered = settings !== undefined && option === "None" && writing;
  const requestType: EnhanceRequestType = option === "Grammar & Spelling" ? "grammar" : "improve";
  const unavailable = aiAvailable === false;
  const noteId = `enhance-unavailable-${props.orderId}`;

  const open = (field: "subject" | "text") => {
    const subject = form.reviewsubject.trim() ? form.reviewsubject : null;
    const text = form.reviewtext.trim() ? form.reviewtext : null;
    setRequest(
      field === "subject"
        ? { orderId: props.orderId, requestType, subject, text: null }
        : {
            orderId: props.orderId,
            requestType,
            text,
            // With auto-generate on, the server improves the subject, or writes one if empty.
            subject: settings?.autoGenerateSubject ? subject : null,
          },
    );
  };

  const accept = (r: EnhanceResponse) => {
    if (r.enhancedText !== null) set("reviewtext", r.enhancedText);
    if (r.enhancedSubject !== null) set("reviewsubject", r.enhancedSubject);
    setRequest(null);
  };

  /** The Enhance button beside a field (nothing when docs/behaviour.md#states-and-transitions does not allow it). */
  const button = (field: "subject" | "text"): ReactNode => {
    if (!shown) return null;
    const empty = !(field === "subject" ? form.reviewsubject : form.reviewtext).trim();
    return (
      <button
        type="button"
        className="outline small enhance-button"
        onClick={() => open(field)}
        disabled={empty || unavailable || aiAvailable === undefined}
        aria-label={field === "subject" ? t("enhance.subjectLabel") : t("enhance.textLabel")}
        aria-describedby={unavailable ? noteId : undefined}
        title={
          unavailable
            ? t("enhance.unavailableNote")
            : empty
              ? t(field === "subject" ? "enhance.writeSubjectFirst" : "enhance.writeReviewFirst")
              : undefined
        }
      >
        {t("enhance.button")}
      </button>
    );
  };

  /** The "not set up" note and the dialog; placed once in the review section. */
  const extras: ReactNode = (
    <>
      {shown && unavailable && (
        <small id={noteId} className="enhance-unavailable">
          {t("enhance.unavailableNote")}
        </small>
      )}
      {offered && (
        <small className="enhance-offer">
          <Trans id="enhance.offer" components={{ 0: <Link href="/account?tab=reviews" /> }} />
        </small>
      )}
      {request && (
        <Suspense fallback={null}>
          <EnhanceDialog request={request} onAccept={accept} onClose={() => setRequest(null)} />
        </Suspense>
      )}
    </>
  );

  return { button, extras };
}
