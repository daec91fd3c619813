/**
 * Carrier tracking on the screens: the Shipment Tracking tab of /account, and the refresh controls
 * of the dashboard (Shipped card), the orders list (Update All Tracking, a card's Update Tracking)
 * and Edit Order's Shipping tab (Update Tracking).
 */
import { expect, type Locator, type Page } from "@playwright/test";

export class TrackingTab {
  readonly tab: Locator;
  readonly panel: Locator;
  readonly heading: Locator;
  readonly timezone: Locator;
  readonly updateTime: Locator;
  readonly save: Locator;
  readonly help: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.tab = main
      .getByRole("tablist", { name: "Account sections" })
      .getByRole("tab", { name: /Shipment Tracking/ });
    this.panel = main.getByRole("tabpanel");
    this.heading = this.panel.getByRole("heading", { name: "Shipment Tracking" });
    this.timezone = this.panel.getByRole("combobox", { name: "Timezone" });
    this.updateTime = this.panel.getByRole("combobox", { name: "Daily update time" });
    this.save = this.panel.getByRole("button", { name: "Save Preferences" });
    this.help = this.panel.getByText(/Only Shipped orders with a tracking number are checked/);
  }

  async goto(): Promise<void> {
    await this.page.goto("/account?tab=tracking");
    await expect(this.heading).toBeVisible();
    await expect(this.save).toBeEnabled();
  }

  /** The visible text of the chosen option ("2:30 PM", "Japan Time (Tokyo)"). */
  chosenLabel(select: Locator): Promise<string> {
    return select.evaluate((el) => {
      const s = el as HTMLSelectElement;
      return s.options[s.selectedIndex]?.text ?? "";
    });
  }
}

export class TrackingControls {
  /** The dashboard Shipped card's refresh (beside the card's link). */
  readonly shippedRefresh: Locator;
  /** The orders list's Update All Tracking (Shipped filter with results). */
  readonly updateAll: Locator;
  /** Edit Order → Shipping: Update Tracking. */
  readonly editUpdateTracking: Locator;

  constructor(readonly page: Page) {
    const main = page.getByRole("main");
    this.shippedRefresh = main
      .getByRole("region", { name: "Orders by status" })
      .getByRole("button", { name: "Update tracking for all shipped orders" });
    this.updateAll = main.getByRole("button", { name: "Update All Tracking" });
    this.editUpdateTracking = main
      .getByRole("tabpanel")
      .getByRole("button", { name: "Update Tracking", exact: true });
  }

  /** A card's Update Tracking (dashboard and list), named after the product. */
  cardUpdate(productName: string): Locator {
    return this.page
      .getByRole("main")
      .getByRole("button", { name: `Update Tracking: ${productName}`, exact: true });
  }
}
