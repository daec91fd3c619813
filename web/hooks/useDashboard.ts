/** Dashboard data (docs/behaviour.md#data, docs/api.md): hooks and the dashboard's invalidation. */
import { type QueryClient, useQuery } from "@tanstack/react-query";
import type {
  DashboardCounts,
  DashboardRecent,
  DashboardStats,
} from "../../src/contract/dashboard.ts";
import { dashboardKeys, keyMatches, under } from "../lib/query-keys.ts";

/** Counts, recent orders and stats are all refetched (they change with any order). */
export function invalidateDashboard(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) => keyMatches(q.queryKey, under(dashboardKeys.all())),
  });
}

export function useDashboardCounts() {
  return useQuery<DashboardCounts>({ queryKey: dashboardKeys.counts() });
}

export function useDashboardRecent() {
  return useQuery<DashboardRecent>({ queryKey: dashboardKeys.recent() });
}

export function useDashboardStats() {
  return useQuery<DashboardStats>({ queryKey: dashboardKeys.stats() });
}
