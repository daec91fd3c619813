/**
 * What the mailbox screen is told: the status (the supervisor's state, why it is not connected,
 * when it tries again, whether it is reconnecting after a fault), the two rate-limited user
 * actions (manual reconnect, retry real-time) with their budgets and 429 answers, and the texts
 * and notifications the user reads about the mailbox.
 */
import type { MailboxAction, MailboxStatus } from "../../contract/index.ts";
import type { TextPart, TextValue } from "../../contract/text.ts";
import type { MailboxAccountRow } from "../../db/schema.ts";
import { english, text } from "../../i18n/text.ts";
import type { AttemptLimiter, AttemptLimits } from "../../mail/imap/manager.ts";
import { createAttemptLimiter } from "../../mail/imap/manager.ts";
import type { SupervisorSnapshot } from "../../mail/imap/supervisor.ts";
import { AppError, conflict, notFound } from "../../util/errors.ts";
import { type NotificationMessage, part } from "../notifications/message.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";

export const APP_PASSWORD_REFUSED =
  "Gmail refused this address and app password. Check both and try again.";
export const NOT_CONNECTED = "No mailbox is connected. Connect your Gmail account first.";
export const EXPIRED =
  "Gmail refused the saved credentials. Connect your Gmail account again in Account Settings.";

/** The user's mailbox account, or 409 when it is not connected (or its credentials expired). */
export function requireConnected(repo: MailboxRepo, userId: number): MailboxAccountRow {
  const a = repo.findAccount(userId);
  if (a?.authState === "expired") throw conflict("gmail_expired");
  if (!a?.isConnected) throw conflict("mailbox_not_connected");
  return a;
}

/** The one critical notification when the stored credentials are refused. */
export function expiredNotice(emailAddress: string): NotificationMessage {
  return [part("server.mailbox.expired", { address: emailAddress })];
}

export function createMailboxStatus(deps: {
  repo: MailboxRepo;
  limits: AttemptLimits;
  now: () => Date;
  /** The user's supervisor as it is now (undefined when none runs). */
  snapshot: (userId: number) => SupervisorSnapshot | undefined;
  stats: (userId: number) => { lastprocessedtime: string | null; emailsscanned: number };
}) {
  const { repo, limits, now } = deps;
  const reconnectLimiter = createAttemptLimiter(limits, now);
  const idleLimiter = createAttemptLimiter(limits, now);

  /** The wait until `t` as the error values of inMinutes: minutes, or hours from 120 minutes. */
  function waitIn(t: Date): { count: number; unit: "minutes" | "hours" } {
    const min = Math.max(1, Math.ceil((t.getTime() - now().getTime()) / 60_000));
    return min < 120
      ? { count: min, unit: "minutes" }
      : { count: Math.ceil(min / 60), unit: "hours" };
  }

  /** An action's message: its English words and its catalog id with values (src/contract/text.ts). */
  function said(id: string, values?: Record<string, TextValue>) {
    const t = text(`mailbox.server.action.${id}`, values);
    return {
      message: english(t),
      messageCode: t.code,
      ...(values ? { messageValues: values } : {}),
    };
  }

  function action(
    limiter: AttemptLimiter,
    userId: number,
    relevant: boolean,
    what: "reconnect" | "retryIdle",
  ): MailboxAction {
    const b = limiter.budget(userId);
    const remainingAttempts = b.remaining;
    if (!relevant) {
      return {
        available: false,
        ...said("notNeeded"),
        nextAttemptTime: null,
        buttonState: "hidden",
        remainingAttempts,
      };
    }
    if (b.blockedBy && b.nextAttemptTime) {
      const daily = b.blockedBy === "daily";
      const wait = waitIn(b.nextAttemptTime);
      return {
        available: false,
        ...(daily
          ? said("dailyLimit", { limit: limits.dailyMax, ...wait })
          : said("tooMany", wait)),
        nextAttemptTime: b.nextAttemptTime.toISOString(),
        buttonState: daily ? "disabled" : "cooldown",
        remainingAttempts,
      };
    }
    return {
      available: true,
      ...said(what, {
        left: remainingAttempts.window,
        max: limits.windowMax,
        minutes: Math.round(limits.windowMs / 60_000),
        today: remainingAttempts.daily,
      }),
      nextAttemptTime: null,
      buttonState: "enabled",
      remainingAttempts,
    };
  }

  function take(limiter: AttemptLimiter, userId: number) {
    const r = limiter.take(userId);
    if (!r.allowed) {
      const next = r.budget.nextAttemptTime ?? new Date(now().getTime() + 60_000);
      const secs = Math.max(1, Math.ceil((next.getTime() - now().getTime()) / 1000));
      const wait = waitIn(next);
      throw new AppError(
        429,
        r.budget.blockedBy === "daily" ? "attempts_daily_limit" : "attempts_too_many",
        r.budget.blockedBy === "daily" ? { limit: limits.dailyMax, ...wait } : wait,
        { remainingAttempts: r.budget.remaining, nextAttemptTime: next.toISOString() },
        { "Retry-After": String(secs) },
      );
    }
  }

  function status(userId: number): MailboxStatus {
    const a = repo.findAccount(userId);
    const expired = a?.authState === "expired";
    if (!a || (!a.isConnected && !expired)) throw notFound("mailbox_not_connected");
    const snap = deps.snapshot(userId);
    const status = expired || !snap ? "disconnected" : snap.status;
    // Why, in words and (when it is one of ours) as a catalog id with values (src/contract/text.ts).
    const ours: TextPart | null = expired
      ? text("mailbox.server.expired")
      : !snap
        ? text("mailbox.server.notRunning")
        : status === "polling"
          ? text("mailbox.server.polling")
          : null;
    const lastError = ours ? english(ours) : (snap?.lastError ?? null);
    const why = ours ?? (lastError === null ? null : (snap?.lastErrorText ?? null));
    const stats = deps.stats(userId);
    return {
      status,
      manualReconnect: action(
        reconnectLimiter,
        userId,
        !expired && status === "disconnected",
        "reconnect",
      ),
      idleRetry: action(idleLimiter, userId, status === "polling", "retryIdle"),
      lastError,
      lastErrorCode: why?.code ?? null,
      ...(why?.values ? { lastErrorValues: why.values } : {}),
      folder: a.selectedFolder,
      lastProcessedTime: stats.lastprocessedtime,
      emailsScanned: stats.emailsscanned,
      nextAttemptTime: expired ? null : (snap?.nextAttemptTime ?? null),
      reconnecting: !expired && (snap?.running ?? false) && (snap?.reconnecting ?? false),
    };
  }

  return { status, take, reconnectLimiter, idleLimiter };
}
