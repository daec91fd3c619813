/**
 * One alert → one HTTP request, per channel type, in the shapes the far sides document:
 * - ntfy: "publish as JSON" (POST to the server root: topic, title, message, priority, tags,
 *   click), `Authorization: Bearer <token>` or Basic for user name and password.
 * - webhook json: AlertWebhookJson (Home Assistant's webhook trigger takes it as is).
 * - Discord: `content` + one embed; Slack: `text` + `blocks` (mrkdwn escaped as Slack documents).
 * - Web Push: the `web-push` library encrypts the payload (aes128gcm) and signs VAPID; the request
 *   goes out through sendOutgoing like the others.
 * And the answer → what happens next (delivered, retry later, give up), told as the status and a
 * fixed sentence per kind of answer: the far side's body is never shown (a test must not
 * read what a LAN service answers).
 */
import type { AlertEvent, AlertWebhookJson, WebhookFormat } from "../../contract/alerts.ts";
import type { TextPart, TextValue } from "../../contract/text.ts";
import type { Language } from "../../i18n/languages.ts";
import { english, text } from "../../i18n/text.ts";
import { translate } from "../../i18n/translate.ts";
import { retryAfterMs } from "../../util/retry-after.ts";
import {
  OutgoingError,
  type OutgoingRequest,
  type OutgoingResponse,
  pushEndpointProblem,
  type Resolver,
  sendOutgoing,
  type TargetPolicy,
} from "./outgoing.ts";
import { webpush } from "./web-push.ts";

export type AlertPayload = {
  event: AlertEvent | "test" | "summary";
  title: string;
  message: string;
  /** The order's page in the app (/orders/5/edit) or null. */
  path: string | null;
  order: { id: number; number: string | null; product: string; status: string } | null;
  /** High for things that need doing (overdue, mailbox, server problems). */
  urgent: boolean;
  sentAt: string;
  /** The receiving user's language: `title` and `message` are in it, and so are the labels. */
  language?: Language;
};

export type NtfyTarget = {
  type: "ntfy";
  serverUrl: string;
  topic: string;
  token?: string | null;
  username?: string | null;
  password?: string | null;
};
export type WebhookTarget = { type: "webhook"; url: string; format: WebhookFormat };
export type PushTarget = {
  type: "webpush";
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
};
export type AlertTarget = NtfyTarget | WebhookTarget | PushTarget;

export type Vapid = { publicKey: string; privateKey: string; subject: string };

