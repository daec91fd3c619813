/** /orders/:id/edit (three tabs and the footer) and /orders/new (the same fields). */
import { expect, type Locator, type Page } from "@playwright/test";

export class EditOrderPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly loading: Locator;
  readonly notFound: Locator;
  readonly tabs: Locator;
  readonly productTab: Locator;
  readonly shippingTab: Locator;
  readonly reviewTab: Locator;
  readonly panel: Locator;
  readonly save: Locator;
  readonly saveAndClose: Locator;
  readonly cancel: Locator;
  // Product
  readonly productName: Locator;
  readonly asin: Locator;
  readonly orderNumber: Locator;
  readonly value: Locator;
  readonly currency: Locator;
  readonly status: Locator;
  readonly productUrl: Locator;
  readonly viewProductPage: Locator;
  readonly deleteOrder: Locator;
  readonly deleteDialog: Locator;
  // Shipping
  readonly expectedDelivery: Locator;
  readonly estimatedBadge: Locator;
  readonly trackingNumber: Locator;
  readonly carrier: Locator;
  readonly viewTracking: Locator;
  readonly lastUpdated: Locator;
  // Review
  readonly reviewStatus: Locator;
  readonly rating: Locator;
  readonly clearRating: Locator;
  readonly subject: Locator;
  readonly text: Locator;
  readonly wordCount: Locator;
  readonly copySubject: Locator;
  readonly markSubmitted: Locator;
  readonly markApproved: Locator;
  readonly markRejected: Locator;
  readonly reference: Locator;
  readonly viewOnAmazon: Locator;
  readonly dateDelivered: Locator;
  readonly writeReview: Locator;
  readonly updateTracking: Locator;
  readonly trackingLookupNote: Locator;
  readonly restoreDraft: Locator;
  readonly discardDraft: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.main = main;
    this.heading = main.getByRole("heading", { name: "Edit Order", level: 1 });
    this.loading = main.getByRole("status", { name: "Loading order" });
    this.notFound = main.getByRole("heading", { name: "Order Not Found" });
    this.tabs = main.getByRole("tablist", { name: "Order sections" });
    this.productTab = this.tabs.getByRole("tab", { name: /^Product/ });
    this.shippingTab = this.tabs.getByRole("tab", { name: /^Shipping/ });
    this.reviewTab = this.tabs.getByRole("tab", { name: /^Review/ });
    this.panel = main.getByRole("tabpanel");
    this.save = main.getByRole("button", { name: "Save", exact: true });
    this.saveAndClose = main.getByRole("button", { name: "Save & Close" });
    this.cancel = main.getByRole("link", { name: /^Cancel & Return to / });

    this.productName = main.getByLabel("Product name");
    this.asin = main.getByLabel("ASIN");
    this.orderNumber = main.getByLabel("Order number");
    this.value = main.getByLabel(/^Estimated value \(/);
    this.currency = main.getByLabel("Currency", { exact: true });
    this.status = main.getByLabel("Status", { exact: true });
    this.productUrl = main.getByLabel("Product URL");
    this.viewProductPage = main.getByRole("link", { name: /View Product Page/ });
    this.deleteOrder = main.getByRole("button", { name: "Delete order" });
    this.deleteDialog = page.getByRole("dialog", { name: "Delete order" });

    this.expectedDelivery = main.getByLabel(/^Expected delivery( Estimated)?$/);
    this.estimatedBadge = main.getByText("Estimated", { exact: true });
    this.trackingNumber = main.getByLabel("Tracking number");
    this.carrier = main.getByLabel("Carrier");
    this.viewTracking = main.getByRole("link", { name: /View Tracking/ });
    this.lastUpdated = main.getByText(/^Last updated: /);
    this.dateDelivered = main.getByLabel("Date delivered");
    this.writeReview = main.getByRole("link", { name: /Write review on Amazon/ });
    this.updateTracking = main.getByRole("button", { name: "Update Tracking" });
    this.trackingLookupNote = main.getByText(/Tracking look-ups .*are not set up on this server/);
    this.restoreDraft = main.getByRole("button", { name: "Restore draft" });
    this.discardDraft = main.getByRole("button", { name: "Discard draft" });

    this.reviewStatus = main.locator(".review-status");
    this.rating = main.getByRole("group", { name: "Rating" });
    this.clearRating = this.rating.getByRole("button", { name: "Clear rating" });
    this.subject = main.getByLabel("Review subject", { exact: true });
    this.text = main.getByLabel("Review text", { exact: true });
    this.wordCount = main.getByText(/^\d+ words?( \(target \d+\))?$/);
    this.copySubject = main.getByRole("button", { name: "Copy subject" });
    this.markSubmitted = main.getByRole("button", { name: "Mark Review Submitted" });
    this.markApproved = main.getByRole("button", { name: "Mark Approved" });
    this.markRejected = main.getByRole("button", { name: "Mark Rejected" });
    this.reference = main.getByLabel("Review reference");
    this.viewOnAmazon = main.getByRole("link", { name: /View on Amazon/ });
  }

  async goto(id: number, from = "/", section?: "review"): Promise<void> {
    const q = new URLSearchParams({ from });
    if (section) q.set("section", section);
    await this.page.goto(`/orders/${id}/edit?${q}`);
    await expect(this.heading).toBeVisible();
  }

  star(n: number): Locator {
    return this.rating.getByRole("radio", { name: n === 1 ? "1 star" : `${n} stars` });
  }

  async openTab(tab: "Product" | "Shipping" | "Review"): Promise<void> {
    const t = { Product: this.productTab, Shipping: this.shippingTab, Review: this.reviewTab }[tab];
    await t.click();
    await expect(t).toHaveAttribute("aria-selected", "true");
  }

  backButton(label: "Back to Order List" | "Back to Dashboard"): Locator {
    return this.main.getByRole("link", { name: label });
  }
}

export class AddOrderPage {
  readonly heading: Locator;
  readonly productName: Locator;
  readonly asin: Locator;
  readonly orderNumber: Locator;
  readonly value: Locator;
  readonly currency: Locator;
  readonly productUrl: Locator;
  readonly status: Locator;
  readonly trackingNumber: Locator;
  readonly carrier: Locator;
  readonly dateDelivered: Locator;
  readonly submit: Locator;
  readonly cancel: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.heading = main.getByRole("heading", { name: "Add Order", level: 1 });
    this.productName = main.getByLabel("Product name");
    this.asin = main.getByLabel("ASIN");
    this.orderNumber = main.getByLabel("Order number");
    this.value = main.getByLabel(/^Estimated value \(/);
    this.currency = main.getByLabel("Currency", { exact: true });
    this.productUrl = main.getByLabel("Product URL");
    this.status = main.getByLabel("Status", { exact: true });
    this.trackingNumber = main.getByLabel("Tracking number");
    this.carrier = main.getByLabel("Carrier");
    this.dateDelivered = main.getByLabel("Date delivered");
    this.submit = main.getByRole("button", { name: "Add Order" });
    this.cancel = main.getByRole("link", { name: "Cancel", exact: true });
  }
}
