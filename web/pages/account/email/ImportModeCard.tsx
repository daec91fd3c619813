/** Which order confirmations become orders: Vine orders only ($0.00, the default) or all. */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { UserData } from "../../../../src/contract/index.ts";
import { plural } from "../../../../src/util/plural.ts";
import { Check } from "../../../components/Field.tsx";
import { useProcessOldEmails } from "../../../hooks/useMailbox.ts";
import { apiJson, errorMessage } from "../../../lib/api.ts";
import { userKeys } from "../../../lib/query-keys.ts";
import { toast, toastError } from "../../../lib/toast.tsx";

type Mode = "vine" | "all";
/** What the server says the new mode makes readable again (mail skipped under the old one). */
export type Reread = { messages: number; daysBack: number | null };

/**
 * PUT /api/imap/import-mode: saves the mode, keeps it on screen until the refetch confirms it,
 * the saved toast. Used by this card and by the import summary's offer to switch.
 */
export function useSaveImportMode(
  opts: { onSaved?: (reread: Reread | null) => void; onFailed?: () => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (importMode: Mode) =>
      apiJson<{ importMode: Mode; reread?: Reread }>("PUT", "/api/imap/import-mode", {
        importMode,
      }),
    onSuccess: (res) => {
      opts.onSaved?.(res.reread && res.reread.messages > 0 ? res.reread : null);
      // Keep the saved choice on screen until the refetch confirms it (no flicker back).
      queryClient.setQueryData<UserData>(userKeys.data(), (old) =>
        old ? { ...old, importMode: res.importMode } : old,
      );
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      toast({
        title: "Import setting saved",
        description:
          res.importMode === "vine"
            ? "Only Vine orders will be imported from now on."
            : "All Amazon orders will be imported from now on.",
        variant: "success",
      });
    },
    onError: (err) => {
      opts.onFailed?.();
      toastError(err, errorMessage(err, "Failed to save the import setting"));
    },
  });
}

const OPTIONS: { value: Mode; label: string; hint: string }[] = [
  {
    value: "vine",
    label: "Vine orders only",
    hint: "Orders whose total is zero ($0.00, £0.00, 0,00 €, ¥0…). Your other Amazon orders are left alone.",
  },
  {
    value: "all",
    label: "All Amazon orders",
    hint: "Every order confirmation from Amazon becomes an order here.",
  },
];

export function ImportModeCard({ mode, connected }: { mode: Mode; connected: boolean }) {
  const [reread, setReread] = useState<Reread | null>(null);
  // The choice shown, set in the same render as the click (a controlled radio that waited for
  // the mutation's pending state would be reset to the old value for a moment).
  const [choice, setChoice] = useState<Mode>(mode);
  useEffect(() => setChoice(mode), [mode]);
  const save = useSaveImportMode({ onSaved: setReread, onFailed: () => setChoice(mode) });
  return (
    <article className="import-mode-card">
      <header>
        <h2>Which orders to import</h2>
      </header>
      <fieldset aria-busy={save.isPending || undefined}>
        <legend className="visually-hidden">Which orders to import</legend>
        {OPTIONS.map((o) => (
          <Check
            key={o.value}
            kind="radio"
            name="import-mode"
            value={o.value}
            checked={choice === o.value}
            disabled={save.isPending}
            onChecked={() => {
              setChoice(o.value);
              save.mutate(o.value);
            }}
            label={
              <span className="import-mode-text">
                {o.label}
                <small>{o.hint}</small>
              </span>
            }
          />
        ))}
      </fieldset>
      <p>
        <small>
          Applies to new mail, backfills and file imports. Orders already imported stay. Mail
          skipped under “Vine orders only” is read again when you choose all orders.
        </small>
      </p>
      {reread && <RereadOffer reread={reread} connected={connected} />}
    </article>
  );
}

/** After switching to all orders: the mail read before that is now imported when read again. */
export function RereadOffer({ reread, connected }: { reread: Reread; connected: boolean }) {
  const rescan = useProcessOldEmails();
  const n = reread.messages;
  const emails = plural(n, { one: "email", other: "emails" });
  return (
    <section className="reread-offer" aria-label="Skipped mail">
      <p>
        {emails} read earlier {n === 1 ? "was" : "were"} skipped because of “Vine orders only”. To
        import {n === 1 ? "it" : "them"} now, import the same files again
        {connected ? " or re-scan the mail your mailbox already read" : ""}.
      </p>
      {connected && reread.daysBack !== null && (
        <button
          type="button"
          className="secondary"
          disabled={rescan.isPending || rescan.isSuccess}
          aria-busy={rescan.isPending || undefined}
          onClick={() =>
            rescan.mutate(reread.daysBack as number, {
              onSuccess: () =>
                toast({
                  title: "Re-scan started",
                  description: `The mail of the last ${reread.daysBack} days is being read again in the background; new orders appear on your dashboard as they are found.`,
                  variant: "success",
                }),
              onError: (err) =>
                toastError(
                  err,
                  errorMessage(err, "The re-scan could not be started. Please try again."),
                ),
            })
          }
        >
          {rescan.isSuccess ? "Re-scan started" : `Re-scan the last ${reread.daysBack} days`}
        </button>
      )}
    </section>
  );
}
