/** Account Settings → Review Settings (/account?tab=reviews). */
import { expect, type Locator, type Page } from "@playwright/test";
import type { Tone } from "../../src/contract/constants.ts";

export class ReviewSettingsTab {
  readonly main: Locator;
  readonly tab: Locator;
  readonly panel: Locator;
  readonly card: Locator;
  readonly wordCount: Locator;
  readonly wordCountValue: Locator;
  readonly aiOption: Locator;
  readonly toneMix: Locator;
  readonly autoSubject: Locator;
  readonly reset: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByRole("main");
    this.tab = this.main.getByRole("tab", { name: /Review/ });
    this.panel = this.main.getByRole("tabpanel");
    this.card = this.panel.getByRole("article", { name: "Review Settings" });
    this.wordCount = this.card.getByRole("slider", { name: "Target review length" });
    this.wordCountValue = this.card.locator("output[for='rs-words']");
    this.aiOption = this.card.getByLabel("AI editing assistance");
    this.toneMix = this.card.getByRole("group", { name: "Tone mix" });
    this.autoSubject = this.card.getByRole("checkbox", { name: "Auto-generate subject" });
    this.reset = this.card.getByRole("button", { name: "Reset Changes" });
    this.save = this.card.getByRole("button", { name: "Save Settings" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/account?tab=reviews");
    await this.expectLoaded();
  }

  async expectLoaded(): Promise<void> {
    await expect(this.tab).toHaveAttribute("aria-selected", "true");
    await expect(this.wordCount).toBeVisible();
  }

  private slider(root: Page | Locator, tone: Tone): Locator {
    const name = tone.charAt(0).toUpperCase() + tone.slice(1);
    return root.getByRole("slider", { name, exact: true });
  }

  tone(tone: Tone): Locator {
    return this.slider(this.toneMix, tone);
  }

  /** The row of one tone (its tick shows when it is above 0). */
  toneRow(tone: Tone): Locator {
    return this.toneMix.locator(".rs-tone").filter({ has: this.slider(this.page, tone) });
  }

  /** Moves a slider with the keyboard, the way someone without a mouse would. */
  async setSlider(slider: Locator, value: number, step = 1): Promise<void> {
    await slider.focus();
    const current = Number(await slider.inputValue());
    const presses = Math.round(Math.abs(value - current) / step);
    const key = value > current ? "ArrowRight" : "ArrowLeft";
    for (let i = 0; i < presses; i++) await slider.press(key);
  }

  async setWordCount(value: number): Promise<void> {
    await this.setSlider(this.wordCount, value, 5);
    await expect(this.wordCount).toHaveValue(String(value));
  }

  async setTone(tone: Tone, value: number): Promise<void> {
    await this.setSlider(this.tone(tone), value);
  }

  /** Every tone's value, in the tones' order. */
  async toneValues(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const t of ["humorous", "professional", "friendly", "concise", "encouraging", "formal"]) {
      out[t] = Number(await this.tone(t as Tone).inputValue());
    }
    return out;
  }
}
