/**
 * Account settings (docs/screens.md): Profile Information, Review Settings, Shipment Tracking and Email
 * Configuration (the Reviews and Tracking tabs load on demand). `?tab=<id>` opens a tab; a return
 * from Gmail's authorization (`?oauth=success|error`) opens the Email tab, shows its toast and is
 * then removed from the address (docs/screens.md).
 */
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Tabs } from "../components/Tabs.tsx";
import { afterConnect } from "../hooks/useMailbox.ts";
import { type T, useT } from "../i18n/index.ts";
import {
  announceOAuthResult,
  readOAuthResult,
  takeOAuthPending,
  withoutOAuthParam,
} from "../lib/oauth-popup.ts";
import { EmailTab } from "./account/EmailTab.tsx";
import { toastOAuthResult } from "./account/email/GmailConnectDialog.tsx";
import { ProfileTab } from "./account/ProfileTab.tsx";
import { TrackingTab } from "./account/TrackingTab.tsx";

type Tab = { id: string; label: string; short: string; render: () => React.ReactNode };

/** Loaded when first opened: it carries the tone-allocation logic and its own styles. */
const ReviewSettingsTab = lazy(() =>
  import("./account/ReviewSettingsTab.tsx").then((m) => ({ default: m.ReviewSettingsTab })),
);

/** Loaded when first opened (alert channels, push on this device). */
const AlertsTab = lazy(() =>
  import("./account/AlertsTab.tsx").then((m) => ({ default: m.AlertsTab })),
);

const TAB_IDS = ["profile", "reviews", "tracking", "email", "alerts"] as const;

/** The tabs in the reader's language. */
function tabs(t: T): Tab[] {
  return [
    {
      id: "profile",
      label: t("account.tab.profile"),
      short: t("account.tab.profileShort"),
      render: () => <ProfileTab />,
    },
    {
      id: "reviews",
      label: t("account.tab.reviews"),
      short: t("account.tab.reviewsShort"),
      render: () => (
        <Suspense fallback={<article aria-busy="true" aria-label={t("reviewSettings.loading")} />}>
          <ReviewSettingsTab />
        </Suspense>
      ),
    },
    {
      id: "tracking",
      label: t("account.tab.tracking"),
      short: t("account.tab.trackingShort"),
      render: () => <TrackingTab />,
    },
    {
      id: "email",
      label: t("account.tab.email"),
      short: t("account.tab.emailShort"),
      render: () => <EmailTab />,
    },
    {
      id: "alerts",
      label: t("account.tab.alerts"),
      short: t("account.tab.alertsShort"),
      render: () => (
        <Suspense fallback={<article aria-busy="true" aria-label={t("alerts.loading")} />}>
          <AlertsTab />
        </Suspense>
      ),
    },
  ];
}

function initialTab(): string {
  const params = new URLSearchParams(window.location.search);
  if (readOAuthResult(window.location.search)) return "email";
  const wanted = params.get("tab");
  return TAB_IDS.some((id) => id === wanted) ? wanted! : TAB_IDS[0];
}

/** The return from Gmail's authorization: toast, address cleanup, and (on success) the scan. */
function useOAuthReturn(onReturn: () => void) {
  const queryClient = useQueryClient();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    const result = readOAuthResult(window.location.search);
    if (!result) return;
    handled.current = true;
    window.history.replaceState(window.history.state, "", withoutOAuthParam(window.location.href));
    onReturn();
    // In the popup: tell the page that opened it and close. If the window stays open (it was not
    // opened by script), it goes on like a normal return below.
    if (takeOAuthPending()) announceOAuthResult(result);
    toastOAuthResult(result);
    if (result === "success") afterConnect(queryClient);
  }, [queryClient, onReturn]);
}

export function AccountPage() {
  const t = useT();
  const TABS = tabs(t);
  const [active, setActive] = useState(initialTab);
  const showEmail = useRef(() => setActive("email")).current;
  useOAuthReturn(showEmail);
  const tab = TABS.find((x) => x.id === active) ?? TABS[0]!;
  // The chosen tab goes in the address, so a reload or a shared link opens the same tab.
  const selectTab = (id: string) => {
    setActive(id);
    const url = new URL(window.location.href);
    if (id === TABS[0]!.id) url.searchParams.delete("tab");
    else url.searchParams.set("tab", id);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  };
  return (
    <main className="container">
      <hgroup>
        <h1>{t("account.title")}</h1>
        <p>{t("account.subtitle")}</p>
      </hgroup>
      <Tabs tabs={TABS} active={tab.id} onSelect={selectTab} label={t("account.sections")}>
        {tab.render()}
      </Tabs>
    </main>
  );
}
