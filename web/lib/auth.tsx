/**
 * Auth state (docs/behaviour.md#data, docs/behaviour.md#states-and-transitions): user, token and a loading flag. The token lives in localStorage under
 * "auth-token"; on start the user data is fetched when a token exists.
 */
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { useLocation } from "wouter";
import type { AuthResponse, PublicUser, UserData } from "../../src/contract/index.ts";
import {
  ApiError,
  apiJson,
  apiRequest,
  clearToken,
  getToken,
  setSignedOutHandler,
  setToken,
} from "./api.ts";
import { userKeys } from "./query-keys.ts";

type AuthContextValue = {
  user: PublicUser | null;
  token: string | null;
  isLoading: boolean;
  /** Set when the user data could not be loaded for a reason other than the token. */
  loadError: string | null;
  retry: () => void;
  login: (email: string, password: string) => Promise<void>;
  register: (email: string, password: string, displayname: string) => Promise<void>;
  logout: () => Promise<void>;
  /** Forgets the session locally (after the account was deleted). */
  signOutLocally: () => void;
  setUser: (u: PublicUser) => void;
};

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Before the first render: the stored token's user data (started early by web/preload.ts) into the
 * cache, so the first render is already signed in. True when it is there; on any failure nothing
 * is stored and AuthProvider asks again and handles the answer as usual.
 */
export async function primeUser(queryClient: QueryClient): Promise<boolean> {
  if (!getToken()) return false;
  try {
    const res = await apiRequest("GET", userKeys.data()[0], undefined, { authRedirect: false });
    queryClient.setQueryData(userKeys.data(), (await res.json()) as UserData);
    return true;
  } catch {
    return false;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [token, setTokenState] = useState<string | null>(() => getToken());
  // Filled before the first render when web/main.tsx could prime it (primeUser).
  const [user, setUser] = useState<PublicUser | null>(() => {
    const data = getToken() ? queryClient.getQueryData<UserData>(userKeys.data()) : undefined;
    return data ? { userid: data.userid, email: data.email, displayname: data.displayname } : null;
  });
  const [isLoading, setLoading] = useState<boolean>(() => getToken() !== null && user === null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const signOutLocally = useCallback(() => {
    clearToken();
    setTokenState(null);
    setUser(null);
    setLoading(false);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    setSignedOutHandler(() => {
      signOutLocally();
      navigate("/login");
    });
  }, [signOutLocally, navigate]);

  // On start (and after a retry): a stored token means fetching the user data, once, no retry.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the fetch on retry
  useEffect(() => {
    if (!token || user) return;
    let cancelled = false;
    setLoading(true);
    setLoadError(null);
    apiRequest("GET", userKeys.data()[0], undefined, { authRedirect: false })
      .then((res) => res.json() as Promise<UserData>)
      .then((data) => {
        if (cancelled) return;
        queryClient.setQueryData(userKeys.data(), data);
        setUser({ userid: data.userid, email: data.email, displayname: data.displayname });
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
          signOutLocally();
          return;
        }
        setLoadError("Grapevine could not be reached. Check that the server is running.");
        setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [token, attempt, queryClient, signOutLocally]);

  const accept = useCallback(
    (res: AuthResponse) => {
      setToken(res.token);
      queryClient.clear();
      setUser(res.user);
      setTokenState(res.token);
      setLoadError(null);
      setLoading(false);
    },
    [queryClient],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      token,
      isLoading,
      loadError,
      retry: () => setAttempt((n) => n + 1),
      async login(email, password) {
        accept(await apiJson<AuthResponse>("POST", "/api/auth/login", { email, password }));
      },
      async register(email, password, displayname) {
        accept(
          await apiJson<AuthResponse>("POST", "/api/auth/register", {
            email,
            password,
            displayname,
          }),
        );
      },
      async logout() {
        try {
          await apiRequest("POST", "/api/auth/logout", undefined, { authRedirect: false });
        } catch {
          // the token is forgotten locally either way
        }
        signOutLocally();
        navigate("/login");
      },
      signOutLocally,
      setUser,
    }),
    [user, token, isLoading, loadError, accept, signOutLocally, navigate],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth outside AuthProvider");
  return ctx;
}

export const isAdmin = (user: PublicUser | null) => user?.userid === 1;
