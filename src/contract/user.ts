import { z } from "zod";
import { LANGUAGES, type Language } from "../i18n/languages.ts";
import { displayname, email, newPassword, text } from "./fields.ts";
import { MARKETPLACES, type MarketplaceCode } from "./marketplaces.ts";

export const profileBody = z.object({
  displayname: displayname(),
  email: email(),
  /** Required when `email` differs from the current one. */
  currentPassword: z
    .string({ error: "Current password must be text" })
    .max(1024, "Current password is too long")
    .optional(),
});
export type ProfileBody = z.infer<typeof profileBody>;

export const passwordBody = z.object({
  currentPassword: text("Current password").min(1, "Current password is required").max(1024),
  newPassword: newPassword("New password"),
});
export type PasswordBody = z.infer<typeof passwordBody>;

export const timezoneBody = z.object({
  timezone: text("Time zone").trim().min(1, "Please select a timezone").max(64),
});

/** PUT /api/user/marketplace: the user's Amazon Vine marketplace (new orders' currency). */
export const vineMarketplaceBody = z.object({
  vineMarketplace: z.enum(MARKETPLACES, {
    error: `vineMarketplace must be one of: ${MARKETPLACES.join(", ")}`,
  }),
});

/** PUT /api/user/language: the language the user reads Grapevine in. */
export const languageBody = z.object({
  language: z.enum(LANGUAGES, {
    error: `language must be one of: ${LANGUAGES.join(", ")}`,
  }),
});

export const deleteAccountBody = z.object({
  password: text("Password").min(1, "Enter your password to delete your account").max(1024),
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
