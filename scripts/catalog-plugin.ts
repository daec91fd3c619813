import fs from "node:fs";
import path from "node:path";
import type { BunPlugin } from "bun";
import {
  type Catalog,
  type CatalogPart,
  compileCatalog,
  webCatalogPart,
} from "../src/i18n/catalog.ts";

/**
 * The message catalogs (locales/<language>.json) go in compiled, so the browser formats messages
 * without a parser; the server's own messages (`server.*`) are left out. Each language's catalog
 * is two chunks, `catalog:<language>:first` and `catalog:<language>:later` (src/i18n/catalog.ts),
 * loaded when the language is (web/i18n/index.ts).
 */
export const catalogPlugin: BunPlugin = {
  name: "message-catalogs",
  setup(build) {
    // Named `<language>-<part>` so the chunk is `de-first-<hash>.js`.
    build.onResolve({ filter: /^catalog:[a-z]{2}:(first|later)$/ }, ({ path: id }) => ({
      path: id.slice("catalog:".length).replace(":", "-"),
      namespace: "catalog",
    }));
    build.onLoad({ filter: /.*/, namespace: "catalog" }, ({ path: name }) => {
      // `de-first` from the bundler; Bun's runtime (the tests) passes `de:first`.
      const [language, part] = name.split(/[-:]/).slice(-2) as [string, CatalogPart];
      const file = path.join(import.meta.dir, "..", "locales", `${language}.json`);
      const catalog = JSON.parse(fs.readFileSync(file, "utf8")) as Catalog;
      return {
        contents: `export default ${JSON.stringify(
          compileCatalog(catalog, (i) => webCatalogPart(i) === part),
        )}`,
        loader: "js",
      };
    });
  },
};
