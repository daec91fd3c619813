/**
 * Alert channels (Account → Alerts): the list query, the mutations (toasts here) and "Enable
 * push on this device" (service worker + PushManager → a webpush channel). Deliveries change in
 * the background: "alert-channel.delivered" refetches the list (web/lib/live-events-keys.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AlertChannel,
  AlertTestResult,
  CreateAlertChannelBody,
  UpdateAlertChannelBody,
  WebPushKey,
} from "../../src/contract/alerts.ts";
import { translate } from "../i18n/index.ts";
import { apiJson, errorMessage } from "../lib/api.ts";
import { alertKeys } from "../lib/query-keys.ts";
import { serverSentence } from "../lib/server-text.ts";
import { toast, toastError } from "../lib/toast.tsx";

export function useAlertChannels() {
  return useQuery<AlertChannel[]>({ queryKey: alertKeys.all() });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: alertKeys.all() });
}

export function useCreateAlertChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CreateAlertChannelBody) =>
      apiJson<AlertChannel>("POST", "/api/user/alert-channels", body),
    onSuccess: (ch) => {
      void invalidate();
      toast({ title: translate("alerts.saved"), description: ch.name, variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("alerts.saveFailed"))),
  });
}

export function useUpdateAlertChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateAlertChannelBody }) =>
      apiJson<AlertChannel>("PUT", `/api/user/alert-channels/${id}`, body),
    onSuccess: () => {
      void invalidate();
      toast({ title: translate("alerts.saved"), variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("alerts.saveFailed"))),
  });
}

export function useDeleteAlertChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiJson<unknown>("DELETE", `/api/user/alert-channels/${id}`),
    onSuccess: () => {
      void invalidate();
      toast({ title: translate("alerts.deleted"), variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("alerts.deleteFailed"))),
  });
}

/** Sends a test alert; the toast says what the far side answered. */
export function useTestAlertChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) =>
      apiJson<AlertTestResult>("POST", `/api/user/alert-channels/${id}/test`),
    onSuccess: (r) => {
      void invalidate();
      if (r.ok) toast({ title: translate("alerts.test.sent"), variant: "success" });
      else
        toast({
          title: translate("alerts.test.failed"),
          description: serverSentence(r.errorCode, r.errorValues, r.error),
          variant: "destructive",
        });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("alerts.test.sendFailed"))),
  });
}

/** Why this browser cannot receive push, or null when it can. */
export function pushUnsupportedReason(): string | null {
  if (!window.isSecureContext) {
    return translate("alerts.push.needsHttps");
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    return translate("alerts.push.unsupported");
  }
  if (typeof Notification !== "undefined" && Notification.permission === "denied") {
    return translate("alerts.push.blocked");
  }
  return null;
}

function deviceName(): string {
  const ua = navigator.userAgent;
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iPhone/iPad"
      : /Mac OS/.test(ua)
        ? "Mac"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : translate("alerts.push.someDevice");
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : translate("alerts.push.someBrowser");
  return translate("alerts.push.deviceName", { browser, os });
}

/** Asks for permission, subscribes with the server's VAPID key and saves this device's channel. */
export function useEnablePush() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async () => {
      const reason = pushUnsupportedReason();
      if (reason) throw new Error(reason);
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        throw new Error(translate("alerts.push.notAllowed"));
      }
      const reg = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const { publicKey } = await apiJson<WebPushKey>("GET", alertKeys.webpushKey()[0]);
      const key = Uint8Array.from(atob(publicKey.replace(/-/g, "+").replace(/_/g, "/")), (c) =>
        c.charCodeAt(0),
      );
      const existing = await reg.pushManager.getSubscription();
      const sub =
        existing ??
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
      const json = sub.toJSON() as {
        endpoint: string;
        keys: { p256dh: string; auth: string };
      };
      return apiJson<AlertChannel>("POST", "/api/user/alert-channels", {
        type: "webpush",
        deviceName: deviceName(),
        subscription: { endpoint: json.endpoint, keys: json.keys },
      } satisfies CreateAlertChannelBody);
    },
    onSuccess: (ch) => {
      void invalidate();
      toast({ title: translate("alerts.push.enabled"), description: ch.name, variant: "success" });
    },
    onError: (err) =>
      toast({
        title: translate("alerts.push.enableFailed"),
        description: err instanceof Error ? errorMessage(err, err.message) : String(err),
        variant: "destructive",
      }),
  });
}
