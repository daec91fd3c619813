/**
 * Connecting Gmail (docs/screens.md explainer dialog, docs/behaviour.md#states-and-transitions Email connection): the explainer with its
 * Accessed / Never accessed lists, 'Continue to Gmail' (OAuth in a popup) and the second way, an
 * app password proven by an IMAP login on the server. When the server has no Google client
 * (`gmailOAuth: false` in GET /api/config), only the app-password way is offered, and the
 * administrator gets one line on how to enable the other.
 */

import { Trans } from "@lingui/react";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { Dialog } from "../../../components/Dialog.tsx";
import { InputField } from "../../../components/Field.tsx";
import { FormError } from "../../../components/FormError.tsx";
import {
  afterConnect,
  fetchGoogleAuthUrl,
  useConnectAppPassword,
} from "../../../hooks/useMailbox.ts";
import { usePublicConfig } from "../../../hooks/usePublicConfig.ts";
import { translate, useT } from "../../../i18n/index.ts";
import { ApiError, errorMessage, readerMessage, SignedOutError } from "../../../lib/api.ts";
import { isAdmin, useAuth } from "../../../lib/auth.tsx";
import {
  listenForOAuthResult,
  type OAuthResult,
  openOAuthPopup,
  type PopupOutcome,
} from "../../../lib/oauth-popup.ts";
import { toast, toastError } from "../../../lib/toast.tsx";
import { NewTabLink } from "../NewTabLink.tsx";

export const APP_PASSWORDS_URL = "https://myaccount.google.com/apppasswords";

/** The settings the administrator's notes name, as code. */
const ENV_CODES = { 0: <code />, 1: <code />, 2: <code /> };

/** Why Google's own sign-in cannot start here, for the admin (null when it is not that). */
function configProblem(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (
    err.status === 404 &&
    (err.code === null || err.code === "not_found" || err.code === "route_not_found")
  ) {
    return translate("email.gmail.noOAuth");
  }
  if ((err.status >= 400 && err.status < 500) || err.status === 503) {
    return readerMessage(err) ?? translate("email.gmail.oauthNotSetUp");
  }
  return null;
}

/** Shows the result a popup (or the return address) reported. */
export function toastOAuthResult(result: OAuthResult) {
  if (result === "success")
    toast({ title: translate("email.gmail.connected"), variant: "success" });
  else
    toastError(null, translate("email.gmail.connectFailed"), translate("email.gmail.returnFailed"));
}

/**
 * The OAuth way: GET /api/auth/google, then the popup of docs/behaviour.md#states-and-transitions. When the popup closes, user data
 * is refetched and the scan initialised 1 s later; a result the popup announces does the same.
 */
export function useGmailOAuth() {
  const queryClient = useQueryClient();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const popup = useRef<PopupOutcome | null>(null);

  useEffect(() => {
    const stop = listenForOAuthResult((result) => {
      if (popup.current?.kind === "popup") popup.current.cancel();
      popup.current = null;
      toastOAuthResult(result);
      if (result === "success") afterConnect(queryClient);
    });
    // The popup is still watched after the tab is left: its close refetches the user's data.
    return stop;
  }, [queryClient]);

  const start = useCallback(
    async (onOpened?: () => void) => {
      setStarting(true);
      setProblem(null);
      try {
        const { authUrl } = await fetchGoogleAuthUrl();
        if (!authUrl) throw new Error(translate("email.gmail.noAuthUrl"));
        if (popup.current?.kind === "popup") popup.current.cancel();
        popup.current = openOAuthPopup(authUrl, {
          onClosed: () => {
            popup.current = null;
            afterConnect(queryClient);
          },
        });
        onOpened?.();
      } catch (err) {
        if (err instanceof SignedOutError) return;
        console.warn("Gmail: starting the authorization failed", err);
        toastError(
          err,
          translate("email.gmail.connectFailed"),
          translate("email.gmail.startFailed"),
        );
        setProblem(configProblem(err));
      } finally {
        setStarting(false);
      }
    },
    [queryClient],
  );

  return { start, starting, problem, clearProblem: () => setProblem(null) };
}
export type GmailOAuth = ReturnType<typeof useGmailOAuth>;

