/**
 * 'Import from a file': .eml messages or a Google Takeout .mbox, sent to
 * POST /api/imap/import as multipart with repeated `files` fields. Works with or without a
 * connected mailbox. Shows the upload progress, then the summary the server answers.
 */

import { Trans } from "@lingui/react";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import type { IngestSummary } from "../../../../src/contract/mailbox.ts";
import { Field } from "../../../components/Field.tsx";
import { FormError } from "../../../components/FormError.tsx";
import { useDismissInterruptedImports, useInterruptedImports } from "../../../hooks/useMailbox.ts";
import { translate, useT } from "../../../i18n/index.ts";
import { authHeaders, errorMessage, SignedOutError, throwIfNotOk } from "../../../lib/api.ts";
import { formatBytes } from "../../../lib/format.ts";
import { invalidateEverything } from "../../../lib/live-events-keys.ts";
import { mailboxKeys, userKeys } from "../../../lib/query-keys.ts";
import { toast, toastError } from "../../../lib/toast.tsx";
import { type Reread, RereadOffer, useSaveImportMode } from "./ImportModeCard.tsx";
import {
  modeLimitedLine,
  notUnderstoodLine,
  skippedLines,
  skippedTotal,
  summaryHeadline,
} from "./settings.ts";

/**
 * POST /api/imap/import: multipart with repeated `files` fields, with upload progress (0 to 1).
 * Errors are thrown like every other call (ApiError with the server's message; a dead session
 * sends the browser to /login).
 */
export function importMailFiles(
  files: readonly File[],
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<IngestSummary> {
  const path = "/api/imap/import";
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  return new Promise<IngestSummary>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(authHeaders(path))) xhr.setRequestHeader(k, v);
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress?.(1);
    xhr.onerror = () => reject(new Error(translate("email.import.uploadFailed")));
    xhr.onabort = () =>
      reject(new DOMException(translate("email.import.uploadCancelled"), "AbortError"));
    xhr.onload = () => {
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
      });
      throwIfNotOk(res)
        .then(() => resolve(JSON.parse(xhr.responseText) as IngestSummary))
        .catch(reject);
    };
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

type Phase =
  | { kind: "idle" }
  | { kind: "uploading"; progress: number }
  | { kind: "error"; message: string }
  | { kind: "done"; summary: IngestSummary };

export function ImportCard({
  connected,
  importMode,
}: {
  connected: boolean;
  importMode: "vine" | "all";
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const busy = phase.kind === "uploading";
  const total = files.reduce((n, f) => n + f.size, 0);
  const interrupted = useInterruptedImports().data?.interrupted ?? [];
  const dismiss = useDismissInterruptedImports();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (files.length === 0 || busy) return;
    setPhase({ kind: "uploading", progress: 0 });
    try {
      const summary = await importMailFiles(files, (progress) =>
        setPhase((p) => (p.kind === "uploading" ? { kind: "uploading", progress } : p)),
      );
      setPhase({ kind: "done", summary });
      setFiles([]);
      if (input.current) input.current.value = "";
      invalidateEverything(queryClient);
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.imports() });
      toast({
        title: translate("email.import.complete"),
        description: translate("email.import.completeText", {
          created: summary.ordersCreated,
          updated: summary.ordersUpdated,
        }),
        variant: "success",
      });
    } catch (err) {
      if (err instanceof SignedOutError) return;
      setPhase({
        kind: "error",
        message: errorMessage(
          err,
          err instanceof Error && !("status" in err)
            ? err.message
            : translate("email.import.failed"),
        ),
      });
    }
  }

  return (
    <article className="import-card" aria-labelledby="import-title">
      <header>
        <h2 id="import-title">{t("email.import.title")}</h2>
        <p>
          <Trans id="email.import.text" components={{ 0: <code />, 1: <code /> }} />
        </p>
      </header>
      {interrupted.length > 0 && !busy && (
        <div role="status" className="alert alert-warning import-interrupted">
          {interrupted.map((it) => (
            <p key={`${it.fileName}-${it.startedAt}`}>
              {t("email.import.interrupted", { file: it.fileName, read: it.messagesRead })}
            </p>
          ))}
          <button
            type="button"
            className="small outline import-interrupted-dismiss"
            disabled={dismiss.isPending}
            aria-busy={dismiss.isPending || undefined}
            onClick={() =>
              dismiss.mutate(undefined, {
                onError: (err) =>
                  toastError(err, errorMessage(err, translate("email.import.dismissFailed"))),
              })
            }
          >
            {t("email.import.dismiss")}
          </button>
        </div>
      )}
      <form onSubmit={submit}>
        <Field
          label={t("email.import.files")}
          hint={
            files.length > 0 &&
            t("email.import.selected", { count: files.length, size: formatBytes(total) })
          }
          control={(a) => (
            <input
              {...a}
              ref={input}
              type="file"
              name="files"
              multiple
              accept=".eml,.mbox,message/rfc822,application/mbox"
              disabled={busy}
              onChange={(e) => {
                setFiles(Array.from(e.currentTarget.files ?? []));
                if (phase.kind !== "uploading") setPhase({ kind: "idle" });
              }}
            />
          )}
        />
        <button type="submit" disabled={files.length === 0 || busy} aria-busy={busy || undefined}>
          {t("email.import.submit")}
        </button>
      </form>
      {phase.kind === "uploading" && (
        <div className="import-progress" role="status">
          <progress value={phase.progress} max={1} aria-label={t("email.import.progress")} />
          <small>
            {phase.progress < 1
              ? t("email.import.uploading", { percent: Math.round(phase.progress * 100) })
              : t("email.import.reading")}
          </small>
        </div>
      )}
      <FormError>{phase.kind === "error" && phase.message}</FormError>
      {phase.kind === "done" && (
        <ImportSummary summary={phase.summary} connected={connected} importMode={importMode} />
      )}
    </article>
  );
}

