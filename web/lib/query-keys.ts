/**
 * The query-key factories: one per resource, the only place a key is spelt. A key is the request
 * path as its one element, so the default query function (web/lib/api.ts) can GET it. The hooks
 * query with these keys; mutations and live events (web/lib/live-events-keys.ts) invalidate
 * through them. Pure: no React, so the live-event table and its tests load nothing else.
 */
import { type ListView, ordersApiPath } from "./order-list-view.ts";

export const orderKeys = {
  /** Every orders key below: lists (`/api/orders?…`), details and the untracked list. */
  all: () => ["/api/orders"] as const,
  list: (view: ListView) => [ordersApiPath(view)] as const,
  detail: (id: number | string) => [`/api/orders/${id}`] as const,
  /** Shipped orders without tracking ("Mark delivered"). */
  untracked: () => ["/api/orders/untracked"] as const,
};

export const dashboardKeys = {
  all: () => ["/api/dashboard"] as const,
  counts: () => ["/api/dashboard/counts"] as const,
  recent: () => ["/api/dashboard/recent"] as const,
  stats: () => ["/api/dashboard/stats"] as const,
};

export const vineKeys = {
  standing: () => ["/api/vine/standing"] as const,
  settings: () => ["/api/user/vine-settings"] as const,
};

export const userKeys = {
  data: () => ["/api/user/data"] as const,
};

export const reviewSettingsKeys = {
  all: () => ["/api/user/review-settings"] as const,
};

export const alertKeys = {
  all: () => ["/api/user/alert-channels"] as const,
  webpushKey: () => ["/api/user/alert-channels/webpush-key"] as const,
};

export const notificationKeys = {
  all: () => ["/api/notifications"] as const,
};

export const trackingKeys = {
  all: () => ["/api/tracking"] as const,
  preferences: () => ["/api/tracking/preferences"] as const,
};

export const mailboxKeys = {
  status: () => ["/api/imap/status"] as const,
  folders: () => ["/api/imap/folders"] as const,
  imports: () => ["/api/imap/imports"] as const,
};

export const mediaKeys = {
  token: () => ["/api/media/token"] as const,
};

export const configKeys = {
  all: () => ["/api/config"] as const,
};

export const adminLogKeys = {
  all: () => ["/api/admin/logs"] as const,
  file: (name: string) => [`/api/admin/logs/${encodeURIComponent(name)}`] as const,
};

/** A key from a factory, or a family of keys: the key's path and every path below it. */
export type KeyMatch = { path: string; below: boolean };

/** Exactly this resource (its path, with or without a query string). */
export const exactly = (key: readonly [string]): KeyMatch => ({ path: key[0], below: false });
/** This resource and everything under it (`/…` and `?…`). */
export const under = (key: readonly [string]): KeyMatch => ({ path: key[0], below: true });

/** True when a query's key is the match's resource (or below it, for a family). */
export function keyMatches(queryKey: readonly unknown[], match: KeyMatch): boolean {
  const head = queryKey[0];
  if (typeof head !== "string" || !head.startsWith(match.path)) return false;
  const rest = head.slice(match.path.length);
  return rest === "" || rest.startsWith("?") || (match.below && rest.startsWith("/"));
}
