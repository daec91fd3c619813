/**
 * Draws the PWA icons (web/pwa/icon-192.png, icon-512.png) from web/favicon.svg in Chromium:
 * the grapes on a light square, inside the middle 80% so the same files serve as "maskable".
 * Run once after changing the favicon: `bun run scripts/make-icons.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const root = path.resolve(import.meta.dir, "..");
const svg = fs.readFileSync(path.join(root, "web/favicon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = Math.round(size * 0.62);
    await page.setContent(
      `<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:#f5f3ff">
        <div style="width:${inner}px;height:${inner}px">${svg.replace("<svg ", `<svg width="${inner}" height="${inner}" `)}</div>
      </body>`,
    );
    await page.screenshot({ path: path.join(root, `web/pwa/icon-${size}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log("web/pwa/icon-192.png and icon-512.png written");
