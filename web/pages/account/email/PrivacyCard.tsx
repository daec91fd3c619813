/** The email privacy card and its 'Email Access & Privacy Details' dialog (docs/screens.md). */
import { useState } from "react";
import { Link } from "wouter";
import { Dialog } from "../../../components/Dialog.tsx";
import { GOOGLE_PERMISSIONS_URL } from "../../../components/Footer.tsx";

export const PRIVACY_DIALOG_TITLE = "Email Access & Privacy Details";

export function PrivacyCard() {
  const [open, setOpen] = useState(false);
  return (
    <article className="privacy-card" aria-labelledby="privacy-card-title">
      <header>
        <h2 id="privacy-card-title">Email Privacy</h2>
      </header>
      <p>
        Grapevine reads only Amazon's emails in the folder you choose, only to track your Vine
        orders, and only on this server. It never sends, deletes or shares your email.
      </p>
      <button type="button" className="secondary outline" onClick={() => setOpen(true)}>
        View Privacy Details
      </button>
      <Dialog
        open={open}
        title={PRIVACY_DIALOG_TITLE}
        onClose={() => setOpen(false)}
        className="privacy-dialog"
        footer={
          <div className="button-row end">
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        }
      >
        <PrivacyDetails />
      </Dialog>
    </article>
  );
}

function PrivacyDetails() {
  return (
    <div className="privacy-details">
      <section>
        <h4>Why Google asks for broad permissions</h4>
        <p>
          Grapevine reads mail over IMAP. Google grants IMAP access only with its full mail
          permission (<code>https://mail.google.com/</code>), so the consent you give is very broad
          and Google says Grapevine could read, send and delete all your email. Grapevine uses that
          access in a narrow way only.
        </p>
      </section>
      <section>
        <h4>What is accessed</h4>
        <ul>
          <li>Only emails from Amazon's domains</li>
          <li>Only the folder you choose to monitor</li>
          <li>Email headers and content, to extract your order details</li>
          <li>Read status, to mark processed emails as read if you choose</li>
        </ul>
      </section>
      <section>
        <h4>What is never accessed</h4>
        <ul>
          <li>Personal, work and financial emails</li>
          <li>Any email that is not from Amazon</li>
          <li>Grapevine never sends, deletes or shares email</li>
        </ul>
      </section>
      <section>
        <h4>Safeguards</h4>
        <ul>
          <li>
            Filtering on the server: Gmail itself is asked only for messages from Amazon's sender
            domains, so no other email is ever downloaded.
          </li>
          <li>
            Local processing: emails are read on this Grapevine server; nothing is sent to anyone
            else.
          </li>
          <li>Encrypted credentials: the app password or Google token is stored encrypted.</li>
          <li>
            No mail stored: only the order details are kept (plus the Message-ID of each processed
            email, so it is never read twice), never the emails themselves.
          </li>
        </ul>
      </section>
      <section>
        <h4>Your controls</h4>
        <ul>
          <li>Disconnect your mailbox at any time on this tab.</li>
          <li>
            Choose the folder that is monitored, and whether processed emails are marked as read or
            moved to another folder.
          </li>
          <li>
            Revoke Grapevine's access on{" "}
            <a href={GOOGLE_PERMISSIONS_URL} target="_blank" rel="noreferrer">
              Google's permissions page
            </a>{" "}
            (or delete the app password).
          </li>
          <li>Delete your account with all its data on the Profile tab.</li>
        </ul>
        <p>
          More in the <Link href="/privacy-policy">Privacy Policy</Link>.
        </p>
      </section>
    </div>
  );
}
