import type { Page } from "@playwright/test";

/**
 * Resolves when the page's live-event stream has been ANSWERED. The server subscribes the stream
 * before it answers, so changes made after this are delivered; waiting only for the request is
 * not enough (a change sent on another connection may reach the server first).
 */
export function liveStreamOpened(page: Page, token?: string) {
  return page.waitForResponse((res) => {
    const url = res.url();
    return (
      url.includes("/api/events/stream?token=") &&
      (token === undefined || url.includes(`token=${encodeURIComponent(token)}`)) &&
      res.ok()
    );
  });
}
