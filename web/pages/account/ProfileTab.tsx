import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { PublicUser } from "../../../src/contract/index.ts";
import {
  MARKETPLACE_CURRENCY,
  MARKETPLACES,
  type MarketplaceCode,
} from "../../../src/contract/marketplaces.ts";
import { Dialog } from "../../components/Dialog.tsx";
import { InputField, SelectField } from "../../components/Field.tsx";
import { FormError } from "../../components/FormError.tsx";
import { useUserData } from "../../hooks/useUser.ts";
import { intlLocale, translate, useT } from "../../i18n/index.ts";
import { LanguagePicker } from "../../i18n/LanguagePicker.tsx";
import { useSaveLanguage } from "../../i18n/useLanguage.ts";
import { apiJson, apiRequest, downloadFile, errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth.tsx";
import { userKeys } from "../../lib/query-keys.ts";
import { toast, toastError } from "../../lib/toast.tsx";

export const PASSWORD_MIN = 6;

/** The client-side rules of the change-password dialog (docs/behaviour.md#validation); null when valid. */
export function passwordChangeError(current: string, next: string, confirm: string): string | null {
  if (!current || !next || !confirm) return translate("profile.password.fillAll");
  if (next !== confirm) return translate("profile.password.mismatch");
  if (next.length < PASSWORD_MIN)
    return translate("profile.password.tooShort", { min: PASSWORD_MIN });
  return null;
}

export function ProfileTab() {
  return (
    <>
      <ProfileForm />
      <LanguageCard />
      <VineMarketplace />
      <YourData />
    </>
  );
}

/** Each marketplace's Amazon site, after its country's name in the reader's language. */
const MARKETPLACE_DOMAINS: Record<MarketplaceCode, string> = {
  US: "amazon.com",
  UK: "amazon.co.uk",
  DE: "amazon.de",
  FR: "amazon.fr",
  IT: "amazon.it",
  ES: "amazon.es",
  JP: "amazon.co.jp",
  CA: "amazon.ca",
  AU: "amazon.com.au",
};

/** "Germany (amazon.de)", "Deutschland (amazon.de)": the country named by Intl in the reader's language. */
function marketplaceLabel(m: MarketplaceCode): string {
  const region = m === "UK" ? "GB" : m;
  let country: string = m;
  try {
    country = new Intl.DisplayNames([intlLocale()], { type: "region" }).of(region) ?? m;
  } catch {
    // no region names in this browser: the code stays
  }
  return translate("profile.marketplace.option", { country, domain: MARKETPLACE_DOMAINS[m] });
}

/** The account's language (docs/i18n.md): the screens switch to it once it is saved. */
function LanguageCard() {
  const t = useT();
  const save = useSaveLanguage();
  return (
    <article>
      <header>
        <h2>{t("profile.language.title")}</h2>
      </header>
      <p>{t("profile.language.hint")}</p>
      <LanguagePicker
        className="profile-language"
        disabled={save.isPending}
        onPick={(language) => {
          // The screens are drawn again in the new language (this card too), so the toasts
          // follow the request rather than this component: the success toast is in the new language.
          save.mutateAsync(language).then(
            () => toast({ title: translate("profile.language.saved"), variant: "success" }),
            (err: unknown) =>
              toastError(err, errorMessage(err, translate("profile.language.saveFailed"))),
          );
        }}
      />
    </article>
  );
}

/** The user's Amazon Vine marketplace: the currency of orders added by hand. */
function VineMarketplace() {
  const t = useT();
  const { data } = useUserData();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (vineMarketplace: MarketplaceCode) =>
      apiJson<{ vineMarketplace: MarketplaceCode }>("PUT", "/api/user/marketplace", {
        vineMarketplace,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      toast({ title: translate("profile.marketplace.saved"), variant: "success" });
    },
    onError: (err) =>
      toastError(err, errorMessage(err, translate("profile.marketplace.saveFailed"))),
  });
  const value = data?.vineMarketplace ?? "US";
  return (
    <article>
      <header>
        <h2>{t("profile.marketplace.title")}</h2>
      </header>
      <SelectField
        id="vine-marketplace"
        label={t("profile.marketplace.label")}
        hint={
          data && !data.vineMarketplaceSet
            ? t("profile.marketplace.hintNotChosen", { currency: MARKETPLACE_CURRENCY[value] })
            : t("profile.marketplace.hint", { currency: MARKETPLACE_CURRENCY[value] })
        }
        name="vineMarketplace"
        value={value}
        disabled={!data || save.isPending}
        onValue={(v) => save.mutate(v as MarketplaceCode)}
        options={MARKETPLACES.map((m) => ({ value: m, label: marketplaceLabel(m) }))}
      />
    </article>
  );
}

