/**
 * How many of the list's cards the first render draws: those the first screen can show, plus one.
 * The rest follow right after the first paint (web/pages/OrdersPage.tsx), below the fold, so a
 * slow phone shows its first cards sooner and nothing on screen moves. Pure.
 *
 * Measured in Chromium (bench/README.md, first-screen): on a phone (≤ 640 px wide, where the
 * toolbar stacks) the list starts ~430 px down and a card is ≥ 165 px tall; wider, ~250 px and
 * ≥ 110 px. The estimate errs on the side of more cards.
 */
const NARROW = { maxWidth: 640, listTop: 400, cardHeight: 160 };
const WIDE = { listTop: 240, cardHeight: 110 };

export function firstCardCount(viewport: { width: number; height: number }): number {
  const { listTop, cardHeight } = viewport.width <= NARROW.maxWidth ? NARROW : WIDE;
  const visible = Math.ceil(Math.max(0, viewport.height - listTop) / cardHeight);
  return Math.max(2, visible + 1);
}
