/** Live events (docs/api.md): GET /api/events/stream?token=… sends `data: {table, operation, timestamp}`. */
import type { EventTable } from "./constants.ts";

export type EventOperation = "INSERT" | "UPDATE" | "DELETE" | "STATUS";
export type LiveEvent = { table: EventTable; operation: EventOperation; timestamp: string };
