/** Admin log files: query keys and hooks. */
import { useQuery } from "@tanstack/react-query";
import type { LogFileContent, LogFileList } from "../../src/contract/index.ts";

export const adminLogKeys = {
  all: () => ["/api/admin/logs"] as const,
  file: (name: string) => [`/api/admin/logs/${encodeURIComponent(name)}`] as const,
};

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
