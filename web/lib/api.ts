/**
 * The shared request helper and query defaults (docs/api.md) with the generic error handling of docs/messages.md.
 * Every call to /api carries the stored token as a Bearer header and includes credentials.
 * An error answer is `{ error, code, values }` (docs/api.md "Errors"): the reader sees the code's
 * sentence in their language (`error.<code>` in locales/), the server's English words when this
 * app does not know the code.
 */
import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { type ErrorValues, errorMessageId, shownValues } from "../../src/contract/errors.ts";
import type { TextPart } from "../../src/contract/text.ts";
import { hasMessage, i18n } from "../i18n/index.ts";
import { host, TOKEN_KEY } from "./host.ts";
import { serverText } from "./server-text.ts";

export { TOKEN_KEY };

/** The codes of a missing or no longer valid session: the app signs out on them. */
const SIGNED_OUT_CODES: readonly string[] = ["token_required", "token_invalid"];

export const getToken = (): string | null => host().token();
export const setToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = () => {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable (private mode): nothing stored to remove
  }
};

/**
 * A non-ok answer. `message` is "<status>: <body text>"; `serverMessage` is the JSON `error` field
 * (the server's English sentence), `code` and `values` its code and the values it uses.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly serverMessage: string | null,
    readonly headers: Headers,
    readonly code: string | null = null,
    readonly values: ErrorValues = {},
    /** Values that are server texts, as texts (ErrorBody `texts`). */
    readonly texts: Record<string, TextPart> = {},
  ) {
    super(`${status}: ${body}`);
  }
}

/** Thrown after the token was found invalid and the browser was sent to /login. Not shown. */
export class SignedOutError extends Error {
  constructor() {
    super("Signed out");
  }
}

type ParsedError = {
  error: string | null;
  code: string | null;
  values: ErrorValues;
  texts: Record<string, TextPart>;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function parseError(text: string): ParsedError {
  try {
    const json = JSON.parse(text) as {
      error?: unknown;
      code?: unknown;
      values?: unknown;
      texts?: unknown;
    };
    const texts: Record<string, TextPart> = {};
    if (isObject(json?.texts)) {
      for (const [name, t] of Object.entries(json.texts)) {
        if (isObject(t) && typeof t.code === "string") texts[name] = t as TextPart;
      }
    }
    return {
      error: typeof json?.error === "string" ? json.error : null,
      code: typeof json?.code === "string" ? json.code : null,
      values: isObject(json?.values) ? (json.values as ErrorValues) : {},
      texts,
    };
  } catch {
    return { error: null, code: null, values: {}, texts: {} };
  }
}

/** True when a 401/403 answer's code says the token is missing or no longer valid. */
export function isAuthFailure(status: number, text: string): boolean {
  if (status !== 401 && status !== 403) return false;
  const { code } = parseError(text);
  return code !== null && SIGNED_OUT_CODES.includes(code);
}

let onSignedOut: () => void = () => {
  window.location.href = "/login";
};
/** Lets the app replace the full-page redirect (the auth provider clears its state first). */
export function setSignedOutHandler(fn: () => void) {
  onSignedOut = fn;
}

export async function throwIfNotOk(res: Response, opts: { authRedirect?: boolean } = {}) {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  if (opts.authRedirect !== false && isAuthFailure(res.status, text)) {
    clearToken();
    onSignedOut();
    throw new SignedOutError();
  }
  const parsed = parseError(text);
  throw new ApiError(
    res.status,
    text,
    parsed.error,
    res.headers,
    parsed.code,
    parsed.values,
    parsed.texts,
  );
}

export function authHeaders(path: string): Record<string, string> {
  const token = getToken();
  return path.startsWith("/api/") && token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * A GET that web/preload.ts started before the app ran, taken once (later calls fetch again);
 * null when there is none, or it was made with another token than the stored one.
 */
export function takePreloaded(path: string): Promise<Response> | null {
  const pre = (
    globalThis as unknown as {
      __gvPreload?: { token: string; started: Record<string, Promise<Response> | undefined> };
    }
  ).__gvPreload;
  const started = pre?.started[path];
  if (!pre || !started || pre.token !== getToken()) return null;
  delete pre.started[path];
  return started;
}

/** The shared helper: method, path and an optional JSON body. Resolves to the ok Response. */
export async function apiRequest(
  method: string,
  path: string,
  body?: unknown,
  opts: { authRedirect?: boolean } = {},
): Promise<Response> {
  const early = method === "GET" && body === undefined ? takePreloaded(path) : null;
  if (early) {
    const res = await early.catch(() => null);
    if (res) {
      await throwIfNotOk(res, opts);
      return res;
    }
  }
  const headers: Record<string, string> = { ...authHeaders(path) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await host().fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
  });
  await throwIfNotOk(res, opts);
  return res;
}

export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await apiRequest(method, path, body)).json()) as T;
}

/**
 * The sentence of a failed call for the reader: the code's sentence in their language when the
 * catalog has it, else the server's own (English) words, else null.
 */
export function readerMessage(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const id = err.code === null ? null : errorMessageId(err.code);
  if (id !== null && hasMessage(id)) {
    const values = shownValues(err.values, (label, value) =>
      hasMessage(label) ? i18n._(label) : value,
    );
    // A value that is a server text is said in the reader's language too (else its English).
    const texts = Object.entries(err.texts);
    const said = texts.length === 0 ? values : { ...values };
    for (const [name, t] of texts) {
      if (said) said[name] = serverText([t], String(said[name] ?? ""));
    }
    return i18n._(id, said);
  }
  return err.serverMessage;
}

/** The message to show for a failed call: the server's sentence (in the reader's language), else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  return readerMessage(err) || fallback;
}

/**
 * The server's own sentence when the server itself is at fault in a way the user can act on: its
 * disk is full (507) or its database is busy or it is restarting (503). Failure toasts show it
 * instead of their fixed description, which would hide what to do.
 */
export function serverFaultMessage(err: unknown): string | null {
  if (!(err instanceof ApiError) || (err.status !== 507 && err.status !== 503)) return null;
  return readerMessage(err);
}

/** Default query function: GET the first element of the query key. */
export const defaultQueryFn: QueryFunction = async ({ queryKey, signal }) => {
  const path = String(queryKey[0]);
  const early = await takePreloaded(path)?.catch(() => null);
  const res =
    early ??
    (await host().fetch(path, { headers: authHeaders(path), credentials: "include", signal }));
  await throwIfNotOk(res);
  return res.json();
};

export const FIVE_MINUTES = 300_000;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        staleTime: FIVE_MINUTES,
        retry: false,
        refetchInterval: false,
        refetchOnWindowFocus: true,
        refetchOnMount: true,
        refetchOnReconnect: true,
      },
      mutations: { retry: false },
    },
  });
}

/** Downloads a protected file (the bearer token cannot go on a plain link). */
export async function downloadFile(path: string, fallbackName: string) {
  const res = await apiRequest("GET", path);
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
