/** Notifications (docs/behaviour.md#data, docs/api.md). */
import type { NotificationLevel } from "./constants.ts";

export type Notification = {
  notificationid: number;
  /** HTML built on the server from escaped values; sanitise before rendering. */
  message: string;
  level: NotificationLevel;
  isread: boolean;
  createdate: string;
};
