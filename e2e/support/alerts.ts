import fs from "node:fs";
import path from "node:path";

/** Where the fake far sides of alert channels listen (written by e2e/support/server.ts). */
export const fakeAlertsUrl = () =>
  (
    JSON.parse(
      fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? "", "e2e-alerts.json"), "utf8"),
    ) as { baseUrl: string }
  ).baseUrl;
