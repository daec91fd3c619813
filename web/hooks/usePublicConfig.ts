/**
 * What this installation offers (GET /api/config): whether an AI server is configured, and which
 * carriers can be looked up. It only changes when the server restarts with a new configuration,
 * so it is fetched once per page load.
 */
import { useQuery } from "@tanstack/react-query";
import type { PublicConfig } from "../../src/contract/reviews.ts";
import { configKeys } from "../lib/query-keys.ts";

export function usePublicConfig(opts: { enabled?: boolean } = {}) {
  return useQuery<PublicConfig>({
    queryKey: configKeys.all(),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    ...opts,
  });
}
