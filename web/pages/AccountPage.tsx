/**
 * Account settings (spec §2). Tabs appear here as their features arrive; today: Profile.
 */
import { useState } from "react";
import { ProfileTab } from "./account/ProfileTab.tsx";

type Tab = { id: string; label: string; short: string; render: () => React.ReactNode };

const TABS: Tab[] = [
  { id: "profile", label: "Profile Information", short: "Profile", render: () => <ProfileTab /> },
];

export function AccountPage() {
  const [active, setActive] = useState(TABS[0]!.id);
  const tab = TABS.find((t) => t.id === active) ?? TABS[0]!;
  return (
    <main className="container">
      <hgroup>
        <h1>Account Settings</h1>
        <p>Your profile, password and data.</p>
      </hgroup>
      <div role="tablist" className="tabs" aria-label="Account sections">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === tab.id}
            aria-controls={`panel-${t.id}`}
            className={t.id === tab.id ? "tab active" : "tab"}
            onClick={() => setActive(t.id)}
          >
            <span className="label-long">{t.label}</span>
            <span className="label-short">{t.short}</span>
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`panel-${tab.id}`} aria-labelledby={`tab-${tab.id}`}>
        {tab.render()}
      </section>
    </main>
  );
}
