import { z } from "zod";
import { says } from "./errors.ts";
import { displayname, email, newPassword, text } from "./fields.ts";

export const registerBody = z.object({
  email: email(),
  password: newPassword(),
  displayname: displayname(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  email: email(),
  password: text("password")
    .min(1, says("field_required", { field: "password" }))
    .max(1024, says("field_too_long_plain", { field: "password" })),
});
export type LoginBody = z.infer<typeof loginBody>;

export type PublicUser = { userid: number; email: string; displayname: string };
export type AuthResponse = { token: string; user: PublicUser };