function ProfileForm() {
  const t = useT();
  const { data } = useUserData();
  const { setUser } = useAuth();
  const queryClient = useQueryClient();
  const [displayname, setDisplayname] = useState("");
  const [email, setEmail] = useState("");
  // A new email address needs the current password (the server asks for it).
  const [currentPassword, setCurrentPassword] = useState("");
  const emailChanged = Boolean(data) && email.trim().toLowerCase() !== data?.email;
  const [passwordOpen, setPasswordOpen] = useState(false);

  useEffect(() => {
    if (data) {
      setDisplayname(data.displayname);
      setEmail(data.email);
    }
  }, [data]);

  const save = useMutation({
    mutationFn: () =>
      apiJson<{ user: PublicUser }>("PUT", "/api/user/profile", {
        displayname: displayname.trim(),
        email: email.trim(),
        ...(emailChanged ? { currentPassword } : {}),
      }),
    onSuccess: (res) => {
      setCurrentPassword("");
      setUser(res.user);
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      toast({ title: translate("profile.updated"), variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("profile.updateFailed"))),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }

  return (
    <article>
      <header>
        <h2>{t("profile.title")}</h2>
      </header>
      <form onSubmit={submit}>
        <div className="grid">
          <InputField
            label={t("profile.displayName")}
            name="displayname"
            value={displayname}
            onValue={setDisplayname}
            autoComplete="name"
          />
          <InputField
            label={t("profile.email")}
            name="email"
            type="email"
            value={email}
            onValue={setEmail}
            autoComplete="email"
          />
        </div>
        {emailChanged && (
          <InputField
            label={t("profile.currentPasswordForEmail")}
            name="currentPassword"
            type="password"
            value={currentPassword}
            onValue={setCurrentPassword}
            autoComplete="current-password"
            required
          />
        )}
        <div className="button-row">
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
            {t("profile.update")}
          </button>
          <button type="button" className="secondary" onClick={() => setPasswordOpen(true)}>
            {t("profile.password.change")}
          </button>
        </div>
      </form>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </article>
  );
}

function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setCurrent("");
    setNext("");
    setConfirm("");
    setError(null);
    onClose();
  };

  const change = useMutation({
    mutationFn: () =>
      apiRequest("PUT", "/api/user/password", { currentPassword: current, newPassword: next }),
    onSuccess: () => {
      toast({ title: translate("profile.password.changed"), variant: "success" });
      close();
    },
    onError: (err) =>
      toastError(err, errorMessage(err, translate("profile.password.changeFailed"))),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = passwordChangeError(current, next, confirm);
    setError(problem);
    if (!problem) change.mutate();
  }

  return (
    <Dialog open={open} title={t("profile.password.change")} onClose={close}>
      <form onSubmit={submit} id="change-password-form">
        <FormError>{error}</FormError>
        <InputField
          label={t("profile.password.current")}
          type="password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
        />
        <InputField
          label={t("profile.password.new")}
          type="password"
          autoComplete="new-password"
          value={next}
          onValue={setNext}
        />
        <InputField
          label={t("profile.password.confirm")}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onValue={setConfirm}
        />
        <footer className="button-row end">
          <button type="button" className="secondary" onClick={close}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            disabled={change.isPending}
            aria-busy={change.isPending || undefined}
          >
            {t("profile.password.change")}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

function YourData() {
  const t = useT();
  const { signOutLocally } = useAuth();
  const [, navigate] = useLocation();
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [exporting, setExporting] = useState<"json" | "archive" | null>(null);

  const remove = useMutation({
    mutationFn: () => apiRequest("DELETE", "/api/user", { password }),
    onSuccess: () => {
      setDeleteOpen(false);
      signOutLocally();
      navigate("/login", { replace: true });
      toast({
        title: translate("profile.data.deleted"),
        description: translate("profile.data.deletedText"),
      });
    },
    onError: (err) => toastError(err, errorMessage(err, translate("profile.data.deleteFailed"))),
  });

  async function exportData(kind: "json" | "archive") {
    setExporting(kind);
    try {
      if (kind === "json") await downloadFile("/api/user/export", "grapevine-export.json");
      else await downloadFile("/api/user/export/archive", "grapevine-export.tar");
      toast({ title: translate("profile.data.exported") });
    } catch (err) {
      toastError(err, errorMessage(err, translate("profile.data.exportFailed")));
    } finally {
      setExporting(null);
    }
  }

  const closeDelete = () => {
    setDeleteOpen(false);
    setPassword("");
  };

  return (
    <article>
      <header>
        <h2>{t("profile.data.title")}</h2>
      </header>
      <p>{t("profile.data.text")}</p>
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={() => exportData("json")}
          disabled={exporting !== null}
          aria-busy={exporting === "json" || undefined}
        >
          {t("profile.data.export")}
        </button>
        <button
          type="button"
          className="secondary outline"
          onClick={() => exportData("archive")}
          disabled={exporting !== null}
          aria-busy={exporting === "archive" || undefined}
        >
          {t("profile.data.exportArchive")}
        </button>
        <button type="button" className="danger outline" onClick={() => setDeleteOpen(true)}>
          {t("profile.data.delete")}
        </button>
      </div>
      <Dialog open={deleteOpen} title={t("profile.data.delete")} onClose={closeDelete}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            remove.mutate();
          }}
        >
          <p>{t("profile.data.deleteConfirm")}</p>
          <InputField
            label={t("profile.data.password")}
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
            required
          />
          <footer className="button-row end">
            <button type="button" className="secondary" onClick={closeDelete}>
              {t("common.cancel")}
            </button>
            <button
              type="submit"
              className="danger"
              disabled={!password || remove.isPending}
              aria-busy={remove.isPending || undefined}
            >
              {t("profile.data.deleteMine")}
            </button>
          </footer>
        </form>
      </Dialog>
    </article>
  );
}
