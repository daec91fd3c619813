import { z } from "zod";
import { displayname, email, newPassword, text } from "./fields.ts";

export const registerBody = z.object({
  email: email(),
  password: newPassword(),
  displayname: displayname(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  email: email(),
  password: text("Password").min(1, "Password is required").max(1024, "Password is too long"),
});
export type LoginBody = z.infer<typeof loginBody>;

export type PublicUser = { userid: number; email: string; displayname: string };
export type AuthResponse = { token: string; user: PublicUser };
