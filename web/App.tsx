/** Providers and routes (docs/screens.md). Signed-in routes sit behind the guard. */
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { Footer } from "./components/Footer.tsx";
import { Header } from "./components/Header.tsx";
import { LoadingScreen } from "./components/LoadingScreen.tsx";
import { useLiveEvents } from "./hooks/useLiveEvents.ts";
import { createQueryClient } from "./lib/api.ts";
import { AuthProvider, useAuth } from "./lib/auth.tsx";
import { Toaster } from "./lib/toast.tsx";
import { DashboardPage } from "./pages/DashboardPage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";

// Screens other than the dashboard load on demand, keeping the first load small. Sign-in is one
// of them: a signed-in visitor never needs it, and web/preload.ts fetches it early for the others.
const LoginPage = lazy(() =>
  import("./pages/LoginPage.tsx").then((m) => ({ default: m.LoginPage })),
);
const AccountPage = lazy(() =>
  import("./pages/AccountPage.tsx").then((m) => ({ default: m.AccountPage })),
);
const AdminLogsPage = lazy(() =>
  import("./pages/AdminLogsPage.tsx").then((m) => ({ default: m.AdminLogsPage })),
);
const OrdersPage = lazy(() =>
  import("./pages/OrdersPage.tsx").then((m) => ({ default: m.OrdersPage })),
);
const AddOrderPage = lazy(() =>
  import("./pages/AddOrderPage.tsx").then((m) => ({ default: m.AddOrderPage })),
);
const EditOrderPage = lazy(() =>
  import("./pages/EditOrderPage.tsx").then((m) => ({ default: m.EditOrderPage })),
);
const VinePage = lazy(() => import("./pages/VinePage.tsx").then((m) => ({ default: m.VinePage })));
const PrivacyPolicyPage = lazy(() =>
  import("./pages/PrivacyPolicyPage.tsx").then((m) => ({ default: m.PrivacyPolicyPage })),
);

const queryClient = createQueryClient();

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

function Routes() {
  const { isLoading } = useAuth();
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Switch>
        <Route path="/login">{isLoading ? <LoadingScreen /> : <LoginPage />}</Route>
        <Route path="/privacy-policy" component={PrivacyPolicyPage} />
        <Route path="/">
          <Guard>
            <DashboardPage />
          </Guard>
        </Route>
        <Route path="/orders">
          <Guard>
            <OrdersPage />
          </Guard>
        </Route>
        <Route path="/orders/new">
          <Guard>
            <AddOrderPage />
          </Guard>
        </Route>
        <Route path="/orders/:id/edit">
          <Guard>
            <EditOrderPage />
          </Guard>
        </Route>
        <Route path="/account">
          <Guard>
            <AccountPage />
          </Guard>
        </Route>
        <Route path="/vine">
          <Guard>
            <VinePage />
          </Guard>
        </Route>
        <Route path="/admin/logs">
          <Guard>
            <AdminLogsPage />
          </Guard>
        </Route>
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
