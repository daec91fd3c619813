/**
 * A server error in the reader's language (docs/api.md "Errors"): the sign-in's refusal comes
 * with the code `sign_in_wrong`, and the app shows that code's sentence from the reader's catalog,
 * not the server's English words. The browser's language decides on a first visit.
 */
import { expect, test } from "./support/fixtures.ts";

for (const { locale, sentence } of [
  { locale: "de-DE", sentence: "E-Mail oder Passwort ist falsch" },
  { locale: "ja-JP", sentence: "メールアドレスまたはパスワードが正しくありません" },
]) {
  test.describe(locale, () => {
    test.use({ locale, viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    test("a wrong password is refused in the reader's language", async ({
      page,
      user,
      loginPage,
    }) => {
      await loginPage.goto();
      await loginPage.signIn(user.email, "not-the-password");
      await expect(page.getByText(sentence)).toBeVisible();
      await expect(page.getByText("Incorrect email or password")).toHaveCount(0);
      await expect(page).toHaveURL("/login");
    });
  });
}
