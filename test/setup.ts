// Preloaded by `bun test` (bunfig.toml). Tests build their own config from a temp DATA_DIR, never
// from the developer's environment, so a local .env cannot change what the tests see.
process.env.TZ = "UTC";
