/** The signed-in user's data (`userKeys` in web/lib/query-keys.ts). */
import { useQuery } from "@tanstack/react-query";
import type { UserData } from "../../src/contract/index.ts";
import { FIVE_MINUTES } from "../lib/api.ts";
import { userKeys } from "../lib/query-keys.ts";

export function useUserData(opts: { enabled?: boolean } = {}) {
  return useQuery<UserData>({ queryKey: userKeys.data(), staleTime: FIVE_MINUTES, ...opts });
}
