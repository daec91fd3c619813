/**
 * Every page of the route table (`web/routes.ts`), each loaded on demand so the first chunk holds
 * only the shell: /orders does not carry the dashboard's code, nor the dashboard the list's. A page
 * module may export `prime`, which fills the query cache with its first render's data before the
 * first render (web/main.tsx), so that render already shows the rows.
 */
import { type ComponentType, lazy } from "react";
import { catalogLoaded } from "./i18n/index.ts";
import type { PageName, Prime } from "./routes.ts";
// The order card (and what it imports) is shared by both first screens, the dashboard and the
// list: in the first chunk it saves a phone five small requests that would each wait their turn
// for one of the browser's six connections.
import "./components/orders/OrderCard.tsx";

type PageModule = { Page: ComponentType; prime?: Prime };

/** A page beyond the first screens shows once the rest of the catalog is there too. */
const withCatalog = <M>(module: Promise<M>): Promise<M> =>
  Promise.all([module, catalogLoaded()]).then(([m]) => m);

const LOADERS: Record<PageName, () => Promise<PageModule>> = {
  LoginPage: () => import("./pages/LoginPage.tsx").then((m) => ({ Page: m.LoginPage })),
  PrivacyPolicyPage: () =>
    withCatalog(import("./pages/PrivacyPolicyPage.tsx")).then((m) => ({
      Page: m.PrivacyPolicyPage,
    })),
  DashboardPage: () =>
    import("./pages/DashboardPage.tsx").then((m) => ({ Page: m.DashboardPage, prime: m.prime })),
  OrdersPage: () =>
    import("./pages/OrdersPage.tsx").then((m) => ({ Page: m.OrdersPage, prime: m.prime })),
  AddOrderPage: () =>
    withCatalog(import("./pages/AddOrderPage.tsx")).then((m) => ({ Page: m.AddOrderPage })),
  EditOrderPage: () =>
    withCatalog(import("./pages/EditOrderPage.tsx")).then((m) => ({ Page: m.EditOrderPage })),
  AccountPage: () =>
    withCatalog(import("./pages/AccountPage.tsx")).then((m) => ({ Page: m.AccountPage })),
  VinePage: () => withCatalog(import("./pages/VinePage.tsx")).then((m) => ({ Page: m.VinePage })),
  AdminLogsPage: () =>
    withCatalog(import("./pages/AdminLogsPage.tsx")).then((m) => ({ Page: m.AdminLogsPage })),
};

type Page = {
  /** The page as a component: suspends while its chunk loads, not once `load` has resolved. */
  Component: ComponentType;
  load: () => Promise<PageModule>;
};

function page(loader: () => Promise<PageModule>): Page {
  let loaded: PageModule | undefined;
  let loading: Promise<PageModule> | undefined;
  const load = () => {
    loading ??= loader().then(
      (m) => {
        loaded = m;
        return m;
      },
      (err: unknown) => {
        loading = undefined; // a chunk that failed to arrive is asked for again next time
        throw err;
      },
    );
    return loading;
  };
  // A thenable that answers at once when the module is already there: React.lazy then renders the
  // page in the same pass instead of showing the fallback for a frame (and its reveal delay).
  // (React reads only `then`; its type asks for a Promise.)
  const Component = lazy(() => {
    const ready = loaded;
    if (!ready) return load().then((m) => ({ default: m.Page }));
    const now = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable React.lazy resolves synchronously
      then: (resolve: (m: { default: ComponentType }) => void) => resolve({ default: ready.Page }),
    };
    return now as unknown as Promise<{ default: ComponentType }>;
  }) as ComponentType;
  return { Component, load };
}

export const PAGES = Object.fromEntries(
  Object.entries(LOADERS).map(([name, loader]) => [name, page(loader)]),
) as Record<PageName, Page>;
