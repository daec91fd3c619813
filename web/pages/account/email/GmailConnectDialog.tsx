/**
 * Connecting Gmail (docs/screens.md explainer dialog, docs/behaviour.md#states-and-transitions Email connection): the explainer with its
 * Accessed / Never accessed lists, 'Continue to Gmail' (OAuth in a popup) and the second way, an
 * app password proven by an IMAP login on the server. When the server has no Google client
 * (`gmailOAuth: false` in GET /api/config), only the app-password way is offered, and the
 * administrator gets one line on how to enable the other.
 */

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
import { ApiError, errorMessage, readerMessage, SignedOutError } from "../../../lib/api.ts";
import { isAdmin, useAuth } from "../../../lib/auth.tsx";
import {
  listenForOAuthResult,
  type OAuthResult,
  openOAuthPopup,
  type PopupOutcome,
} from "../../../lib/oauth-popup.ts";
import { toast, toastError } from "../../../lib/toast.tsx";

export const CONNECT_FAILED_TITLE = "Connection Failed";
export const CONNECT_FAILED_TEXT =
  "Unable to connect to Gmail. Please ensure your Google OAuth app is properly configured for external users.";
export const OAUTH_RETURN_FAILED_TEXT = "Failed to connect your Gmail account. Please try again.";
export const APP_PASSWORDS_URL = "https://myaccount.google.com/apppasswords";

/** Why Google's own sign-in cannot start here, for the admin (null when it is not that). */
function configProblem(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (
    err.status === 404 &&
    (err.code === null || err.code === "not_found" || err.code === "route_not_found")
  ) {
    return "This server does not offer Gmail sign-in with Google (OAuth).";
  }
  if ((err.status >= 400 && err.status < 500) || err.status === 503) {
    return readerMessage(err) ?? "Gmail sign-in with Google (OAuth) is not set up on this server.";
  }
  return null;
}

/** Shows the result a popup (or the return address) reported. */
export function toastOAuthResult(result: OAuthResult) {
  if (result === "success") toast({ title: "Email Connected", variant: "success" });
  else toastError(null, CONNECT_FAILED_TITLE, OAUTH_RETURN_FAILED_TEXT);
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
        if (!authUrl) throw new Error("The server did not answer an authorization address");
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
        toastError(err, CONNECT_FAILED_TITLE, CONNECT_FAILED_TEXT);
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
    <Dialog open={props.open} title="Connect Gmail" onClose={close} className="gmail-dialog">
      {config.isPending ? (
        <p aria-busy="true">Loading…</p>
      ) : !oauthOffered ? (
        <>
          <AppPasswordForm onBack={close} backLabel="Cancel" onDone={close} />
          {isAdmin(user) && (
            <p className="muted-note admin-oauth-note">
              Administrator: to offer Gmail sign-in with Google as well, set{" "}
              <code>GOOGLE_CLIENT_ID</code>, <code>GOOGLE_CLIENT_SECRET</code> and{" "}
              <code>PUBLIC_URL</code> (the README explains the Google Cloud setup) and restart
              Grapevine.
            </p>
          )}
        </>
      ) : mode === "explain" ? (
        <>
          <GmailExplainer />
          {oauth.problem && (
            <div ref={problemRef} role="alert" className="alert alert-error oauth-problem">
              <strong>{CONNECT_FAILED_TITLE}: Gmail sign-in is not available.</strong>
              <p>{oauth.problem}</p>
              <p>
                The administrator of this Grapevine server must set <code>GOOGLE_CLIENT_ID</code>,{" "}
                <code>GOOGLE_CLIENT_SECRET</code> and <code>PUBLIC_URL</code> (the README explains
                the Google Cloud setup) and restart it. Until then you can connect with an app
                password.
              </p>
            </div>
          )}
          <p className="app-password-switch">
            No Google Cloud project?{" "}
            <button type="button" className="link-button" onClick={() => setMode("app-password")}>
              Use an app password instead
            </button>
          </p>
          <footer className="button-row end">
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              disabled={oauth.starting}
              aria-busy={oauth.starting || undefined}
              onClick={() => void oauth.start(close)}
            >
              Continue to Gmail
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
  return (
    <div className="gmail-explainer">
      <p>
        <strong>Google will show very broad permissions.</strong> Grapevine reads your mail over
        IMAP, and Google grants IMAP access only with its full mail permission, so the consent
        screen says Grapevine could read, send and delete all your email. Grapevine uses only the
        little it needs to track your Vine orders:
      </p>
      <div className="access-lists">
        <section className="access-list access-yes" aria-labelledby="gmail-accessed">
          <h4 id="gmail-accessed">Accessed</h4>
          <ul>
            <li>Only emails from Amazon's domains</li>
            <li>Only the folder you choose to monitor</li>
            <li>Email headers and content, to extract your order details</li>
            <li>Read status (to mark processed emails as read, if you choose)</li>
          </ul>
        </section>
        <section className="access-list access-no" aria-labelledby="gmail-never">
          <h4 id="gmail-never">Never accessed</h4>
          <ul>
            <li>Personal, work and financial emails</li>
            <li>Any email that is not from Amazon</li>
          </ul>
        </section>
      </div>
      <p className="muted-note">Grapevine never sends, deletes or shares your email.</p>
    </div>
  );
}

/** The second way: Gmail address + app password, checked with a real IMAP login. */
function AppPasswordForm({
  onBack,
  onDone,
  backLabel = "Back",
}: {
  onBack: () => void;
  onDone: () => void;
  backLabel?: string;
}) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [appPassword, setAppPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const connect = useConnectAppPassword();

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !appPassword.trim()) {
      setError("Enter your Gmail address and the app password.");
      return;
    }
    connect.mutate(
      { email: email.trim(), appPassword },
      {
        onSuccess: () => {
          toast({ title: "Email Connected", variant: "success" });
          afterConnect(queryClient);
          onDone();
        },
        onError: (err) => {
          if (err instanceof SignedOutError) return;
          setError(
            errorMessage(err, "Gmail could not be reached. Check your connection and try again."),
          );
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="app-password-form" noValidate>
      <p>
        An app password lets Grapevine sign in to Gmail over IMAP without a Google Cloud project.
      </p>
      <ol className="app-password-steps">
        <li>Turn on 2-Step Verification for your Google account (app passwords need it).</li>
        <li>
          Create an app password at{" "}
          <a href={APP_PASSWORDS_URL} target="_blank" rel="noreferrer">
            myaccount.google.com/apppasswords
          </a>{" "}
          (any name, for example "Grapevine").
        </li>
        <li>Paste the 16-letter password below. Spaces do not matter.</li>
      </ol>
      <FormError>{error}</FormError>
      <InputField
        label="Gmail address"
        type="email"
        name="gmail-address"
        autoComplete="email"
        value={email}
        onValue={setEmail}
        placeholder="you@gmail.com"
        required
      />
      <InputField
        label="App password"
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
          {backLabel}
        </button>
        <button
          type="submit"
          disabled={connect.isPending}
          aria-busy={connect.isPending || undefined}
        >
          Connect with App Password
        </button>
      </footer>
    </form>
  );
}