const TAGS: Partial<Record<AlertPayload["event"], string[]>> = {
  new_order: ["package"],
  shipped: ["truck"],
  delivered: ["house"],
  review_due: ["memo"],
  review_overdue: ["warning", "memo"],
  review_decided: ["star"],
  mailbox_attention: ["warning", "email"],
  tracking_problem: ["warning", "truck"],
  disk_nearly_full: ["rotating_light"],
  mailbox_supervisor_failing: ["rotating_light"],
  test: ["white_check_mark"],
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const slackEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function buildRequest(
  target: AlertTarget,
  p: AlertPayload,
  ctx: { publicUrl: string | null; vapid: () => Vapid },
): OutgoingRequest {
  const link = p.path && ctx.publicUrl ? `${ctx.publicUrl}${p.path}` : null;
  const json = (body: unknown): OutgoingRequest => ({
    url: target.type === "webhook" ? target.url : "",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  switch (target.type) {
    case "ntfy": {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (target.token) headers.Authorization = `Bearer ${target.token}`;
      else if (target.username && target.password) {
        headers.Authorization = `Basic ${Buffer.from(`${target.username}:${target.password}`).toString("base64")}`;
      }
      return {
        url: `${target.serverUrl.replace(/\/+$/, "")}/`,
        headers,
        body: JSON.stringify({
          topic: target.topic,
          title: clip(p.title, 250),
          // ntfy turns a longer message into an attachment.
          message: clip(p.message, 3900),
          priority: p.urgent ? 4 : 3,
          tags: TAGS[p.event] ?? [],
          ...(link ? { click: link } : {}),
        }),
      };
    }
    case "webhook": {
      if (target.format === "discord") {
        return json({
          content: clip(p.title, 2000),
          embeds: [
            {
              title: clip(p.order?.product ?? p.title, 256),
              description: clip(p.message, 4096),
              ...(link ? { url: link } : {}),
              timestamp: p.sentAt,
              ...(p.order
                ? {
                    fields: [
                      {
                        name: translate(p.language ?? "en", "server.alerts.order"),
                        value: p.order.number ?? "—",
                        inline: true,
                      },
                      {
                        name: translate(p.language ?? "en", "server.alerts.status"),
                        value: p.order.status,
                        inline: true,
                      },
                    ],
                  }
                : {}),
            },
          ],
        });
      }
      if (target.format === "slack") {
        const text = slackEscape(`${p.title}: ${p.message}`);
        return json({
          text: clip(text, 3000),
          blocks: [
            {
              type: "section",
              text: {
                type: "mrkdwn",
                text: clip(`*${slackEscape(p.title)}*\n${slackEscape(p.message)}`, 3000),
              },
            },
            ...(link
              ? [
                  {
                    type: "context",
                    elements: [
                      {
                        type: "mrkdwn",
                        text: `<${link}|${slackEscape(translate(p.language ?? "en", "server.alerts.open"))}>`,
                      },
                    ],
                  },
                ]
              : []),
          ],
        });
      }
      const body: AlertWebhookJson = {
        event: p.event,
        title: p.title,
        message: p.message,
        url: link,
        order: p.order
          ? { number: p.order.number, product: p.order.product, status: p.order.status }
          : null,
        sentAt: p.sentAt,
      };
      return json(body);
    }
    case "webpush": {
      const v = ctx.vapid();
      const details = webpush.generateRequestDetails(
        target.subscription,
        JSON.stringify({
          title: clip(p.title, 200),
          // A push message holds at most 4 KB once encrypted (RFC 8030): a notification's worth.
          body: clip(p.message, 1000),
          url: p.path ?? "/",
          tag: p.order ? `order-${p.order.id}` : p.event,
        }),
        {
          vapidDetails: { subject: v.subject, publicKey: v.publicKey, privateKey: v.privateKey },
          TTL: 24 * 3600,
          urgency: p.urgent ? "high" : "normal",
        },
      );
      return {
        url: details.endpoint,
        headers: details.headers as Record<string, string>,
        body: details.body as Buffer,
      };
    }
  }
}

/**
 * `text`: the result as a catalog id and values (src/contract/text.ts); `result` is its English
 * words. The far side's own words (an exception's message) are a value, as they came.
 */
export type SendOutcome =
  | { kind: "sent"; result: string; text: TextPart }
  /** Worth another try: timeout, connection, 429 (after retryAfterMs when it said), 5xx. */
  | { kind: "retry"; result: string; retryAfterMs: number | null; text: TextPart }
  /** No point trying again: 4xx other than 429, a refused address, a cross-host redirect. */
  | { kind: "give-up"; result: string; gone?: boolean; text: TextPart };

/** The far side as a key of `alerts.server.answered`'s `who`. */
function whoKey(target: AlertTarget): string {
  if (target.type === "ntfy") return "ntfy";
  if (target.type === "webpush") return "push";
  return target.format === "discord" || target.format === "slack" ? target.format : "webhook";
}

/** The fixed reason for a status that is not a success (the far side's words are not kept). */
function statusReason(status: number): string {
  if (status === 429) return "tooMany";
  if (status >= 500) return "serverError";
  if (status === 401 || status === 403) return "denied";
  if (status === 404 || status === 410) return "missing";
  if (status >= 400) return "refused";
  return "unknown";
}

/** A failed answer's result: its English words (locales/en.json) and its text. */
function answered(id: string, values: Record<string, TextValue>) {
  const t = text(`alerts.server.${id}`, values);
  return { result: english(t), text: t };
}

export function outcomeOf(target: AlertTarget, res: OutgoingResponse, now: number): SendOutcome {
  if (res.status >= 200 && res.status < 300) {
    return { kind: "sent", ...answered("sent", { who: whoKey(target), status: res.status }) };
  }
  if (res.status === 429) {
    const h = new Headers();
    const ra = res.headers["retry-after"];
    if (typeof ra === "string") h.set("retry-after", ra);
    return {
      kind: "retry",
      ...answered("answered", { who: whoKey(target), status: res.status, reason: "tooMany" }),
      retryAfterMs: ra ? retryAfterMs(h, now) : null,
    };
  }
  const values = { who: whoKey(target), status: res.status, reason: statusReason(res.status) };
  if (res.status >= 500)
    return { kind: "retry", ...answered("answered", values), retryAfterMs: null };
  const gone = target.type === "webpush" && (res.status === 404 || res.status === 410);
  return {
    kind: "give-up",
    ...(gone ? answered("pushGone", { status: res.status }) : answered("answered", values)),
    gone,
  };
}

/** Sends and classifies; never throws. */
export async function deliver(
  target: AlertTarget,
  p: AlertPayload,
  ctx: {
    publicUrl: string | null;
    vapid: () => Vapid;
    timeoutMs?: number;
    resolve?: Resolver;
    policy: TargetPolicy;
    now: () => number;
  },
): Promise<SendOutcome> {
  if (target.type === "webpush") {
    // Checked at save too; a channel saved before the rule is held to it here.
    const problem = pushEndpointProblem(target.subscription.endpoint, ctx.policy);
    if (problem) return { kind: "give-up", result: english(problem), text: problem };
  }
  try {
    const res = await sendOutgoing(buildRequest(target, p, ctx), {
      timeoutMs: ctx.timeoutMs,
      resolve: ctx.resolve,
      policy: ctx.policy,
    });
    return outcomeOf(target, res, ctx.now());
  } catch (err) {
    if (err instanceof OutgoingError) {
      const permanent = err.kind === "refused-address" || err.kind === "redirect";
      return permanent
        ? { kind: "give-up", result: err.message, text: err.text }
        : { kind: "retry", result: err.message, retryAfterMs: null, text: err.text };
    }
    // The exception's words are not ours: they stay as they came (`reason`).
    const t = text("alerts.server.notBuilt", { reason: (err as Error).message });
    return { kind: "give-up", result: english(t), text: t };
  }
}
