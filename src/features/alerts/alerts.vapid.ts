/**
 * The server's Web Push (VAPID) identity: one key pair made on first use and kept in server_keys
 * (the private key encrypted), and the `sub` contact sent with every push.
 */

import type { Secrets } from "../../util/secrets.ts";
import type { AlertsRepo } from "./alerts.repo.ts";
import type { Vapid } from "./senders.ts";
import { webpush } from "./web-push.ts";

const VAPID_KEY = "vapid";

/** True for a host a push service can resolve (Apple refuses localhost and .local subjects). */
const publicHost = (host: string) =>
  host.includes(".") && !/(^|\.)(localhost|local|lan|home|internal|test|invalid)$/i.test(host);

/**
 * The VAPID `sub` (RFC 8292: a contact for the push service's operator), sent to every push
 * service and to whatever a push endpoint names: PUBLIC_URL when it is a public https address,
 * else WEB_PUSH_CONTACT (mailto: or https:, chosen by the administrator to be shown), else a
 * placeholder on a real domain. Never an account's email. Apple's push service answers
 * 403 BadJwtToken to a localhost or .local subject.
 */
export function vapidSubject(publicUrl: string | null, contact: string | null): string {
  if (publicUrl?.startsWith("https://") && publicHost(new URL(publicUrl).hostname))
    return publicUrl;
  if (contact) return contact;
  return "mailto:grapevine@example.com";
}

/** The keys, read (or made, once: a second process keeps the first one's) on the first call. */
export function createVapid(deps: {
  repo: Pick<AlertsRepo, "getKey" | "putKeyOnce">;
  secrets: Secrets;
  publicUrl: string | null;
  webPushContact?: string | null;
}): () => Vapid {
  let keys: Omit<Vapid, "subject"> | null = null;
  return () => {
    if (!keys) {
      let saved = deps.repo.getKey(VAPID_KEY);
      if (!saved) {
        const made = webpush.generateVAPIDKeys();
        saved = deps.repo.putKeyOnce(
          VAPID_KEY,
          JSON.stringify({
            publicKey: made.publicKey,
            privateKey: deps.secrets.encrypt(made.privateKey),
          }),
        );
      }
      const k = JSON.parse(saved) as { publicKey: string; privateKey: string };
      keys = { publicKey: k.publicKey, privateKey: deps.secrets.decrypt(k.privateKey) };
    }
    return { ...keys, subject: vapidSubject(deps.publicUrl, deps.webPushContact ?? null) };
  };
}
