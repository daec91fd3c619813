/**
 * The language on the account: saving a choice, and keeping the app and the account agreeing
 * (docs/i18n.md). The account's language wins, unless the reader picked one on the sign-in page
 * just before signing in (that pick is their choice, saved to the account); an account that has
 * none yet is given the one the app shows (the browser's), so notifications, reminders and
 * alerts, made on the server, come in it too.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { UserData } from "../../src/contract/index.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { useUserData } from "../hooks/useUser.ts";
import { apiJson } from "../lib/api.ts";
import { notificationKeys, userKeys } from "../lib/query-keys.ts";
import { currentLanguage, setLanguage } from "./index.ts";

const PICKED_KEY = "language-picked";

/** The sign-in page's picker: shows the app in the language now and saves it once signed in. */
export async function pickLanguageBeforeSignIn(language: Language) {
  await setLanguage(language);
  try {
    sessionStorage.setItem(PICKED_KEY, language);
  } catch {
    // storage unavailable: the account keeps its own language
  }
}

function takePicked(): Language | null {
  try {
    const picked = sessionStorage.getItem(PICKED_KEY);
    sessionStorage.removeItem(PICKED_KEY);
    return picked === currentLanguage() ? picked : null;
  } catch {
    return null;
  }
}

const saveLanguage = (language: Language) =>
  apiJson<{ language: Language }>("PUT", "/api/user/language", { language });

/** Profile's picker: saves the language on the account, then shows the app in it. */
export function useSaveLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLanguage,
    onSuccess: async ({ language }) => {
      queryClient.setQueryData<UserData>(userKeys.data(), (d) => (d ? { ...d, language } : d));
      // The server writes notifications in the account's language when they are read.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all() });
      await setLanguage(language);
    },
  });
}

/** Mounted once for a signed-in user (web/App.tsx). */
export function useAccountLanguage(signedIn: boolean) {
  const queryClient = useQueryClient();
  const { data } = useUserData({ enabled: signedIn });
  const account = data?.language;
  useEffect(() => {
    if (!signedIn || account === undefined) return;
    const picked = takePicked();
    const shown = currentLanguage();
    const save = picked ?? (account === null ? shown : null);
    if (save && save !== account) {
      saveLanguage(save)
        .then(() => {
          queryClient.setQueryData<UserData>(userKeys.data(), (d) =>
            d ? { ...d, language: save } : d,
          );
          void queryClient.invalidateQueries({ queryKey: notificationKeys.all() });
        })
        .catch(() => {
          // saved the next time the app starts; the screens are in it already
        });
    } else if (account && account !== shown) {
      void setLanguage(account).catch(() => {});
    }
  }, [signedIn, account, queryClient]);
}
