import { Hono } from "hono";
import { appPasswordBody, folderSelectBody, processEmailsBody } from "../../contract/mailbox.ts";
import type { MailImportService } from "../../features/mailbox/mail-import.service.ts";
import type { MailboxService } from "../../features/mailbox/mailbox.service.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

/**
 * Mounted behind requireAuth at /api/imap (docs/api.md Mailbox). Every handler acts on the signed-in
 * user's own mailbox. POST /api/imap/import belongs to the ingestion routes.
 */
export function imapRoutes(mailbox: MailboxService, imports: MailImportService) {
  return new Hono<AppEnv>()
    .post("/app-password", async (c) => {
      const body = await readBody(c, appPasswordBody);
      return c.json(await mailbox.connectAppPassword(c.get("user").id, body));
    })
    .get("/status", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(mailbox.status(c.get("user").id));
    })
    .post("/reconnect/manual", (c) => c.json(mailbox.manualReconnect(c.get("user").id)))
    .post("/retry-idle", (c) => c.json(mailbox.retryIdle(c.get("user").id)))
    .get("/folders", async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(await mailbox.folders(c.get("user").id));
    })
    .post("/folders/refresh", async (c) => c.json(await mailbox.refreshFolders(c.get("user").id)))
    .post("/folders/select", async (c) => {
      const body = await readBody(c, folderSelectBody);
      return c.json(await mailbox.selectFolders(c.get("user").id, body));
    })
    .get("/imports", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ interrupted: imports.interrupted(c.get("user").id) });
    })
    .delete("/imports", (c) => {
      imports.dismissInterrupted(c.get("user").id);
      return c.json({ success: true, interrupted: [] });
    })
    .post("/initialize", (c) => c.json(mailbox.initialize(c.get("user").id)))
    .post("/process-emails", async (c) => {
      const body = await readBody(c, processEmailsBody);
      return c.json(mailbox.processEmails(c.get("user").id, body.daysBack), 202);
    });
}

/** POST /api/user/disconnect-email (mounted beside the user routes, behind requireAuth). */
export function disconnectEmailRoute(mailbox: MailboxService) {
  return new Hono<AppEnv>().post("/", async (c) =>
    c.json(await mailbox.disconnect(c.get("user").id)),
  );
}
