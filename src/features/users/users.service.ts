/** The signed-in user's own account: data, profile, password, time zone, export and deletion. */

import fs from "node:fs/promises";
import path from "node:path";
import type { ErrorCode } from "../../contract/errors.ts";
import type {
  EmailSettings,
  MarketplaceCode,
  PasswordBody,
  ProfileBody,
  UserData,
} from "../../contract/index.ts";
import { MARKETPLACE_CURRENCY, MARKETPLACES } from "../../contract/marketplaces.ts";
import type { UserRow } from "../../db/schema.ts";
import { isLanguage, type Language } from "../../i18n/languages.ts";
import { type TarEntry, tarStream } from "../../media/tar.ts";
import { badRequest, conflict, notFound } from "../../util/errors.ts";
import { canonicalTimeZone } from "../../util/time-zone.ts";
import { type LoginThrottle, THROTTLE_KEYS } from "../auth/login-throttle.ts";
import type { Passwords } from "../auth/passwords.ts";
import type { SessionsRepo } from "../auth/sessions.repo.ts";
import type { UsersRepo } from "./users.repo.ts";

/** A feature that owns user data adds a section to the export (orders, reviews, mail settings...). */
export type ExportSection = (userId: number) => Record<string, unknown>;

export const EXPORT_FORMAT_VERSION = 1;

/** The user's Vine marketplace: their own choice, else from their first Amazon mail, else US. */
export function marketplaceOf(u: Pick<UserRow, "vineMarketplace">): MarketplaceCode {
  const m = u.vineMarketplace;
  return m && (MARKETPLACES as readonly string[]).includes(m) ? (m as MarketplaceCode) : "US";
}

