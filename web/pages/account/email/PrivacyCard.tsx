/** The email privacy card and its 'Email Access & Privacy Details' dialog (docs/screens.md). */
import { Trans } from "@lingui/react";
import { useState } from "react";
import { Link } from "wouter";
import { Dialog } from "../../../components/Dialog.tsx";
import { GOOGLE_PERMISSIONS_URL } from "../../../components/Footer.tsx";
import { useT } from "../../../i18n/index.ts";
import { NewTabLink } from "../NewTabLink.tsx";

export function PrivacyCard() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <article className="privacy-card" aria-labelledby="privacy-card-title">
      <header>
        <h2 id="privacy-card-title">{t("email.privacy.title")}</h2>
      </header>
      <p>{t("email.privacy.text")}</p>
      <button type="button" className="secondary outline" onClick={() => setOpen(true)}>
        {t("email.privacy.view")}
      </button>
      <Dialog
        open={open}
        title={t("email.privacy.dialogTitle")}
        onClose={() => setOpen(false)}
        className="privacy-dialog"
        footer={
          <div className="button-row end">
            <button type="button" onClick={() => setOpen(false)}>
              {t("common.close")}
            </button>
          </div>
        }
      >
        <PrivacyDetails />
      </Dialog>
    </article>
  );
}

function PrivacyDetails() {
  const t = useT();
  return (
    <div className="privacy-details">
      <section>
        <h4>{t("email.privacy.whyTitle")}</h4>
        <p>
          <Trans
            id="email.privacy.why"
            values={{ scope: "https://mail.google.com/" }}
            components={{ 0: <code /> }}
          />
        </p>
      </section>
      <section>
        <h4>{t("email.access.accessed")}</h4>
        <ul>
          <li>{t("email.access.amazonOnly")}</li>
          <li>{t("email.access.folderOnly")}</li>
          <li>{t("email.access.headers")}</li>
          <li>{t("email.privacy.readStatus")}</li>
        </ul>
      </section>
      <section>
        <h4>{t("email.privacy.neverTitle")}</h4>
        <ul>
          <li>{t("email.access.personal")}</li>
          <li>{t("email.access.notAmazon")}</li>
          <li>{t("email.privacy.neverSends")}</li>
        </ul>
      </section>
      <section>
        <h4>{t("email.privacy.safeguardsTitle")}</h4>
        <ul>
          <li>{t("email.privacy.safeguardFilter")}</li>
          <li>{t("email.privacy.safeguardLocal")}</li>
          <li>{t("email.privacy.safeguardEncrypted")}</li>
          <li>{t("email.privacy.safeguardNoMail")}</li>
        </ul>
      </section>
      <section>
        <h4>{t("email.privacy.controlsTitle")}</h4>
        <ul>
          <li>{t("email.privacy.controlDisconnect")}</li>
          <li>{t("email.privacy.controlFolder")}</li>
          <li>
            <Trans
              id="email.privacy.controlRevoke"
              components={{
                0: <NewTabLink href={GOOGLE_PERMISSIONS_URL} />,
              }}
            />
          </li>
          <li>{t("email.privacy.controlDelete")}</li>
        </ul>
        <p>
          <Trans id="email.privacy.more" components={{ 0: <Link href="/privacy-policy" /> }} />
        </p>
      </section>
    </div>
  );
}
