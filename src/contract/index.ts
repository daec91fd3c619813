/** Request schemas (server) and response types (server and web). web/ imports types only. */
export * from "./admin.ts";
export * from "./alerts.ts";
export * from "./auth.ts";
export * from "./constants.ts";
export * from "./dashboard.ts";
export type { ErrorBody, ErrorCode, ErrorDetail, ErrorValues } from "./errors.ts";
export * from "./events.ts";
export * from "./mailbox.ts";
export * from "./marketplaces.ts";
export * from "./notifications.ts";
export * from "./orders.ts";
export * from "./reviews.ts";
export * from "./tracking.ts";
export * from "./user.ts";
export * from "./vine.ts";
