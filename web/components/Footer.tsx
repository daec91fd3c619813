import { Link } from "wouter";
import { useUserData } from "../hooks/useUser.ts";
import { useT } from "../i18n/index.ts";
import { useAuth } from "../lib/auth.tsx";

export const GOOGLE_PERMISSIONS_URL = "https://myaccount.google.com/permissions";

export function Footer() {
  const { user } = useAuth();
  const t = useT();
  const { data } = useUserData({ enabled: user !== null });
  const gmail = data?.emailSettings?.provider === "gmail";
  return (
    <footer className="app-footer">
      <div className="container">
        <p>{t("app.footer.about")}</p>
        <nav aria-label={t("app.footer.label")}>
          <Link href="/privacy-policy">{t("app.footer.privacy")}</Link>
          {gmail && (
            <a href={GOOGLE_PERMISSIONS_URL} target="_blank" rel="noreferrer">
              {t("app.footer.managePermissions")}
            </a>
          )}
          {user && <Link href="/account">{t("app.footer.accountSettings")}</Link>}
        </nav>
        <small>{t("app.footer.copyright", { year: String(new Date().getFullYear()) })}</small>
      </div>
    </footer>
  );
}
