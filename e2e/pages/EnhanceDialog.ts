/** The Enhance buttons of Edit Order's review section and the AI enhancement dialog. */
import type { Locator, Page } from "@playwright/test";

export class EnhanceDialog {
  readonly enhanceSubject: Locator;
  readonly enhanceText: Locator;
  readonly unavailableNote: Locator;
  readonly dialog: Locator;
  readonly mode: Locator;
  readonly loading: Locator;
  readonly error: Locator;
  readonly enhancedSubject: Locator;
  readonly enhancedText: Locator;
  readonly privacy: Locator;
  readonly accept: Locator;
  readonly cancel: Locator;
  readonly retry: Locator;
  readonly tryAgain: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.enhanceSubject = main.getByRole("button", { name: "Enhance subject" });
    this.enhanceText = main.getByRole("button", { name: "Enhance review text" });
    this.unavailableNote = main.getByText(/^AI help is not set up on this server/);
    this.dialog = page.getByRole("dialog", { name: "Enhance Review" });
    this.mode = this.dialog.locator(".enhance-badge");
    this.loading = this.dialog.getByRole("status").filter({ hasText: "Enhancing your review" });
    this.error = this.dialog.getByRole("alert");
    this.enhancedSubject = this.dialog
      .getByRole("region", { name: "Subject" })
      .locator(".enhance-text.after");
    this.enhancedText = this.dialog
      .getByRole("region", { name: "Review text" })
      .locator(".enhance-text.after");
    this.privacy = this.dialog.getByText(/^Sent to the AI server/);
    this.accept = this.dialog.getByRole("button", { name: "Accept" });
    this.cancel = this.dialog.getByRole("button", { name: "Cancel" });
    this.retry = this.dialog.getByRole("button", { name: "Retry" });
    this.tryAgain = this.dialog.getByRole("button", { name: "Try Again" });
  }
}
