/** Admin log files: hooks (`adminLogKeys` in web/lib/query-keys.ts). */
import { useQuery } from "@tanstack/react-query";
import type { LogFileContent, LogFileList } from "../../src/contract/index.ts";
import { adminLogKeys } from "../lib/query-keys.ts";

export function useLogFiles(opts: { enabled?: boolean } = {}) {
  return useQuery<LogFileList>({ queryKey: adminLogKeys.all(), ...opts });
}

export function useLogFile(name: string | null) {
  return useQuery<LogFileContent>({
    queryKey: adminLogKeys.file(name ?? ""),
    enabled: name !== null,
    staleTime: 0,
  });
}
