/**
 * Vine standing: the standing and settings queries, the settings save and the Itemized Report
 * upload. Order changes arrive as "order.*" live events and refetch the standing
 * (web/lib/live-events-keys.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ItemizedReportSummary, VineSettings, VineStanding } from "../../src/contract/vine.ts";
import { translate } from "../i18n/index.ts";
import { apiJson, authHeaders, errorMessage, throwIfNotOk } from "../lib/api.ts";
import { vineKeys } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";

export function useVineStanding() {
  return useQuery<VineStanding>({ queryKey: vineKeys.standing() });
}

export function useVineSettings() {
  return useQuery<VineSettings>({ queryKey: vineKeys.settings() });
}

/** `describe` rewrites the server's message for the toast (the form names fields as it shows them). */
export function useSaveVineSettings(describe: (message: string) => string = (m) => m) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: Partial<VineSettings>) =>
      apiJson<VineSettings>("PUT", "/api/user/vine-settings", settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(vineKeys.settings(), saved);
      void queryClient.invalidateQueries({ queryKey: vineKeys.standing() });
      toast({ title: translate("vine.settings.saved"), variant: "success" });
    },
    onError: (err) =>
      toastError(err, describe(errorMessage(err, translate("vine.settings.saveFailed")))),
  });
}

/** POST /api/vine/itemized-report (multipart field `file`); the answer is the summary. */
export async function uploadItemizedReport(file: File): Promise<ItemizedReportSummary> {
  const path = "/api/vine/itemized-report";
  const form = new FormData();
  form.append("file", file, file.name);
  const res = await fetch(path, {
    method: "POST",
    headers: authHeaders(path),
    body: form,
    credentials: "include",
  });
  await throwIfNotOk(res);
  return (await res.json()) as ItemizedReportSummary;
}
