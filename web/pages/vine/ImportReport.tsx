/**
 * Import Amazon's Itemized Report (.xlsx or .csv) and show what it did. The orders it changed
 * arrive over the live-event stream too; the standing and order lists are refetched here at once.
 */
import { Trans } from "@lingui/react";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import type { ItemizedReportSummary } from "../../../src/contract/vine.ts";
import { invalidateAfterOrderChange } from "../../hooks/useOrders.ts";
import { uploadItemizedReport } from "../../hooks/useVine.ts";
import { useT } from "../../i18n/index.ts";
import { errorMessage, SignedOutError } from "../../lib/api.ts";
import { vineKeys } from "../../lib/query-keys.ts";
import { serverSentence } from "../../lib/server-text.ts";
import { toast } from "../../lib/toast.tsx";

type Phase =
  | { kind: "idle" }
  | { kind: "uploading" }
  | { kind: "error"; message: string }
  | { kind: "done"; summary: ItemizedReportSummary };

export function ImportReport() {
  const queryClient = useQueryClient();
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file || phase.kind === "uploading") return;
    setPhase({ kind: "uploading" });
    try {
      const summary = await uploadItemizedReport(file);
      setPhase({ kind: "done", summary });
      setFile(null);
      if (input.current) input.current.value = "";
      toast({ title: t("vine.import.imported"), variant: "success" });
      void queryClient.invalidateQueries({ queryKey: vineKeys.standing() });
      void invalidateAfterOrderChange(queryClient);
    } catch (err) {
      if (err instanceof SignedOutError) return;
      setPhase({ kind: "error", message: errorMessage(err, t("vine.import.failed")) });
    }
  }

  return (
    <form className="vine-import" onSubmit={(e) => void submit(e)}>
      <p className="muted">{t("vine.import.help")}</p>
      <div className="vine-import-row">
        <input
          ref={input}
          type="file"
          name="file"
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          aria-label={t("vine.import.fileLabel")}
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setPhase({ kind: "idle" });
          }}
        />
        <button
          type="submit"
          disabled={!file || phase.kind === "uploading"}
          aria-busy={phase.kind === "uploading" || undefined}
        >
          {phase.kind === "uploading" ? t("vine.import.importing") : t("vine.import.submit")}
        </button>
      </div>
      {phase.kind === "error" && (
        <p className="field-error" role="alert">
          {phase.message}
        </p>
      )}
      {phase.kind === "done" && (
        <div className="vine-import-summary" role="status">
          <p>
            <Trans
              id="vine.import.summary"
              values={{
                count: phase.summary.rows,
                created: phase.summary.created,
                updated: phase.summary.updated,
                canceled: phase.summary.canceled,
                unchanged: phase.summary.unchanged,
                skipped: phase.summary.skipped,
              }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="muted">
            {t("vine.import.headers", {
              row: phase.summary.headerRow,
              hasDateForm: phase.summary.dateForm ? "yes" : "no",
              dateForm: phase.summary.dateForm ?? "",
            })}
          </p>
          {phase.summary.errors.length > 0 && (
            <ul>
              {phase.summary.errors.slice(0, 20).map((e) => (
                <li key={e.row}>
                  {t("vine.import.rowError", {
                    row: e.row,
                    message: serverSentence(e.messageCode, e.messageValues, e.message),
                  })}
                </li>
              ))}
              {phase.summary.errors.length > 20 && (
                <li>{t("vine.import.more", { count: phase.summary.errors.length - 20 })}</li>
              )}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
