/**
 * Vine standing, behind requireAuth: the settings under /api/user, the rest under
 * /api/vine. The Itemized Report is a small file (a year is tens of KB): it arrives as
 * multipart/form-data within the 1 MB body limit of /api/* and is read in memory.
 */
import { Hono } from "hono";
import { etvCsvQuery, vineSettingsBody } from "../../contract/vine.ts";
import type { VineService } from "../../features/vine/vine.service.ts";
import { badRequest } from "../../util/errors.ts";
import type { AppEnv } from "../types.ts";
import { invalidRequest, readBody } from "../validate.ts";

/** GET/PUT /api/user/vine-settings */
export function vineSettingsRoutes(vine: VineService) {
  return new Hono<AppEnv>()
    .get("/", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(vine.getSettings(c.get("user").id));
    })
    .put("/", async (c) => {
      const body = await readBody(c, vineSettingsBody);
      return c.json(vine.saveSettings(c.get("user").id, body));
    });
}

/** /api/vine: standing, the Itemized Report import and the ETV export. */
export function vineRoutes(vine: VineService) {
  return new Hono<AppEnv>()
    .get("/standing", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(vine.standing(c.get("user").id));
    })
    .post("/itemized-report", async (c) => {
      if (!/^multipart\/form-data\b/i.test(c.req.header("content-type") ?? "")) {
        throw badRequest("report_upload_form");
      }
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        throw badRequest("report_upload_form");
      }
      const file = form.get("file");
      if (!(file instanceof File)) throw badRequest("report_upload_form");
      const bytes = new Uint8Array(await file.arrayBuffer());
      return c.json(vine.importItemizedReport(c.get("user").id, bytes));
    })
    .get("/etv.csv", (c) => {
      const parsed = etvCsvQuery.safeParse(c.req.query());
      if (!parsed.success) throw invalidRequest(parsed.error);
      const { year } = parsed.data;
      c.header("Content-Disposition", `attachment; filename="grapevine-etv-${year}.csv"`);
      c.header("Cache-Control", "no-store");
      return c.body(vine.etvCsv(c.get("user").id, year), 200, {
        "Content-Type": "text/csv; charset=utf-8",
      });
    });
}
