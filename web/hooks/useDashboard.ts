/** Dashboard data (docs/behaviour.md#data, docs/api.md): query keys and hooks. */
import { type QueryClient, useQuery } from "@tanstack/react-query";
import type {
  DashboardCounts,
  DashboardRecent,
  DashboardStats,
} from "../../src/contract/dashboard.ts";

export const dashboardKeys = {
  all: () => ["/api/dashboard"] as const,
  counts: () => ["/api/dashboard/counts"] as const,
  recent: () => ["/api/dashboard/recent"] as const,
  stats: () => ["/api/dashboard/stats"] as const,
};

/** Counts, recent orders and stats are all refetched (they change with any order). */
export function invalidateDashboard(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (q) =>
      typeof q.queryKey[0] === "string" && q.queryKey[0].startsWith("/api/dashboard"),
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
