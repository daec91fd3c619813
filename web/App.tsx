/** Providers and routes (docs/screens.md). Signed-in routes sit behind the guard. */
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { Footer } from "./components/Footer.tsx";
import { Header } from "./components/Header.tsx";
import { LoadingScreen } from "./components/LoadingScreen.tsx";
import { useLiveEvents } from "./hooks/useLiveEvents.ts";
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
  const [location] = useLocation();
  const search = useSearch();
  if (isLoading) return <LoadingScreen />;
  if (loadError) {
    return (
      <main className="container narrow">
        <article className="empty-state">
          <h1>Cannot load Grapevine</h1>
          <p>{loadError}</p>
          <button type="button" onClick={retry}>
            Try Again
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

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <LiveEvents />
        <div className="app-shell">
          <Header />
          <Routes />
          <Footer />
        </div>
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>
  );
}
