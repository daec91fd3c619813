import { Link } from "wouter";
import { useT } from "../i18n/index.ts";
import { useAuth } from "../lib/auth.tsx";

export function NotFoundPage() {
  const { user } = useAuth();
  const t = useT();
  return (
    <main className="container narrow">
      <article className="not-found">
        <h1>{t("app.notFound.title")}</h1>
        <p>{t("app.notFound.text")}</p>
        <Link href={user ? "/" : "/login"} role="button">
          {user ? t("app.notFound.backToDashboard") : t("app.notFound.goToSignIn")}
        </Link>
      </article>
    </main>
  );
}
