import { z } from "zod";
import { LANGUAGES, type Language } from "../i18n/languages.ts";
import { says } from "./errors.ts";
import { displayname, email, newPassword, text } from "./fields.ts";
import { MARKETPLACES, type MarketplaceCode } from "./marketplaces.ts";

export const profileBody = z.object({
  displayname: displayname(),
  email: email(),
  /** Required when `email` differs from the current one. */
  currentPassword: z
    .string({ error: says("field_not_text", { field: "currentPassword" }) })
    .max(1024, says("field_too_long_plain", { field: "currentPassword" }))
    .optional(),
});
export type ProfileBody = z.infer<typeof profileBody>;

export const passwordBody = z.object({
  currentPassword: text("currentPassword")
    .min(1, says("field_required", { field: "currentPassword" }))
    .max(1024),
  newPassword: newPassword("newPassword"),
});
export type PasswordBody = z.infer<typeof passwordBody>;

export const timezoneBody = z.object({
  timezone: text("timezone").trim().min(1, says("timezone_select")).max(64),
});

/** PUT /api/user/marketplace: the user's Amazon Vine marketplace (new orders' currency). */
export const vineMarketplaceBody = z.object({
  vineMarketplace: z.enum(MARKETPLACES, {
    error: says("name_one_of", { name: "vineMarketplace", values: MARKETPLACES.join(", ") }),
  }),
});

/** PUT /api/user/language: the language the user reads Grapevine in. */
export const languageBody = z.object({
  language: z.enum(LANGUAGES, {
    error: says("name_one_of", { name: "language", values: LANGUAGES.join(", ") }),
  }),
});

export const deleteAccountBody = z.object({
  password: text("password").min(1, says("delete_needs_password")).max(1024),
});

export type EmailSettings = {
  provider: string;
  isConnected: boolean;
  emailAddress: string | null;
  selectedFolder: string | null;
  processedFolder: string | null;
  markProcessedAsRead: boolean;
  lastFolderRefresh: string | null;
  accessToken: string | null;
};

/** GET /api/user/data (docs/behaviour.md#data). emailSettings is null until a mailbox has been set up. */
export type UserData = {
  userid: number;
  email: string;
  displayname: string;
  timezone: string | null;
  /** The Vine marketplace: set by the user, else from their first Amazon mail, else "US". */
  vineMarketplace: MarketplaceCode;
  /** True when the user or their mail set it (false: the "US" default). */
  vineMarketplaceSet: boolean;
  /** The language chosen on the account; null until chosen (the web app then uses the browser's). */
  language: Language | null;
  createdate: string;
  emailsscanned: number;
  lastprocessedtime: string | null;
  /** "vine": only $0.00 Vine order confirmations become orders (default); "all": every order. */
  importMode: "vine" | "all";
  emailSettings: EmailSettings | null;
};

export type SuccessResponse = { success: true; message: string };
