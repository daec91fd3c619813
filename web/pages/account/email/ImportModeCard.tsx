/** Which order confirmations become orders: Vine orders only ($0.00, the default) or all. */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { UserData } from "../../../../src/contract/index.ts";
import { Check } from "../../../components/Field.tsx";
import { useProcessOldEmails } from "../../../hooks/useMailbox.ts";
import { type T, translate, useT } from "../../../i18n/index.ts";
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
        title: translate("email.importMode.saved"),
        description:
          res.importMode === "vine"
            ? translate("email.importMode.savedVine")
            : translate("email.importMode.savedAll"),
        variant: "success",
      });
    },
    onError: (err) => {
      opts.onFailed?.();
      toastError(err, errorMessage(err, translate("email.importMode.saveFailed")));
    },
  });
}

const options = (t: T): { value: Mode; label: string; hint: string }[] => [
  { value: "vine", label: t("email.importMode.vine"), hint: t("email.importMode.vineHint") },
  { value: "all", label: t("email.importMode.all"), hint: t("email.importMode.allHint") },
];

export function ImportModeCard({ mode, connected }: { mode: Mode; connected: boolean }) {
  const t = useT();
  const [reread, setReread] = useState<Reread | null>(null);
  // The choice shown, set in the same render as the click (a controlled radio that waited for
  // the mutation's pending state would be reset to the old value for a moment).
  const [choice, setChoice] = useState<Mode>(mode);
  useEffect(() => setChoice(mode), [mode]);
  const save = useSaveImportMode({ onSaved: setReread, onFailed: () => setChoice(mode) });
  return (
    <article className="import-mode-card">
      <header>
        <h2>{t("email.importMode.title")}</h2>
      </header>
      <fieldset aria-busy={save.isPending || undefined}>
        <legend className="visually-hidden">{t("email.importMode.title")}</legend>
        {options(t).map((o) => (
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
        <small>{t("email.importMode.note")}</small>
      </p>
      {reread && <RereadOffer reread={reread} connected={connected} />}
    </article>
  );
}

/** After switching to all orders: the mail read before that is now imported when read again. */
export function RereadOffer({ reread, connected }: { reread: Reread; connected: boolean }) {
  const t = useT();
  const rescan = useProcessOldEmails();
  const count = reread.messages;
  return (
    <section className="reread-offer" aria-label={t("email.reread.label")}>
      <p>
        {connected ? t("email.reread.textConnected", { count }) : t("email.reread.text", { count })}
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
                  title: translate("email.reread.started"),
                  description: translate("email.reread.startedText", { days: reread.daysBack }),
                  variant: "success",
                }),
              onError: (err) =>
                toastError(err, errorMessage(err, translate("email.reread.failed"))),
            })
          }
        >
          {rescan.isSuccess
            ? t("email.reread.started")
            : t("email.reread.button", { days: reread.daysBack })}
        </button>
      )}
    </section>
  );
}