export function GmailConnectDialog(props: {
  open: boolean;
  onClose: () => void;
  oauth: GmailOAuth;
}) {
  const t = useT();
  const [mode, setMode] = useState<"explain" | "app-password">("explain");
  const { oauth } = props;
  const config = usePublicConfig();
  const { user } = useAuth();
  const oauthOffered = config.data?.gmailOAuth === true;
  const problemRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (oauth.problem) problemRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [oauth.problem]);
  const close = () => {
    setMode("explain");
    oauth.clearProblem();
    props.onClose();
  };
  return (
    <Dialog
      open={props.open}
      title={t("email.gmail.title")}
      onClose={close}
      className="gmail-dialog"
    >
      {config.isPending ? (
        <p aria-busy="true">{t("common.loading")}</p>
      ) : !oauthOffered ? (
        <>
          <AppPasswordForm onBack={close} backLabel={t("common.cancel")} onDone={close} />
          {isAdmin(user) && (
            <p className="muted-note admin-oauth-note">
              <Trans id="email.gmail.adminNote" components={ENV_CODES} />
            </p>
          )}
        </>
      ) : mode === "explain" ? (
        <>
          <GmailExplainer />
          {oauth.problem && (
            <div ref={problemRef} role="alert" className="alert alert-error oauth-problem">
              <strong>{t("email.gmail.unavailable")}</strong>
              <p>{oauth.problem}</p>
              <p>
                <Trans id="email.gmail.adminMust" components={ENV_CODES} />
              </p>
            </div>
          )}
          <p className="app-password-switch">
            {t("email.gmail.noCloudProject")}{" "}
            <button type="button" className="link-button" onClick={() => setMode("app-password")}>
              {t("email.gmail.useAppPassword")}
            </button>
          </p>
          <footer className="button-row end">
            <button type="button" className="secondary" onClick={close}>
              {t("common.cancel")}
            </button>
            <button
              type="button"
              disabled={oauth.starting}
              aria-busy={oauth.starting || undefined}
              onClick={() => void oauth.start(close)}
            >
              {t("email.gmail.continue")}
            </button>
          </footer>
        </>
      ) : (
        <AppPasswordForm onBack={() => setMode("explain")} onDone={close} />
      )}
    </Dialog>
  );
}

/** The explanation of Google's broad permission and what Grapevine does with it (docs/screens.md). */
export function GmailExplainer() {
  const t = useT();
  return (
    <div className="gmail-explainer">
      <p>
        <Trans id="email.gmail.explainer" components={{ 0: <strong /> }} />
      </p>
      <div className="access-lists">
        <section className="access-list access-yes" aria-labelledby="gmail-accessed">
          <h4 id="gmail-accessed">{t("email.gmail.accessed")}</h4>
          <ul>
            <li>{t("email.access.amazonOnly")}</li>
            <li>{t("email.access.folderOnly")}</li>
            <li>{t("email.access.headers")}</li>
            <li>{t("email.gmail.readStatus")}</li>
          </ul>
        </section>
        <section className="access-list access-no" aria-labelledby="gmail-never">
          <h4 id="gmail-never">{t("email.gmail.neverAccessed")}</h4>
          <ul>
            <li>{t("email.access.personal")}</li>
            <li>{t("email.access.notAmazon")}</li>
          </ul>
        </section>
      </div>
      <p className="muted-note">{t("email.gmail.neverSends")}</p>
    </div>
  );
}

/** The second way: Gmail address + app password, checked with a real IMAP login. */
function AppPasswordForm({
  onBack,
  onDone,
  backLabel,
}: {
  onBack: () => void;
  onDone: () => void;
  backLabel?: string;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [appPassword, setAppPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const connect = useConnectAppPassword();

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !appPassword.trim()) {
      setError(translate("email.appPassword.missing"));
      return;
    }
    connect.mutate(
      { email: email.trim(), appPassword },
      {
        onSuccess: () => {
          toast({ title: translate("email.gmail.connected"), variant: "success" });
          afterConnect(queryClient);
          onDone();
        },
        onError: (err) => {
          if (err instanceof SignedOutError) return;
          setError(errorMessage(err, translate("email.appPassword.unreachable")));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="app-password-form" noValidate>
      <p>{t("email.appPassword.intro")}</p>
      <ol className="app-password-steps">
        <li>{t("email.appPassword.step1")}</li>
        <li>
          <Trans
            id="email.appPassword.step2"
            values={{ site: "myaccount.google.com/apppasswords" }}
            components={{ 0: <NewTabLink href={APP_PASSWORDS_URL} /> }}
          />
        </li>
        <li>{t("email.appPassword.step3")}</li>
      </ol>
      <FormError>{error}</FormError>
      <InputField
        label={t("email.connection.address")}
        type="email"
        name="gmail-address"
        autoComplete="email"
        value={email}
        onValue={setEmail}
        placeholder="you@gmail.com"
        required
      />
      <InputField
        label={t("email.appPassword.label")}
        type="password"
        name="app-password"
        autoComplete="off"
        value={appPassword}
        onValue={setAppPassword}
        placeholder="xxxx xxxx xxxx xxxx"
        required
      />
      <footer className="button-row end">
        <button type="button" className="secondary" onClick={onBack} disabled={connect.isPending}>
          {backLabel ?? t("common.back")}
        </button>
        <button
          type="submit"
          disabled={connect.isPending}
          aria-busy={connect.isPending || undefined}
        >
          {t("email.appPassword.connect")}
        </button>
      </footer>
    </form>
  );
}
