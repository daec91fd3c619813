// Preloaded by `bun test` (bunfig.toml). Tests build their own config from a temp DATA_DIR, never
// from the developer's environment, so a local .env cannot change what the tests see.
process.env.TZ = "UTC";

// The web app's messages in English, as web/i18n/index.ts loads them in the browser (there the
// build compiles the catalog; here Lingui compiles each message on first use).
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import english from "../locales/en.json";
import { catalogPlugin } from "../scripts/catalog-plugin.ts";

Bun.plugin(catalogPlugin); // the web app's `catalog:<language>:<part>` modules (setLanguage)
i18n.setMessagesCompiler(compileMessage);
i18n.load("en", english);
i18n.activate("en", ["en-US"]);
