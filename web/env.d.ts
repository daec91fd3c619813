declare module "*.css";
declare module "*.svg" {
  const url: string;
  export default url;
}

/** A language's message catalog part, made by scripts/build-web.ts from locales/<language>.json. */
declare module "catalog:*" {
  const messages: Record<string, unknown>;
  export default messages;
}
