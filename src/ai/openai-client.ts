/**
 * The AI server: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, LM Studio...)
 * through the openai SDK (docs/behaviour.md#ai-server). One call, no retries of its own (the SDK would otherwise
 * retry 429s and 5xx behind our back), a hard timeout, and every failure turned into an AiFailure
 * with a kind the enhancement service maps to the statuses the client expects (docs/messages.md).
 */
import type OpenAI from "openai";
import type { Config } from "../config.ts";
import { retryAfterMs } from "../util/retry-after.ts";

export type ChatMessage = { role: "system" | "user"; content: string };

export type AiFailureKind =
  /** No answer within the timeout. */
  | "timeout"
  /** The AI server answered 429; `retryAfterSeconds` is its wait (or the default). */
  | "rate-limited"
  /** The caller's request was aborted (the browser went away). */
  | "aborted"
  /** Anything else: refused key, unknown model, refused request, 5xx, unreachable. */
  | "failed";

export class AiFailure extends Error {
  constructor(
    readonly kind: AiFailureKind,
    message: string,
    readonly retryAfterSeconds: number | null = null,
    /** The AI server's HTTP status, when it answered. */
    readonly upstreamStatus: number | null = null,
  ) {
    super(message);
  }
}

export type AiClient = {
  readonly model: string;
  /** The assistant message's content (null or "" when the model said nothing). */
  complete(
    messages: ChatMessage[],
    opts?: { temperature?: number; signal?: AbortSignal },
  ): Promise<string | null>;
};

/** OpenAI's own address, used when only a key is configured. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Ollama and LM Studio ignore the key, but the SDK insists on one. */
export const PLACEHOLDER_API_KEY = "not-needed";

/**
 * Seconds to wait from a 429's headers (src/util/retry-after.ts reads them). Rounded up, at
 * least 1, at most a day; `fallback` when absent or unreadable.
 */
export function retryAfterSeconds(
  headers: Headers | null | undefined,
  fallback: number,
  now = Date.now(),
): number {
  const ms = retryAfterMs(headers, now);
  return ms === null ? fallback : Math.max(1, Math.ceil(ms / 1000));
}

/** The SDK, loaded with the first enhancement: a server that never enhances does not carry it. */
let sdk: Promise<typeof OpenAI> | null = null;
const loadSdk = () => {
  sdk ??= import("openai").then((m) => m.default);
  return sdk;
};

/** The SDK's error as an AiFailure with a message an administrator can act on. */
export function toAiFailure(
  err: unknown,
  ctx: { model: string; defaultRetrySeconds: number },
  OpenAI: typeof import("openai").default,
) {
  if (err instanceof AiFailure) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new AiFailure("timeout", "The AI server did not answer in time");
  }
  if (err instanceof OpenAI.APIUserAbortError) {
    return new AiFailure("aborted", "The request was cancelled");
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new AiFailure("failed", "Could not reach the AI server (check OPENAI_BASE_URL)");
  }
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    const status = err.status;
    if (status === 429) {
      return new AiFailure(
        "rate-limited",
        "The AI server is busy (rate limited)",
        retryAfterSeconds(err.headers, ctx.defaultRetrySeconds),
        status,
      );
    }
    if (status === 401 || status === 403) {
      return new AiFailure(
        "failed",
        "The AI server refused the API key (check OPENAI_API_KEY)",
        null,
        status,
      );
    }
    if (status === 404) {
      return new AiFailure(
        "failed",
        `The AI server answered 404 Not Found: check the model "${ctx.model}" (OPENAI_MODEL) and the address (OPENAI_BASE_URL)`,
        null,
        status,
      );
    }
    if (status === 408) return new AiFailure("timeout", "The AI server timed out", null, status);
    if (status >= 400 && status < 500) {
      return new AiFailure(
        "failed",
        `The AI server refused the request (${status}${err.error && typeof err.error === "object" && "message" in err.error ? `: ${String(err.error.message).slice(0, 200)}` : ""})`,
        null,
        status,
      );
    }
    return new AiFailure("failed", `The AI server failed (${status})`, null, status);
  }
  return new AiFailure("failed", "The AI server's answer could not be read");
}

/** The configured AI server, or null when neither OPENAI_BASE_URL nor OPENAI_API_KEY is set. */
export function createAiClient(
  ai: Config["ai"],
  opts: { defaultRetrySeconds: number },
): AiClient | null {
  if (!ai.baseUrl && !ai.apiKey) return null;
  const connect = async () => {
    const OpenAI = await loadSdk();
    const client = new OpenAI({
      // Both given explicitly: the SDK would otherwise read OPENAI_* from process.env itself.
      baseURL: ai.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
      apiKey: ai.apiKey ?? PLACEHOLDER_API_KEY,
      organization: null,
      project: null,
      timeout: ai.timeoutMs,
      maxRetries: 0,
    });
    return { OpenAI, client };
  };
  let connected: ReturnType<typeof connect> | null = null;
  const ctx = { model: ai.model, defaultRetrySeconds: opts.defaultRetrySeconds };
  return {
    model: ai.model,
    async complete(messages, o = {}) {
      connected ??= connect();
      const { OpenAI, client } = await connected;
      try {
        const res = await client.chat.completions.create(
          {
            model: ai.model,
            messages,
            ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
          },
          { signal: o.signal, timeout: ai.timeoutMs, maxRetries: 0 },
        );
        // A wrong base URL can answer 200 with a web page: that is no chat completion.
        if (!res || typeof res !== "object" || !Array.isArray(res.choices)) {
          throw new AiFailure(
            "failed",
            "The AI server's answer is not a chat completion (check OPENAI_BASE_URL)",
          );
        }
        const content = res.choices[0]?.message?.content;
        return typeof content === "string" ? content : null;
      } catch (err) {
        throw toAiFailure(err, ctx, OpenAI);
      }
    },
  };
}
