/**
 * Review settings (docs/behaviour.md#data, docs/api.md): query key, the query and the save mutation. The Account tab edits
 * them; Edit Order reads the target word count and the AI option. A save elsewhere (another tab)
 * arrives as a "user" live event, which refetches this key.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReviewSettings } from "../../src/contract/constants.ts";
import { translate } from "../i18n/index.ts";
import { apiJson, errorMessage, FIVE_MINUTES } from "../lib/api.ts";
import { reviewSettingsKeys } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";

/** The signed-in user's review settings (the server answers the defaults when none were saved). */
export function useReviewSettings(opts: { enabled?: boolean } = {}) {
  return useQuery<ReviewSettings>({
    queryKey: reviewSettingsKeys.all(),
    staleTime: FIVE_MINUTES,
    ...opts,
  });
}

/** PUT /api/user/review-settings; toasts as docs/messages.md says, and caches what the server stored. */
export function useSaveReviewSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReviewSettings) =>
      apiJson<ReviewSettings>("PUT", "/api/user/review-settings", settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(reviewSettingsKeys.all(), saved);
      toast({ title: translate("reviewSettings.saved"), variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("reviewSettings.saveFailed"))),
  });
}
