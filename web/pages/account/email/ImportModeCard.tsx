/** Which order confirmations become orders: Vine orders only ($0.00, the default) or all. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { UserData } from "../../../../src/contract/index.ts";
import { userKeys } from "../../../hooks/useUser.ts";
import { apiJson, errorMessage } from "../../../lib/api.ts";
import { toast, toastError } from "../../../lib/toast.tsx";

type Mode = "vine" | "all";

const OPTIONS: { value: Mode; label: string; hint: string }[] = [
  {
    value: "vine",
    label: "Vine orders only",
    hint: "Orders whose total is zero ($0.00, £0.00, 0,00 €, ￥0…). Your other Amazon orders are left alone.",
  },
  {
    value: "all",
    label: "All Amazon orders",
    hint: "Every order confirmation from Amazon becomes an order here.",
  },
];

export function ImportModeCard({ mode }: { mode: Mode }) {
  const queryClient = useQueryClient();
  // The choice shown, set in the same render as the click (a controlled radio that waited for
  // the mutation's pending state would be reset to the old value for a moment).
  const [choice, setChoice] = useState<Mode>(mode);
  useEffect(() => setChoice(mode), [mode]);
  const save = useMutation({
    mutationFn: (importMode: Mode) =>
      apiJson<{ importMode: Mode }>("PUT", "/api/imap/import-mode", { importMode }),
    onSuccess: (res) => {
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
      setChoice(mode);
      toastError(err, errorMessage(err, "Failed to save the import setting"));
    },
  });
  return (
    <article className="import-mode-card">
      <header>
        <h2>Which orders to import</h2>
      </header>
      <fieldset aria-busy={save.isPending || undefined}>
        <legend className="visually-hidden">Which orders to import</legend>
        {OPTIONS.map((o) => (
          <label key={o.value}>
            <input
              type="radio"
              name="import-mode"
              value={o.value}
              checked={choice === o.value}
              disabled={save.isPending}
              onChange={() => {
                setChoice(o.value);
                save.mutate(o.value);
              }}
            />
            {o.label}
            <small>{o.hint}</small>
          </label>
        ))}
      </fieldset>
      <p>
        <small>
          Applies to new mail, backfills and file imports. Orders already imported stay.
        </small>
      </p>
    </article>
  );
}
