/** http_ece (the Web Push content encoding, RFC 8188/8291) ships no types; what the tests use. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  export function decrypt(
    buffer: Uint8Array,
    params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string },
  ): Buffer;
}
