/**
 * Account Settings → Email Configuration (docs/screens.md): connected box or provider chooser, the expired
 * warning, Process Old Emails and folder settings (connected only), file import and privacy.
 */
import { useState } from "react";
import { useTimeZone } from "../../hooks/useTimeZone.ts";
import { useUserData } from "../../hooks/useUser.ts";
import { useT } from "../../i18n/index.ts";
import { ConnectedBox, ExpiredWarning, ProviderChooser } from "./email/ConnectionCards.tsx";
import { FolderSettings } from "./email/FolderSettings.tsx";
import { GmailConnectDialog, useGmailOAuth } from "./email/GmailConnectDialog.tsx";
import { ImportCard } from "./email/ImportCard.tsx";
import { ImportModeCard } from "./email/ImportModeCard.tsx";
import { PrivacyCard } from "./email/PrivacyCard.tsx";
import { ProcessOldEmails } from "./email/ProcessOldEmails.tsx";
import { isAuthorizationExpired } from "./email/settings.ts";
import "../../styles/mailbox.css";
import { LoadFailed } from "../../components/LoadFailed.tsx";

export function EmailTab() {
  const t = useT();
  const { data: user, isLoading, isError, refetch } = useUserData();
  const timeZone = useTimeZone();
  const oauth = useGmailOAuth();
  const [gmailOpen, setGmailOpen] = useState(false);
  const settings = user?.emailSettings ?? null;
  const connected = settings?.isConnected === true;

  if (isLoading) {
    return <article aria-busy="true" aria-label={t("email.loading")} />;
  }
  if (isError || !user) {
    return <LoadFailed message={t("email.loadFailed")} onRetry={refetch} />;
  }

  return (
    <div className="email-tab">
      {isAuthorizationExpired(settings) && (
        <ExpiredWarning
          emailAddress={settings?.emailAddress ?? null}
          onReconnect={() => setGmailOpen(true)}
        />
      )}
      {connected && settings ? (
        <>
          <ConnectedBox user={user} settings={settings} timeZone={timeZone} />
          <ProcessOldEmails settings={settings} emailsScanned={user.emailsscanned} />
          <FolderSettings settings={settings} />
        </>
      ) : (
        <ProviderChooser onGmail={() => setGmailOpen(true)} />
      )}
      <ImportModeCard mode={user.importMode ?? "vine"} connected={connected} />
      <ImportCard connected={connected} importMode={user.importMode ?? "vine"} />
      <PrivacyCard />
      <GmailConnectDialog open={gmailOpen} onClose={() => setGmailOpen(false)} oauth={oauth} />
    </div>
  );
}
