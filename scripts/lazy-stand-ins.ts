/**
 * A Bun build plugin for the server bundle (scripts/build-server.ts): libraries that another
 * library imports at its top but needs only for some messages or setups get a stand-in there,
 * and the real one loads with its first use.
 *
 * imapflow loads, with the first connected mailbox, its SOCKS client (only used through a proxy,
 * which Grapevine never sets) and libmime with iconv-lite and encoding-japanese (only used to
 * decode a header or body in a charset other than UTF-8 and Latin-1, when imapflow itself parses
 * a message; Grapevine reads messages with mailparser), and node:zlib (only for COMPRESS=DEFLATE,
 * which Grapevine's connections never turn on). Loaded, their code and charset tables
 * stay resident for as long as the mailbox is connected (bench/startup.bench.ts prints each
 * one's cost).
 *
 * - `async`: the library is fetched with `import()` when the importer first calls one of the
 *   named async functions; the bundler then puts it in a chunk of its own, loaded only then.
 * - `sync`: an object standing in for the module's exports that `require`s the real module on
 *   the first property read (the importers call it synchronously): the file build-server.ts
 *   bundles it into (dist-server/lazy/), so neither its code nor its tables are read before.
 *
 * Only imports from the named importers are replaced. Each stand-in adds its package's name to
 * `globalThis.__lazyStandInsLoaded` (a Set) when it loads the real module:
 * test/lazy-modules.test.ts checks that a connected mailbox loads none, and that a Japanese
 * message still decodes through them.
 */
import path from "node:path";
import type { BunPlugin } from "bun";

const ROOT = path.resolve(import.meta.dir, "..");

export type StandIn = {
  /** The package the importers import. */
  spec: string;
  /** Files whose imports of `spec` are replaced (their path in node_modules). */
  importers: RegExp;
  how: "sync" | "async";
  /**
   * For `async`: the export names and, for each, the async methods the importers call, or
   * "function" when the export is itself the async function they call.
   */
  asyncExports?: Record<string, string[] | "function">;
  /**
   * For `sync`: exported classes an importer reads at its top (`const { Libmime } = libmime`) and
   * only constructs later: a function that constructs the real class when called with `new`.
   */
  classes?: string[];
};

