/**
 * The entry (`bun dist-server/main.js`, `bun run src/main.ts`). Its first line makes the JIT
 * reluctant while start-up code runs once (src/util/idle-memory.ts); only then is the server
 * loaded, so the policy is in place before any of its modules' code runs (a static import would
 * be evaluated first).
 */
import { beginStartup } from "./util/idle-memory.ts";

beginStartup();
await import("./boot.ts");
