/** The public privacy policy (docs/screens.md). Keep it true to what the code does. */
import { Trans } from "@lingui/react";
import { type MessageId, useT } from "../i18n/index.ts";

/** A sentence of the policy; `<0>…</0>` in it is drawn bold. */
function Text({ id }: { id: MessageId }) {
  return <Trans id={id} components={{ 0: <strong /> }} />;
}

function List({ ids }: { ids: readonly MessageId[] }) {
  return (
    <ul>
      {ids.map((id) => (
        <li key={id}>
          <Text id={id} />
        </li>
      ))}
    </ul>
  );
}

export function PrivacyPolicyPage() {
  const t = useT();
  return (
    <main className="container narrow privacy">
      <hgroup>
        <h1>{t("privacy.title")}</h1>
        <p>
          <span>{t("privacy.updated")}</span> · <span>{t("privacy.version")}</span>
        </p>
      </hgroup>
      <p>{t("privacy.intro")}</p>

      <section>
        <h2>{t("privacy.email.title")}</h2>
        <h3>{t("privacy.email.whyTitle")}</h3>
        <p>{t("privacy.email.why")}</p>
        <h3>{t("privacy.email.doesTitle")}</h3>
        <List
          ids={[
            "privacy.email.does1",
            "privacy.email.does2",
            "privacy.email.does3",
            "privacy.email.does4",
          ]}
        />
        <h3>{t("privacy.email.neverTitle")}</h3>
        <List ids={["privacy.email.never1", "privacy.email.never2", "privacy.email.never3"]} />
      </section>

      <section>
        <h2>{t("privacy.data.title")}</h2>
        <h3>{t("privacy.data.storedTitle")}</h3>
        <List
          ids={[
            "privacy.data.stored1",
            "privacy.data.stored2",
            "privacy.data.stored3",
            "privacy.data.stored4",
            "privacy.data.stored5",
            "privacy.data.stored6",
          ]}
        />
        <h3>{t("privacy.data.notStoredTitle")}</h3>
        <List
          ids={["privacy.data.notStored1", "privacy.data.notStored2", "privacy.data.notStored3"]}
        />
        <h3>{t("privacy.ai.title")}</h3>
        <List
          ids={["privacy.ai.1", "privacy.ai.2", "privacy.ai.3", "privacy.ai.4", "privacy.ai.5"]}
        />
        <h3>{t("privacy.security.title")}</h3>
        <List
          ids={[
            "privacy.security.1",
            "privacy.security.2",
            "privacy.security.3",
            "privacy.security.4",
            "privacy.security.5",
          ]}
        />
      </section>

      <section>
        <h2>{t("privacy.alerts.title")}</h2>
        <p>{t("privacy.alerts.intro")}</p>
        <List
          ids={[
            "privacy.alerts.ntfy",
            "privacy.alerts.webhooks",
            "privacy.alerts.push",
            "privacy.alerts.kept",
          ]}
        />
      </section>

      <section>
        <h2>{t("privacy.processing.title")}</h2>
        <List
          ids={[
            "privacy.processing.filtering",
            "privacy.processing.local",
            "privacy.processing.realtime",
            "privacy.processing.tracking",
          ]}
        />
      </section>

      <section>
        <h2>{t("privacy.rights.title")}</h2>
        <List
          ids={[
            "privacy.rights.disconnect",
            "privacy.rights.folders",
            "privacy.rights.export",
            "privacy.rights.delete",
            "privacy.rights.revoke",
          ]}
        />
      </section>

      <section>
        <h2>{t("privacy.contact.title")}</h2>
        <p>{t("privacy.contact.text")}</p>
      </section>
    </main>
  );
}
