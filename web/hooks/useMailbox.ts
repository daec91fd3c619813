/**
 * The mailbox (docs/behaviour.md#data, docs/api.md Mailbox): the status and folder queries, and the calls.
 * Live `mailbox.*` events refetch the status (web/lib/live-events-keys.ts).
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  InterruptedImport,
  MailboxState,
  MailboxStatus,
  MailFolder,
} from "../../src/contract/index.ts";
import type { EmailSettings, UserData } from "../../src/contract/user.ts";
import { translate } from "../i18n/index.ts";
import { apiJson, apiRequest } from "../lib/api.ts";
import { mailboxKeys, userKeys } from "../lib/query-keys.ts";

type Ok = { success: boolean; message: string };
type WithSettings = Ok & { emailSettings?: EmailSettings | null };

/** GET /api/imap/imports: files of .eml/.mbox imports that stopped before their end. */
export function useInterruptedImports() {
  return useQuery<{ interrupted: InterruptedImport[] }>({ queryKey: mailboxKeys.imports() });
}

/** DELETE /api/imap/imports: the user has read the notice and will not import those files again. */
export function useDismissInterruptedImports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ success: boolean }>("DELETE", "/api/imap/imports"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailboxKeys.imports() }),
  });
}

/** GET /api/imap/status, only while the mailbox is connected (docs/api.md). */
export function useMailboxStatus(connected: boolean) {
  return useQuery<MailboxStatus>({ queryKey: mailboxKeys.status(), enabled: connected });
}

/** GET /api/imap/folders, only while the mailbox is connected. */
export function useMailFolders(connected: boolean) {
  return useQuery<MailFolder[]>({ queryKey: mailboxKeys.folders(), enabled: connected });
}

/** Puts the settings a call answered with into the cached user data, then refetches it. */
function applySettings(queryClient: QueryClient, settings: EmailSettings | null | undefined) {
  if (settings !== undefined) {
    queryClient.setQueryData<UserData>(userKeys.data(), (old) =>
      old ? { ...old, emailSettings: settings } : old,
    );
  }
  void queryClient.invalidateQueries({ queryKey: userKeys.data() });
}

/** POST /api/imap/initialize: starts scanning. Failures are only logged (docs/messages.md). */
export async function initializeMailbox(): Promise<void> {
  try {
    await apiRequest("POST", "/api/imap/initialize");
  } catch (err) {
    console.warn("mailbox: initialising the scan failed", err);
  }
}

/** docs/behaviour.md#states-and-transitions: user data refetched now, the scan initialised 1 s later. */
export const INITIALIZE_DELAY_MS = 1000;
export function afterConnect(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: userKeys.data() });
  void queryClient.invalidateQueries({ queryKey: mailboxKeys.status() });
  setTimeout(() => {
    void initializeMailbox().then(() =>
      queryClient.invalidateQueries({ queryKey: mailboxKeys.status() }),
    );
  }, INITIALIZE_DELAY_MS);
}

/** GET /api/auth/google → the authorization address. */
export function fetchGoogleAuthUrl(): Promise<{ authUrl: string }> {
  return apiJson<{ authUrl: string }>("GET", "/api/auth/google");
}

export function useConnectAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; appPassword: string }) =>
      apiJson<WithSettings>("POST", "/api/imap/app-password", body),
    onSuccess: (res) => applySettings(queryClient, res.emailSettings),
  });
}

export function useDisconnectEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<Ok>("POST", "/api/user/disconnect-email"),
    onSuccess: () => {
      queryClient.setQueryData<UserData>(userKeys.data(), (old) =>
        old ? { ...old, emailSettings: null } : old,
      );
      queryClient.removeQueries({ queryKey: mailboxKeys.status() });
      queryClient.removeQueries({ queryKey: mailboxKeys.folders() });
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
    },
  });
}

export function useProcessOldEmails() {
  return useMutation({
    mutationFn: (daysBack: number) => apiJson<Ok>("POST", "/api/imap/process-emails", { daysBack }),
  });
}

export function useRefreshFolders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MailFolder[]>("POST", "/api/imap/folders/refresh"),
    onSuccess: (folders) => {
      queryClient.setQueryData(mailboxKeys.folders(), folders);
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
    },
  });
}

export function useSaveFolders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      selectedFolder: string;
      processedFolder?: string;
      markProcessedAsRead: boolean;
    }) => apiJson<WithSettings>("POST", "/api/imap/folders/select", body),
    onSuccess: (res) => {
      applySettings(queryClient, res.emailSettings);
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.status() });
    },
  });
}

/** Manual reconnect / retry real-time: failures are only logged (docs/messages.md). */
function useMailboxAction(path: string, what: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<Ok>("POST", path),
    onError: (err) => console.warn(`mailbox: ${what} failed`, err),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailboxKeys.status() }),
  });
}

export const useManualReconnect = () =>
  useMailboxAction("/api/imap/reconnect/manual", "manual reconnect");
export const useRetryIdle = () => useMailboxAction("/api/imap/retry-idle", "retry real-time");

/** Friendly words for each state of the mailbox (docs/behaviour.md#states-and-transitions Mailbox status). */
export function mailboxStateWords(state: MailboxState): string {
  switch (state) {
    case "idle":
      return translate("mailbox.state.idle");
    case "connected":
      return translate("mailbox.state.connected");
    case "polling":
      return translate("mailbox.state.polling");
    case "disconnected":
      return translate("mailbox.state.disconnected");
    case "connecting":
      return translate("mailbox.state.connecting");
  }
}
