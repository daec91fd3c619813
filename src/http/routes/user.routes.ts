import { Hono } from "hono";
import { reviewSettingsBody } from "../../contract/reviews.ts";
import {
  deleteAccountBody,
  languageBody,
  passwordBody,
  profileBody,
  timezoneBody,
  vineMarketplaceBody,
} from "../../contract/user.ts";
import type { ReviewSettingsService } from "../../features/reviews/review-settings.service.ts";
import type { UsersService } from "../../features/users/users.service.ts";
import type { AppEnv } from "../types.ts";
import { readBody } from "../validate.ts";

/** Mounted behind requireAuth: every handler acts on the signed-in user only. */
export function userRoutes(users: UsersService, reviewSettings: ReviewSettingsService) {
  return new Hono<AppEnv>()
    .get("/data", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(users.userData(c.get("user").id));
    })
    .put("/profile", async (c) => {
      const body = await readBody(c, profileBody);
      return c.json(await users.updateProfile(c.get("user").id, body));
    })
    .put("/password", async (c) => {
      const body = await readBody(c, passwordBody);
      return c.json(await users.changePassword(c.get("user").id, c.get("sessionId"), body));
    })
    .patch("/timezone", async (c) => {
      const body = await readBody(c, timezoneBody);
      return c.json(users.setTimezone(c.get("user").id, body.timezone));
    })
    .put("/marketplace", async (c) => {
      const body = await readBody(c, vineMarketplaceBody);
      return c.json(users.setVineMarketplace(c.get("user").id, body.vineMarketplace));
    })
    .put("/language", async (c) => {
      const body = await readBody(c, languageBody);
      return c.json(users.setLanguage(c.get("user").id, body.language));
    })
    .get("/review-settings", (c) => {
      c.header("Cache-Control", "no-store");
      return c.json(reviewSettings.get(c.get("user").id));
    })
    .put("/review-settings", async (c) => {
      const body = await readBody(c, reviewSettingsBody);
      return c.json(reviewSettings.save(c.get("user").id, body));
    })
    .get("/export", (c) => {
      const doc = users.exportData(c.get("user").id);
      const day = new Date().toISOString().slice(0, 10);
      c.header("Content-Disposition", `attachment; filename="grapevine-export-${day}.json"`);
      c.header("Cache-Control", "no-store");
      return c.body(JSON.stringify(doc, null, 2), 200, {
        "Content-Type": "application/json; charset=utf-8",
      });
    })
    .delete("/", async (c) => {
      const body = await readBody(c, deleteAccountBody);
      const user = c.get("user");
      const result = await users.deleteAccount(user.id, body.password);
      c.get("log").info({ userid: user.id }, "account deleted");
      return c.json(result);
    });
}
