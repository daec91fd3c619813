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

const TABS: Tab[] = [
  { id: "profile", label: "Profile Information", short: "Profile", render: () => <ProfileTab /> },
  {
    id: "reviews",
    label: "Review Settings",
    short: "Reviews",
    render: () => (
      <Suspense fallback={<article aria-busy="true" aria-label="Loading review settings" />}>
        <ReviewSettingsTab />
      </Suspense>
    ),
  },
  {
    id: "tracking",
    label: "Shipment Tracking",
    short: "Tracking",
    render: () => <TrackingTab />,
  },
  { id: "email", label: "Email Configuration", short: "Email", render: () => <EmailTab /> },
  {
    id: "alerts",
    label: "Alerts",
    short: "Alerts",
    render: () => (
      <Suspense fallback={<article aria-busy="true" aria-label="Loading alert channels" />}>
        <AlertsTab />
      </Suspense>
    ),
  },
];

function initialTab(): string {
  const params = new URLSearchParams(window.location.search);
  if (readOAuthResult(window.location.search)) return "email";
  const wanted = params.get("tab");
  return TABS.some((t) => t.id === wanted) ? wanted! : TABS[0]!.id;
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
  const [active, setActive] = useState(initialTab);
  const showEmail = useRef(() => setActive("email")).current;
  useOAuthReturn(showEmail);
  const tab = TABS.find((t) => t.id === active) ?? TABS[0]!;
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
        <h1>Account Settings</h1>
        <p>Your profile, review and tracking settings, email connection and data.</p>
      </hgroup>
      <Tabs tabs={TABS} active={tab.id} onSelect={selectTab} label="Account sections">
        {tab.render()}
      </Tabs>
    </main>
  );
}
