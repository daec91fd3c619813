/**
 * Notifications for browser tests. No HTTP endpoint creates one (the server makes them in its
 * jobs), so rows go straight into the notifications table of the e2e server's database, from a
 * short Bun process (Playwright runs under Node, which has no SQLite here). The live stream only
 * carries events published inside the server, so after such an insert the browser learns of it
 * by a reload, or by `announceNotificationChange`, which makes the server publish one.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { type APIRequestContext, expect } from "@playwright/test";
import type { Account } from "./api.ts";

export type NotificationLevel = "critical" | "warning" | "information" | "other";
export type NewNotification = {
  message: string;
  level?: NotificationLevel;
  isread?: boolean;
  /** ISO time; default now. */
  createdate?: string;
};
export type ApiNotification = {
  notificationid: number;
  message: string;
  level: string;
  isread: boolean;
  createdate: string;
};

const BUN = path.resolve("node_modules/.bin/bun");

const INSERT_SCRIPT = `
const { Database } = require("bun:sqlite");
const { file, userId, rows } = JSON.parse(process.env.E2E_NOTIFICATIONS);
const db = new Database(file);
db.exec("PRAGMA busy_timeout = 5000");
const insert = db.prepare(
  "INSERT INTO notifications (user_id, message, level, is_read, created_at) VALUES (?, ?, ?, ?, ?)"
);
db.transaction(() => {
  for (const r of rows) insert.run(userId, r.message, r.level, r.isread ? 1 : 0, r.createdate);
})();
db.close();
`;

function dbFile(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the specs through playwright.config.ts");
  return path.join(dir, "app.db");
}

/** Stores notifications for the user. The first row is the oldest unless createdate says otherwise. */
export function insertNotifications(userId: number, rows: NewNotification[]): void {
  const now = Date.now();
  const full = rows.map((r, i) => ({
    message: r.message,
    level: r.level ?? "information",
    isread: r.isread ?? false,
    // A millisecond apart so "newest first" is well defined.
    createdate: r.createdate ?? new Date(now - (rows.length - i)).toISOString(),
  }));
  execFileSync(BUN, ["-e", INSERT_SCRIPT], {
    env: {
      ...process.env,
      E2E_NOTIFICATIONS: JSON.stringify({ file: dbFile(), userId, rows: full }),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/** `count` unread notifications numbered from 1. */
export function insertManyNotifications(userId: number, count: number, prefix = "Reminder"): void {
  insertNotifications(
    userId,
    Array.from({ length: count }, (_, i) => ({ message: `${prefix} <b>#${i + 1}</b>` })),
  );
}

export async function listNotificationsApi(
  request: APIRequestContext,
  token: string,
): Promise<ApiNotification[]> {
  const res = await request.get("/api/notifications", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as ApiNotification[];
}

/**
 * Makes the server publish a notification event for the user (open browsers then refetch the
 * list, and see rows inserted behind the server's back too): stores a read throwaway notification
 * and deletes it through the API.
 */
export async function announceNotificationChange(
  request: APIRequestContext,
  account: Account,
): Promise<void> {
  const marker = `throwaway-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  insertNotifications(account.user.userid, [{ message: marker, isread: true }]);
  const list = await listNotificationsApi(request, account.token);
  const throwaway = list.find((n) => n.message === marker);
  expect(throwaway, "the throwaway notification was stored").toBeDefined();
  const res = await request.delete(`/api/notifications/${throwaway!.notificationid}`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
}
