import type { UserRow } from "../db/schema.ts";
import type { Logger } from "../log.ts";

/** What middleware puts on the Hono context for routes. */
export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    user: UserRow;
    sessionId: string;
    clientIp: string | null;
  };
};
