// Preloaded by `bun test` (bunfig.toml). Tests build their own config from a temp DATA_DIR, never
// from the developer's environment, so a local .env cannot change what the tests see.
process.env.TZ = "UTC";

// The web app's messages in English, loaded as web/i18n/index.ts loads them in the browser: the
// `catalog:<language>:<part>` modules come from the same plugin the build uses.
import { catalogPlugin } from "../scripts/catalog-plugin.ts";
import { setLanguage } from "../web/i18n/index.ts";

Bun.plugin(catalogPlugin);
await setLanguage("en");
