/** Providers and routes (docs/screens.md). Signed-in routes sit behind the guard. */
import { I18nProvider, useLingui } from "@lingui/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { Footer } from "./components/Footer.tsx";
import { Header } from "./components/Header.tsx";
import { LoadingScreen } from "./components/LoadingScreen.tsx";
import { useLiveEvents } from "./hooks/useLiveEvents.ts";
import { i18n, useT } from "./i18n/index.ts";
import { useAccountLanguage } from "./i18n/useLanguage.ts";
import { createQueryClient } from "./lib/api.ts";
import { AuthProvider, useAuth } from "./lib/auth.tsx";
import { Toaster } from "./lib/toast.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { PAGES } from "./pages.ts";
import { ROUTES, type RouteDef } from "./routes.ts";

export const queryClient = createQueryClient();

/** Shows the page to a signed-in user; sends anyone else to /login and back here afterwards. */
function Guard({ children }: { children: ReactNode }) {
  const { user, isLoading, loadError, retry } = useAuth();
  const t = useT();
  const [location] = useLocation();
  const search = useSearch();
  if (isLoading) return <LoadingScreen />;
  if (loadError) {
    return (
      <main className="container narrow">
        <article className="empty-state">
          <h1>{t("app.cannotLoad")}</h1>
          <p>{loadError}</p>
          <button type="button" onClick={retry}>
            {t("common.tryAgain")}
          </button>
        </article>
      </main>
    );
  }
  if (!user) {
    const next =
      location === "/"
        ? ""
        : `?next=${encodeURIComponent(location + (search ? `?${search}` : ""))}`;
    return <Redirect to={`/login${next}`} replace />;
  }
  return <>{children}</>;
}

function RoutePage({ route }: { route: RouteDef }) {
  const { isLoading } = useAuth();
  const { Component } = PAGES[route.page];
  if (route.access === "public") return <Component />;
  if (route.access === "sign-in") return isLoading ? <LoadingScreen /> : <Component />;
  return (
    <Guard>
      <Component />
    </Guard>
  );
}

function Routes() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Switch>
        {ROUTES.map((route) => (
          <Route key={route.path} path={route.path}>
            <RoutePage route={route} />
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** The live-event stream: one connection while a user is signed in (useLiveEvents checks). */
function LiveEvents() {
  useLiveEvents();
  return null;
}

/** The account's language and the app's kept in step (web/i18n/useLanguage.ts). */
function AccountLanguage() {
  const { user } = useAuth();
  useAccountLanguage(user !== null);
  return null;
}

/**
 * The screens, drawn again from the start when the language changes, so that every text (also
 * those formatted outside a component) is in the new language.
 */
function Shell() {
  const { i18n: active } = useLingui();
  return (
    <div className="app-shell" key={active.locale}>
      <Header />
      <Routes />
      <Footer />
    </div>
  );
}

export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <LiveEvents />
          <AccountLanguage />
          <Shell />
          <Toaster />
        </AuthProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}
