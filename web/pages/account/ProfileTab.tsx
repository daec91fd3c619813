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
import { apiJson, apiRequest, downloadFile, errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth.tsx";
import { userKeys } from "../../lib/query-keys.ts";
import { toast, toastError } from "../../lib/toast.tsx";

export const PASSWORD_MIN = 6;

/** The client-side rules of the change-password dialog (docs/behaviour.md#validation); null when valid. */
export function passwordChangeError(current: string, next: string, confirm: string): string | null {
  if (!current || !next || !confirm) return "Please fill in all fields";
  if (next !== confirm) return "New passwords do not match";
  if (next.length < PASSWORD_MIN) return "Password must be at least 6 characters long";
  return null;
}

export function ProfileTab() {
  return (
    <>
      <ProfileForm />
      <VineMarketplace />
      <YourData />
    </>
  );
}

/** The marketplaces as the Profile tab names them (only this screen does). */
const MARKETPLACE_LABELS: Record<MarketplaceCode, string> = {
  US: "United States (amazon.com)",
  UK: "United Kingdom (amazon.co.uk)",
  DE: "Germany (amazon.de)",
  FR: "France (amazon.fr)",
  IT: "Italy (amazon.it)",
  ES: "Spain (amazon.es)",
  JP: "Japan (amazon.co.jp)",
  CA: "Canada (amazon.ca)",
  AU: "Australia (amazon.com.au)",
};

/** The user's Amazon Vine marketplace: the currency of orders added by hand. */
function VineMarketplace() {
  const { data } = useUserData();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (vineMarketplace: MarketplaceCode) =>
      apiJson<{ vineMarketplace: MarketplaceCode }>("PUT", "/api/user/marketplace", {
        vineMarketplace,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.data() });
      toast({ title: "Vine marketplace saved", variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, "Failed to save the Vine marketplace")),
  });
  const value = data?.vineMarketplace ?? "US";
  return (
    <article>
      <header>
        <h2>Vine marketplace</h2>
      </header>
      <SelectField
        id="vine-marketplace"
        label="Marketplace"
        hint={
          <>
            Orders you add by hand are in {MARKETPLACE_CURRENCY[value]}; orders from Amazon mail are
            in their marketplace's currency.
            {data && !data.vineMarketplaceSet
              ? " Not chosen yet: your first Amazon mail will set it."
              : ""}
          </>
        }
        name="vineMarketplace"
        value={value}
        disabled={!data || save.isPending}
        onValue={(v) => save.mutate(v as MarketplaceCode)}
        options={MARKETPLACES.map((m) => ({ value: m, label: MARKETPLACE_LABELS[m] }))}
      />
    </article>
  );
}

function ProfileForm() {
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
      toast({ title: "Profile updated", variant: "success" });
    },
    onError: (err) => toastError(err, errorMessage(err, "Failed to update profile")),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }

  return (
    <article>
      <header>
        <h2>Profile</h2>
      </header>
      <form onSubmit={submit}>
        <div className="grid">
          <InputField
            label="Display name"
            name="displayname"
            value={displayname}
            onValue={setDisplayname}
            autoComplete="name"
          />
          <InputField
            label="Email"
            name="email"
            type="email"
            value={email}
            onValue={setEmail}
            autoComplete="email"
          />
        </div>
        {emailChanged && (
          <InputField
            label="Current password (needed to change your email)"
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
            Update Profile
          </button>
          <button type="button" className="secondary" onClick={() => setPasswordOpen(true)}>
            Change Password
          </button>
        </div>
      </form>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </article>
  );
}

function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
      toast({ title: "Password changed", variant: "success" });
      close();
    },
    onError: (err) => toastError(err, errorMessage(err, "Failed to change password")),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = passwordChangeError(current, next, confirm);
    setError(problem);
    if (!problem) change.mutate();
  }

  return (
    <Dialog open={open} title="Change Password" onClose={close}>
      <form onSubmit={submit} id="change-password-form">
        <FormError>{error}</FormError>
        <InputField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
        />
        <InputField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onValue={setNext}
        />
        <InputField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onValue={setConfirm}
        />
        <footer className="button-row end">
          <button type="button" className="secondary" onClick={close}>
            Cancel
          </button>
          <button
            type="submit"
            disabled={change.isPending}
            aria-busy={change.isPending || undefined}
          >
            Change Password
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

function YourData() {
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
        title: "Account deleted",
        description: "Your account and all its data have been removed from this server.",
      });
    },
    onError: (err) => toastError(err, errorMessage(err, "Failed to delete account")),
  });

  async function exportData(kind: "json" | "archive") {
    setExporting(kind);
    try {
      if (kind === "json") await downloadFile("/api/user/export", "grapevine-export.json");
      else await downloadFile("/api/user/export/archive", "grapevine-export.tar");
      toast({ title: "Export downloaded" });
    } catch (err) {
      toastError(err, errorMessage(err, "Failed to export your data"));
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
        <h2>Your data</h2>
      </header>
      <p>
        Everything Grapevine keeps about you stays on this server. You can download it as a JSON
        file, or as an archive (.tar) that also holds your review photos and videos, or delete your
        account with all of its data for good.
      </p>
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={() => exportData("json")}
          disabled={exporting !== null}
          aria-busy={exporting === "json" || undefined}
        >
          Export my data
        </button>
        <button
          type="button"
          className="secondary outline"
          onClick={() => exportData("archive")}
          disabled={exporting !== null}
          aria-busy={exporting === "archive" || undefined}
        >
          Export with photos and videos
        </button>
        <button type="button" className="danger outline" onClick={() => setDeleteOpen(true)}>
          Delete account
        </button>
      </div>
      <Dialog open={deleteOpen} title="Delete account" onClose={closeDelete}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            remove.mutate();
          }}
        >
          <p>
            This removes your account and all of its data from this server. This action cannot be
            undone. Enter your password to confirm.
          </p>
          <InputField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
            required
          />
          <footer className="button-row end">
            <button type="button" className="secondary" onClick={closeDelete}>
              Cancel
            </button>
            <button
              type="submit"
              className="danger"
              disabled={!password || remove.isPending}
              aria-busy={remove.isPending || undefined}
            >
              Delete my account
            </button>
          </footer>
        </form>
      </Dialog>
    </article>
  );
}
