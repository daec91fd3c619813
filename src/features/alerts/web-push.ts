/**
 * The two functions of the `web-push` library the alert channels use, loaded with the first
 * Web Push key or message: the library and the crypto and HTTPS modules it brings cost several
 * megabytes resident, and most users never add a device.
 */
import { lazyModule } from "../../util/lazy-module.ts";

const library = lazyModule(() => require("web-push") as typeof import("web-push"));

export const webpush = {
  generateVAPIDKeys: () => library().generateVAPIDKeys(),
  generateRequestDetails: (...args: Parameters<typeof import("web-push").generateRequestDetails>) =>
    library().generateRequestDetails(...args),
};
