/** The signed-in user's data: query keys and hooks (one factory for the user resource). */
import { useQuery } from "@tanstack/react-query";
import type { UserData } from "../../src/contract/index.ts";
import { FIVE_MINUTES } from "../lib/api.ts";

export const userKeys = {
  data: () => ["/api/user/data"] as const,
};

export function useUserData(opts: { enabled?: boolean } = {}) {
  return useQuery<UserData>({ queryKey: userKeys.data(), staleTime: FIVE_MINUTES, ...opts });
}
