/** Sign in and create account on one screen (docs/screens.md, docs/behaviour.md#validation). */

import { type FormEvent, useState } from "react";
import { Redirect, useSearch } from "wouter";
import { InputField } from "../components/Field.tsx";
import { FormError } from "../components/FormError.tsx";
import { GrapeIcon } from "../components/GrapeIcon.tsx";
import { useT } from "../i18n/index.ts";
import { LanguagePicker } from "../i18n/LanguagePicker.tsx";
import { pickLanguageBeforeSignIn } from "../i18n/useLanguage.ts";
import { errorMessage } from "../lib/api.ts";
import { useAuth } from "../lib/auth.tsx";

/** Where to go after signing in: a same-site path from ?next=, else the dashboard. */
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get("next");
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/login") ? next : "/";
}

type Mode = "signin" | "register";

/**
 * What was on the form when a language was picked: the screens are drawn again in the new
 * language (web/App.tsx), and the reader should not lose the mode or what they typed. Not the
 * password.
 */
let kept: { mode: Mode; email: string; displayname: string } | null = null;

export function LoginPage() {
  const { user, login, register } = useAuth();
  const t = useT();
  const search = useSearch();
  const [initial] = useState(() => {
    const form = kept;
    kept = null;
    return form;
  });
  const [mode, setMode] = useState<Mode>(initial?.mode ?? "signin");
  const [email, setEmail] = useState(initial?.email ?? "");
  const [password, setPassword] = useState("");
  const [displayname, setDisplayname] = useState(initial?.displayname ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (user) return <Redirect to={safeNext(search)} replace />;

  const registering = mode === "register";

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (registering) await register(email.trim(), password, displayname.trim());
      else await login(email.trim(), password);
    } catch (err) {
      setError(errorMessage(err, t("auth.error")));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="container login-page">
      <article className="login-card">
        <header>
          <GrapeIcon size={40} />
          <h1>{registering ? t("auth.register.title") : t("auth.signIn.title")}</h1>
          <p>{registering ? t("auth.register.intro") : t("auth.signIn.intro")}</p>
        </header>
        <form onSubmit={submit}>
          <FormError>{error}</FormError>
          <InputField
            label={t("auth.email")}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
          />
          <InputField
            label={t("auth.password")}
            type="password"
            name="password"
            autoComplete={registering ? "new-password" : "current-password"}
            required
            minLength={6}
            value={password}
            onValue={setPassword}
          />
          {registering && (
            <InputField
              label={t("auth.displayName")}
              type="text"
              name="displayname"
              autoComplete="name"
              required
              minLength={2}
              value={displayname}
              onValue={setDisplayname}
            />
          )}
          <button type="submit" disabled={busy} aria-busy={busy || undefined}>
            {busy
              ? t("auth.wait")
              : registering
                ? t("auth.register.submit")
                : t("auth.signIn.submit")}
          </button>
        </form>
        <footer>
          <p>
            {registering ? t("auth.register.haveAccount") : t("auth.signIn.new")}{" "}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setMode(registering ? "signin" : "register");
                setError(null);
              }}
            >
              {registering ? t("auth.register.toSignIn") : t("auth.signIn.toRegister")}
            </button>
          </p>
          <LanguagePicker
            className="login-language"
            onPick={(language) => {
              kept = { mode, email, displayname };
              void pickLanguageBeforeSignIn(language);
            }}
          />
        </footer>
      </article>
    </main>
  );
}
