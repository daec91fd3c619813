/**
 * The zone every date is shown in (docs/behaviour.md#states-and-transitions): signed out, the browser's (UTC if unknown); signed in,
 * the saved zone, else the browser's, which is then saved once (a failure is only a warning).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiRequest } from "../lib/api.ts";
import { useAuth } from "../lib/auth.tsx";
import { host } from "../lib/host.ts";
import { userKeys } from "../lib/query-keys.ts";
import { effectiveTimeZone } from "../lib/timezone.ts";
import { useUserData } from "./useUser.ts";

export function useTimeZone(): string {
  const { user } = useAuth();
  const signedIn = user !== null;
  const { data } = useUserData({ enabled: signedIn });
  const queryClient = useQueryClient();
  const saving = useRef(false);
  const saved = data?.timezone ?? null;

  useEffect(() => {
    if (!signedIn || !data || saved || saving.current) return;
    saving.current = true;
    const timezone = host().timeZone();
    apiRequest("PATCH", "/api/user/timezone", { timezone })
      .then(() => queryClient.invalidateQueries({ queryKey: userKeys.data() }))
      .catch((err) => console.warn("Could not save the detected time zone", err));
  }, [signedIn, data, saved, queryClient]);

  return effectiveTimeZone({ signedIn, savedZone: saved, browserZone: host().timeZone() });
}