export function createUsersService(deps: {
  users: UsersRepo;
  sessions: SessionsRepo;
  /** The sign-in throttle (features/auth/login-throttle.ts): current-password checks count too. */
  throttle: LoginThrottle;
  passwords: Passwords;
  /** Open live-event streams (events/sse.ts): ended with the sessions they belong to. */
  streams?: { closeUser: (userId: number, exceptSessionId?: string) => number };
  mediaDir: string;
  exportSections?: ExportSection[];
  /** The mail pipeline's counters (features/mailbox); zero and null without it. */
  /** Files that belong in the export archive beside the JSON (review media). */
  exportFiles?: (
    userId: number,
  ) => Promise<{ archivePath: string; file: string; bytes: number; mtime: Date }[]>;
  mailStats?: (userId: number) => {
    emailsscanned: number;
    lastprocessedtime: string | null;
    importMode: "vine" | "all";
  };
  /** The connected mailbox (features/mailbox): its settings, and its supervisor to stop. */
  mailbox?: {
    emailSettings: (userId: number) => EmailSettings | null;
    stopUser: (userId: number) => Promise<void>;
  };
  /** The daily tracking check (features/tracking): follows a zone change, ends with the account. */
  trackingSchedule?: { reschedule: (userId: number) => void; remove: (userId: number) => void };
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const exportSections = deps.exportSections ?? [];

  function mustFind(userId: number): UserRow {
    const u = deps.users.findById(userId);
    if (!u) throw notFound("user_not_found");
    return u;
  }

  /**
   * The current password, checked under the throttle: a stolen session token must not be a way
   * around the sign-in limit. Counted before the (slow) check, cleared when it is right.
   */
  async function checkPassword(u: UserRow, password: string, wrong: ErrorCode) {
    const key = THROTTLE_KEYS.password(u.id);
    deps.throttle.assertAllowed(key, "too_many_wrong_passwords");
    deps.throttle.fail(key);
    if (!(await deps.passwords.verify(password, u.passwordHash))) throw badRequest(wrong);
    deps.throttle.clear(key);
  }

  return {
    userData(userId: number): UserData {
      const u = mustFind(userId);
      const mail = deps.mailStats?.(userId);
      return {
        userid: u.id,
        email: u.email,
        displayname: u.displayname,
        timezone: u.timezone,
        vineMarketplace: marketplaceOf(u),
        vineMarketplaceSet: u.vineMarketplace !== null,
        language: isLanguage(u.language) ? u.language : null,
        createdate: u.createdAt,
        emailsscanned: mail?.emailsscanned ?? 0,
        lastprocessedtime: mail?.lastprocessedtime ?? null,
        importMode: mail?.importMode ?? "vine",
        emailSettings: deps.mailbox?.emailSettings(userId) ?? null,
      };
    },

    /** A new email address also needs the current password (it is how one signs in). */
    async updateProfile(userId: number, body: ProfileBody) {
      const current = mustFind(userId);
      if (body.email !== current.email) {
        if (!body.currentPassword) {
          throw badRequest("email_change_needs_password");
        }
        await checkPassword(current, body.currentPassword, "password_wrong_email_unchanged");
      }
      const other = deps.users.findByEmail(body.email);
      if (other && other.id !== userId) {
        throw conflict("email_in_use");
      }
      const u = deps.users.update(userId, { displayname: body.displayname, email: body.email });
      if (!u) throw notFound("user_not_found");
      return {
        success: true as const,
        message: "Profile updated",
        user: { userid: u.id, email: u.email, displayname: u.displayname },
      };
    },

    /** Checks the current password, stores the new one and signs out every other session. */
    async changePassword(userId: number, keepSessionId: string, body: PasswordBody) {
      const u = mustFind(userId);
      await checkPassword(u, body.currentPassword, "current_password_wrong");
      if (body.currentPassword === body.newPassword) {
        throw badRequest("new_password_same");
      }
      deps.users.update(userId, { passwordHash: await deps.passwords.hash(body.newPassword) });
      deps.sessions.deleteOthers(userId, keepSessionId);
      deps.streams?.closeUser(userId, keepSessionId);
      return {
        success: true as const,
        message: "Password changed. Other devices have been signed out.",
      };
    },

    setTimezone(userId: number, input: string) {
      const timezone = canonicalTimeZone(input);
      if (!timezone) {
        throw badRequest("timezone_unknown", { input: input.slice(0, 64) });
      }
      mustFind(userId);
      deps.users.update(userId, { timezone });
      deps.trackingSchedule?.reschedule(userId);
      return { timezone };
    },

    setVineMarketplace(userId: number, vineMarketplace: MarketplaceCode) {
      mustFind(userId);
      deps.users.update(userId, { vineMarketplace });
      return {
        success: true as const,
        message: "Vine marketplace saved",
        vineMarketplace,
        currency: MARKETPLACE_CURRENCY[vineMarketplace],
      };
    },

    setLanguage(userId: number, language: Language) {
      mustFind(userId);
      deps.users.update(userId, { language });
      return { success: true as const, message: "Language saved", language };
    },

    /** Everything the user owns, as one JSON document (no password hash, no token hashes). */
    exportData(userId: number) {
      const u = mustFind(userId);
      const doc: Record<string, unknown> = {
        format: "grapevine-export",
        version: EXPORT_FORMAT_VERSION,
        exportedAt: now().toISOString(),
        user: {
          userid: u.id,
          email: u.email,
          displayname: u.displayname,
          timezone: u.timezone,
          vineMarketplace: u.vineMarketplace,
          language: u.language,
          createdate: u.createdAt,
          updatedate: u.updatedAt,
        },
        sessions: deps.sessions.listForUser(userId).map((s) => ({
          createdAt: s.createdAt,
          lastUsedAt: s.lastUsedAt,
          expiresAt: s.expiresAt,
          userAgent: s.userAgent,
          ip: s.ip,
        })),
      };
      for (const section of exportSections) Object.assign(doc, section(userId));
      return doc;
    },

    /**
     * The export with its files (GET /api/user/export/archive): a .tar holding export.json (the
     * same document as exportData), the media files under media/<orderid>/ as the document's
     * reviewMedia lists them, and a README.txt. Streamed: files are read while it is sent.
     */
    async exportArchive(
      userId: number,
    ): Promise<{ name: string; stream: ReadableStream<Uint8Array> }> {
      const doc = this.exportData(userId);
      const at = now();
      const name = `grapevine-export-${at.toISOString().slice(0, 10)}`;
      const files = (await deps.exportFiles?.(userId)) ?? [];
      const readme = [
        "Grapevine data export",
        "",
        "export.json  your account, orders (with their reviews: rating, subject, text, dates),",
        "             notifications, settings. reviewMedia lists every photo and video:",
        "             the order it belongs to, its position and its file in this archive.",
        "media/       the photos and videos, one folder per order id.",
        "",
      ].join("\n");
      const entries: TarEntry[] = [
        { name: `${name}/README.txt`, mtime: at, data: new TextEncoder().encode(readme) },
        {
          name: `${name}/export.json`,
          mtime: at,
          data: new TextEncoder().encode(JSON.stringify(doc, null, 2)),
        },
        ...files.map((f) => ({
          name: `${name}/${f.archivePath}`,
          mtime: f.mtime,
          file: f.file,
          size: f.bytes,
        })),
      ];
      return { name, stream: tarStream(entries) };
    },

    /** Removes the user, every row that belongs to them (cascade) and their media folder. */
    async deleteAccount(userId: number, password: string) {
      const u = mustFind(userId);
      await checkPassword(u, password, "password_wrong_not_deleted");
      // The mailbox supervisor and any backfill stop before their rows disappear.
      await deps.mailbox?.stopUser(userId);
      deps.trackingSchedule?.remove(userId);
      deps.users.delete(userId);
      deps.streams?.closeUser(userId);
      await fs.rm(path.join(deps.mediaDir, String(userId)), { recursive: true, force: true });
      return {
        success: true as const,
        message: "Your account and all its data have been deleted.",
      };
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
