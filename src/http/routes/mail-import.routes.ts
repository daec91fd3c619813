/**
 * POST /api/imap/import (behind requireAuth): .eml files and/or mbox files (Google Takeout) in
 * repeated multipart `files` fields, read by the mail import service
 * (features/mailbox/mail-import.service.ts) through the same pipeline as IMAP mail. The JSON body
 * limit of /api/* does not apply here (see app.ts); the import has its own limit.
 */
import { Hono } from "hono";
import { importModeBody } from "../../contract/mailbox.ts";
import type { MailIngestService } from "../../features/mailbox/ingest.service.ts";
import {
  importTooLarge,
  type MailImportService,
} from "../../features/mailbox/mail-import.service.ts";
import { badRequest } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

export { IMPORT_BODY_LIMIT, IMPORT_MAX_FILES } from "../../features/mailbox/mail-import.service.ts";

type ServerTimeouts = { timeout?: (req: Request, seconds: number) => void };

export function mailImportRoutes(deps: {
  /** Spools and reads the upload (features/mailbox/mail-import.service.ts). */
  imports: MailImportService;
  /** The upload limit; the service's own when absent. */
  maxBytes?: number;
}) {
  const { imports } = deps;
  const maxBytes = deps.maxBytes ?? imports.maxBytes;

  return new Hono<AppEnv>().post("/", async (c) => {
    const contentType = c.req.header("content-type") ?? "";
    if (!/^\s*multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
      throw badRequest("import_upload_form");
    }
    const declared = Number(c.req.header("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > maxBytes) throw importTooLarge(maxBytes);
    const body = c.req.raw.body;
    if (!body) throw badRequest("no_files");
    // A large mailbox takes a while to read after the upload: no idle timeout for this request.
    (c.env as { server?: ServerTimeouts } | undefined)?.server?.timeout?.(c.req.raw, 0);
    return c.json(await imports.importUpload(c.get("user").id, body, contentType, maxBytes));
  });
}

/**
 * PUT /api/imap/import-mode {importMode}: Vine orders only, or every Amazon order. `reread`: the
 * messages read before that the new mode imports when read again (files, a mailbox re-scan).
 */
export function importModeRoutes(ingest: MailIngestService) {
  return new Hono<AppEnv>().put("/", async (c) => {
    const { importMode } = await readBody(c, importModeBody);
    const reread = ingest.setImportMode(c.get("user").id, importMode);
    return c.json({ success: true, importMode, reread });
  });
}
