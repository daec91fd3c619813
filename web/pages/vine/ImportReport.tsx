/**
 * Import Amazon's Itemized Report (.xlsx or .csv) and show what it did. The orders it changed
 * arrive over the live-event stream too; the standing and order lists are refetched here at once.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import type { ItemizedReportSummary } from "../../../src/contract/vine.ts";
import { plural } from "../../../src/util/plural.ts";
import { invalidateAfterOrderChange } from "../../hooks/useOrders.ts";
import { uploadItemizedReport } from "../../hooks/useVine.ts";
import { errorMessage, SignedOutError } from "../../lib/api.ts";
import { vineKeys } from "../../lib/query-keys.ts";
import { toast } from "../../lib/toast.tsx";

type Phase =
  | { kind: "idle" }
  | { kind: "uploading" }
  | { kind: "error"; message: string }
  | { kind: "done"; summary: ItemizedReportSummary };

export function ImportReport() {
  const queryClient = useQueryClient();
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
      toast({ title: "Itemized Report imported", variant: "success" });
      void queryClient.invalidateQueries({ queryKey: vineKeys.standing() });
      void invalidateAfterOrderChange(queryClient);
    } catch (err) {
      if (err instanceof SignedOutError) return;
      setPhase({ kind: "error", message: errorMessage(err, "The report could not be imported.") });
    }
  }

  return (
    <form className="vine-import" onSubmit={(e) => void submit(e)}>
      <p className="muted">
        On Amazon, open Vine → Account → Itemized Report, download the year, and import the file
        here: each order gets Amazon's ETV, cancellations mark orders Canceled, and orders you do
        not have yet are added. Importing the same file again changes nothing.
      </p>
      <div className="vine-import-row">
        <input
          ref={input}
          type="file"
          name="file"
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          aria-label="Itemized Report file (.xlsx or .csv)"
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
          {phase.kind === "uploading" ? "Importing…" : "Import Report"}
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
            <strong>{plural(phase.summary.rows, { one: "row", other: "rows" })} read:</strong>{" "}
            {phase.summary.created} added, {phase.summary.updated} updated, {phase.summary.canceled}{" "}
            canceled, {phase.summary.unchanged} unchanged, {phase.summary.skipped} skipped.
          </p>
          <p className="muted">
            Headers on row {phase.summary.headerRow}
            {phase.summary.dateForm ? `; dates read as ${phase.summary.dateForm}` : ""}.
          </p>
          {phase.summary.errors.length > 0 && (
            <ul>
              {phase.summary.errors.slice(0, 20).map((e) => (
                <li key={e.row}>
                  Row {e.row}: {e.message}
                </li>
              ))}
              {phase.summary.errors.length > 20 && (
                <li>…and {phase.summary.errors.length - 20} more</li>
              )}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