/**
 * The import's summary: what "Vine orders only" kept out first (with the offer to switch), then
 * every message in exactly one bucket (the buckets add up to the messages read), then why the
 * skipped ones were skipped.
 */
function ImportSummary({
  summary,
  connected,
  importMode,
}: {
  summary: IngestSummary;
  connected: boolean;
  importMode: "vine" | "all";
}) {
  const t = useT();
  const skipped = skippedLines(summary);
  const kept = modeLimitedLine(summary);
  const unknown = notUnderstoodLine(summary);
  const b = summary.messages;
  return (
    <section className="import-summary" aria-label={t("email.import.summary")}>
      {kept && (
        <ModeLimitedOffer line={kept} connected={connected} switched={importMode === "all"} />
      )}
      <p className="import-headline">{summaryHeadline(summary)}</p>
      <dl>
        <div>
          <dt>{t("email.import.messagesRead")}</dt>
          <dd>{summary.messagesRead}</dd>
        </div>
        <div>
          <dt>{t("email.import.createdOrders")}</dt>
          <dd>{b.created}</dd>
        </div>
        <div>
          <dt>{t("email.import.updatedOrders")}</dt>
          <dd>{b.updated}</dd>
        </div>
        {b.unchanged > 0 && (
          <div>
            <dt>{t("email.import.changedNothing")}</dt>
            <dd>{b.unchanged}</dd>
          </div>
        )}
        {b.notUnderstood > 0 && (
          <div>
            <dt>{t("email.import.notUnderstoodLabel")}</dt>
            <dd>{b.notUnderstood}</dd>
          </div>
        )}
        <div>
          <dt>{t("email.import.skippedLabel")}</dt>
          <dd>{skippedTotal(summary)}</dd>
        </div>
      </dl>
      {unknown && <p className="muted-note">{unknown}</p>}
      {skipped.length > 0 && (
        <>
          <p className="muted-note">{t("email.import.skippedMessages")}</p>
          <ul className="skipped-list">
            {skipped.map((s) => (
              <li key={s.reason}>{s.text}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * "“Vine orders only” kept 3 emails … out." and the offer to import every Amazon order; once
 * switched, the re-read offer of the import-mode card (import the files again, or re-scan).
 */
function ModeLimitedOffer({
  line,
  connected,
  switched,
}: {
  line: string;
  connected: boolean;
  switched: boolean;
}) {
  const t = useT();
  const [reread, setReread] = useState<Reread | null>(null);
  const save = useSaveImportMode({ onSaved: setReread });
  const done = save.isSuccess || switched;
  return (
    <div className="import-mode-limited">
      <p>{line}</p>
      {!done && (
        <button
          type="button"
          className="secondary small"
          disabled={save.isPending}
          aria-busy={save.isPending || undefined}
          onClick={() => save.mutate("all")}
        >
          {t("email.import.importAll")}
        </button>
      )}
      {reread && <RereadOffer reread={reread} connected={connected} />}
    </div>
  );
}