export const STAND_INS: StandIn[] = [
  {
    spec: "socks",
    importers: /node_modules\/imapflow\//,
    how: "async",
    asyncExports: { SocksClient: ["createConnection"] },
  },
  {
    spec: "libmime",
    importers: /node_modules\/(imapflow|@zone-eu\/mailsplit)\//,
    how: "sync",
    // mailsplit reads it at its top, and constructs one per message part it parses.
    classes: ["Libmime"],
  },
  // imapflow's download(), which Grapevine never calls (it fetches whole messages and reads them
  // with mailparser): with it, imapflow's own copies of mailsplit, libqp and libbase64.
  {
    spec: "./download.js",
    importers: /node_modules\/imapflow\/dist\/(esm|cjs)\/imap-flow\.js$/,
    how: "async",
    asyncExports: { downloadMessage: "function", downloadMessageParts: "function" },
  },
  { spec: "iconv-lite", importers: /node_modules\/imapflow\//, how: "sync" },
  { spec: "encoding-japanese", importers: /node_modules\/imapflow\//, how: "sync" },
  // Only for COMPRESS=DEFLATE, which Grapevine never turns on (src/mail/imap/client.ts).
  // Bun's bundler does not ask plugins about Node's modules: the one importer's source is changed
  // to import the stand-in by name (its build fails if the import is no longer there).
  {
    spec: "node:zlib",
    importers: /node_modules\/imapflow\/dist\/(esm|cjs)\/imap-flow\.js$/,
    how: "sync",
  },
];

/** Node's own modules: their stand-in requires the module itself (nothing to bundle). */
const isBuiltin = (spec: string) => spec.startsWith("node:");

const NAMESPACE = "lazy-stand-in";

/** Where the server bundle keeps a library loaded with its first use, from the bundle's folder. */
export const lazyFile = (spec: string) =>
  `lazy/${spec.replace(/^@/, "").replace(/[^a-z0-9]+/gi, "-")}.js`;

/** The sync stand-ins' libraries: build-server.ts bundles each into its lazy file. */
export const SYNC_STAND_IN_LIBRARIES = STAND_INS.filter(
  (s) => s.how === "sync" && !isBuiltin(s.spec),
).map((s) => s.spec);

/** The statement a stand-in runs once, as it loads the real module. */
const noteLoaded = (spec: string) =>
  `(globalThis.__lazyStandInsLoaded ??= new Set()).add(${JSON.stringify(spec)});`;

/**
 * The code of a sync stand-in: a Proxy over the real module's exports, loaded on the first read.
 * `esm` for an ES importer (`import x from`), whose default is the stand-in; else CommonJS.
 */
function syncStandIn(spec: string, requirePath: string, esm: boolean, classes: string[]): string {
  const ctors = classes
    .map(
      (c) =>
        `  ${JSON.stringify(c)}: function (...args) { return new (load()[${JSON.stringify(c)}])(...args); },`,
    )
    .join("\n");
  const body = `let real;
const load = () => {
  if (real === undefined) {
    ${noteLoaded(spec)}
    real = require(${JSON.stringify(requirePath)});
  }
  return real;
};
const classes = {
${ctors}
};
const standIn = new Proxy({}, {
  get: (_, key) => (real === undefined && Object.hasOwn(classes, key) ? classes[key] : Reflect.get(load(), key)),
  has: (_, key) => Reflect.has(load(), key),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(load(), key);
    return d && { ...d, configurable: true };
  },
});
`;
  return esm ? `${body}export default standIn;\n` : `${body}module.exports = standIn;\n`;
}

function asyncStandIn(
  spec: string,
  realPath: string,
  exportsUsed: Record<string, string[] | "function">,
): string {
  const lines = [
    `let real;\nconst load = () => (real ??= (${noteLoaded(spec).slice(0, -1)}, import(${JSON.stringify(realPath)})));`,
  ];
  for (const [name, methods] of Object.entries(exportsUsed)) {
    if (methods === "function") {
      lines.push(`export const ${name} = async (...args) => (await load()).${name}(...args);`);
      continue;
    }
    const members = methods
      .map((m) => `  ${m}: async (...args) => (await load()).${name}.${m}(...args),`)
      .join("\n");
    lines.push(`export const ${name} = {\n${members}\n};`);
  }
  return `${lines.join("\n")}\n`;
}

export function lazyStandInsPlugin(standIns: StandIn[] = STAND_INS): BunPlugin {
  return {
    name: "lazy-stand-ins",
    setup(build) {
      for (const s of standIns.filter((x) => isBuiltin(x.spec))) {
        const quoted = new RegExp(`(["'])${s.spec}\\1`, "g");
        build.onLoad({ filter: s.importers }, async (args) => {
          const source = await Bun.file(args.path).text();
          const contents = source.replace(quoted, JSON.stringify(`${NAMESPACE}:${s.spec}`));
          if (contents === source) throw new Error(`${args.path} no longer imports ${s.spec}`);
          return { contents, loader: "js" };
        });
        build.onResolve({ filter: new RegExp(`^${NAMESPACE}:${s.spec}$`) }, (args) => ({
          path: `${s.spec}?sync-${args.kind === "require-call" ? "cjs" : "esm"}`,
          namespace: NAMESPACE,
        }));
      }
      for (const s of standIns.filter((x) => !isBuiltin(x.spec))) {
        const filter = new RegExp(`^${s.spec.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}$`);
        build.onResolve({ filter }, (args) => {
          if (!s.importers.test(args.importer)) return undefined;
          // The module the importer would get, resolved from its own folder; its lazy file when
          // that is the project's copy (the one build-server.ts bundles), else bundled here.
          const real = isBuiltin(s.spec)
            ? s.spec
            : Bun.resolveSync(s.spec, path.dirname(args.importer));
          const ours =
            s.how === "sync" && !isBuiltin(s.spec) && real === Bun.resolveSync(s.spec, ROOT);
          const esm = args.kind !== "require-call";
          const target = ours ? `./${lazyFile(s.spec)}` : real;
          return { path: `${target}?${s.how}-${esm ? "esm" : "cjs"}`, namespace: NAMESPACE };
        });
      }
      build.onResolve({ filter: /^\.\/lazy\// }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const [real = "", kind = ""] = args.path.split("?");
        const s = standIns.find(
          (x) =>
            real === x.spec ||
            real.includes(`/node_modules/${x.spec}/`) ||
            (x.spec.startsWith("./") && real.endsWith(x.spec.slice(1))) ||
            real === `./${lazyFile(x.spec)}`,
        );
        if (!s) throw new Error(`no stand-in for ${args.path}`);
        const contents =
          s.how === "async"
            ? asyncStandIn(s.spec, real, s.asyncExports ?? {})
            : syncStandIn(s.spec, real, kind.endsWith("esm"), s.classes ?? []);
        return { contents, loader: "js" };
      });
    },
  };
}
