/**
 * The AI enhancement dialog (docs/behaviour.md#states-and-transitions, docs/messages.md): it starts on opening, shows loading, the result or an
 * error; up to ENHANCE_MAX_RETRIES retries, then the retry-limit notice. 'Accept' applies the
 * text (and subject); 'Cancel' discards it. Closing aborts a call still running. It says what is
 * sent to the AI server. Loaded lazily (useEnhance.tsx): nobody needs it until they open it.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ENHANCE_MAX_RETRIES, type EnhanceRequestType } from "../../../src/contract/constants.ts";
import type { EnhanceBody, EnhanceResponse } from "../../../src/contract/reviews.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { type MessageId, useT } from "../../i18n/index.ts";
import { ApiError, authHeaders, SignedOutError, throwIfNotOk } from "../../lib/api.ts";
import {
  ENHANCE_MESSAGES,
  enhanceErrorMessage,
  isEmptyEnhancement,
} from "../../lib/enhance-errors.ts";

export type EnhanceRequest = {
  orderId: number;
  requestType: EnhanceRequestType;
  /** What is sent: null parts are not. */
  text: string | null;
  subject: string | null;
};

const MODE_LABEL: Record<EnhanceRequestType, MessageId> = {
  grammar: "enhance.mode.grammar",
  improve: "enhance.mode.improve",
};

/** A failure the dialog shows as text (docs/messages.md), never a raw status. */
class EnhanceFailure extends Error {}

async function requestEnhancement(req: EnhanceRequest, signal: AbortSignal) {
  const path = `/api/orders/${req.orderId}/review/enhance`;
  const body: EnhanceBody = { requestType: req.requestType };
  if (req.text !== null) body.text = req.text;
  if (req.subject !== null) body.subject = req.subject;
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: { ...authHeaders(path), "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "include",
      signal,
    });
    await throwIfNotOk(res);
  } catch (err) {
    if (err instanceof SignedOutError || signal.aborted) throw err;
    if (err instanceof ApiError) {
      throw new EnhanceFailure(
        enhanceErrorMessage(err.status, err.body, err.headers.get("retry-after")),
      );
    }
    throw new EnhanceFailure(enhanceErrorMessage(0, "", null));
  }
  const result = (await res.json().catch(() => null)) as EnhanceResponse | null;
  if (!result || isEmptyEnhancement(result)) throw new EnhanceFailure(ENHANCE_MESSAGES.empty);
  return result;
}

/** Who gets what: the parts actually sent besides the product name (enhance.privacy names them). */
function sentParts(req: EnhanceRequest): "subject" | "text" | "both" | "name" {
  if (req.subject !== null && req.text !== null) return "both";
  if (req.subject !== null) return "subject";
  return req.text !== null ? "text" : "name";
}

export default function EnhanceDialog(props: {
  request: EnhanceRequest;
  onAccept: (result: EnhanceResponse) => void;
  onClose: () => void;
}) {
  const { request } = props;
  const t = useT();
  const [retries, setRetries] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const run = useMutation({
    mutationFn: () => {
      controller.current?.abort();
      const c = new AbortController();
      controller.current = c;
      return requestEnhancement(request, c.signal);
    },
  });
  const { mutate } = run;

  // Starts on opening; a close (unmount) aborts the call still running.
  const started = useRef(false);
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      mutate();
    }
    return () => controller.current?.abort();
  }, [mutate]);

  const retry = () => {
    if (retries >= ENHANCE_MAX_RETRIES) return;
    setRetries((n) => n + 1);
    mutate();
  };
  const result = run.isSuccess ? run.data : null;
  const error = run.isError && !(run.error instanceof SignedOutError) ? run.error : null;
  const errorText =
    error instanceof EnhanceFailure ? error.message : error ? ENHANCE_MESSAGES.unavailable : null;
  const limitReached = retries >= ENHANCE_MAX_RETRIES;
  const loading = run.isPending || run.isIdle;

  return (
    <Dialog
      open
      title={t("enhance.title")}
      className="enhance-dialog"
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="secondary" onClick={props.onClose}>
            {t("common.cancel")}
          </button>
          {errorText && !limitReached && (
            <button type="button" className="outline" onClick={retry}>
              {t("enhance.retry")}
            </button>
          )}
          {result && (
            <>
              {!limitReached && (
                <button type="button" className="outline" onClick={retry}>
                  {t("common.tryAgain")}
                </button>
              )}
              <button type="button" onClick={() => props.onAccept(result)}>
                {t("enhance.accept")}
              </button>
            </>
          )}
        </>
      }
    >
      <p className="enhance-mode">
        <span className="enhance-badge">{t(MODE_LABEL[request.requestType])}</span>
        {request.requestType === "grammar" ? t("enhance.grammarInfo") : t("enhance.improveInfo")}
      </p>

      {loading && (
        <div className="enhance-loading" role="status" aria-live="polite">
          <span aria-busy="true" />
          {t("enhance.loading")}
        </div>
      )}

      {errorText && (
        <div className="enhance-error" role="alert">
          <p>{errorText}</p>
          {limitReached && <p className="enhance-limit">{ENHANCE_MESSAGES.retryLimit}</p>}
        </div>
      )}

      {result && (
        <div className="enhance-result">
          {result.enhancedSubject !== null && (
            <Compare
              label={t("enhance.subject")}
              before={request.subject ?? ""}
              after={result.enhancedSubject}
            />
          )}
          {result.enhancedText !== null && (
            <Compare
              label={t("enhance.text")}
              before={request.text ?? ""}
              after={result.enhancedText}
            />
          )}
        </div>
      )}

      {retries > 0 && !limitReached && (
        <p className="enhance-retries">
          {t("enhance.retriesUsed", { count: retries, max: ENHANCE_MAX_RETRIES })}
        </p>
      )}

      <p className="enhance-privacy">
        <small>{t("enhance.privacy", { parts: sentParts(request) })}</small>
      </p>
    </Dialog>
  );
}

function Compare(props: { label: string; before: string; after: string }) {
  const t = useT();
  return (
    <section className="enhance-compare" aria-label={props.label}>
      <h4>{props.label}</h4>
      <div className="enhance-columns">
        <div>
          <small>{t("enhance.yours")}</small>
          <div className="enhance-text before">{props.before || <em>{t("enhance.empty")}</em>}</div>
        </div>
        <div>
          <small>{t("enhance.enhanced")}</small>
          <div className="enhance-text after">{props.after}</div>
        </div>
      </div>
    </section>
  );
}
