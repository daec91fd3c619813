/** The public privacy policy (docs/screens.md). Keep it true to what the code does. */
export function PrivacyPolicyPage() {
  return (
    <main className="container narrow privacy">
      <hgroup>
        <h1>Privacy Policy</h1>
        <p>
          <span>Last Updated: January 2025</span> · <span>Version 1.0</span>
        </p>
      </hgroup>
      <p>
        Grapevine is software that you, or someone you trust, run on your own server. It is not a
        hosted service: your orders, reviews, photos and mailbox access stay on that server, and
        nothing is sent to the people who wrote the software.
      </p>

      <section>
        <h2>Email access permissions</h2>
        <h3>Why the permissions look so broad</h3>
        <p>
          Grapevine reads mail over IMAP, the standard protocol for mail programs. Gmail grants IMAP
          access only with its full mail permission ("Read, compose, send, and permanently delete
          all your email"), so that is what the consent screen shows. There is no narrower
          permission that works with IMAP. What Grapevine actually does with that access is much
          less, and is listed below.
        </p>
        <h3>What Grapevine does</h3>
        <ul>
          <li>
            Looks only in the one folder you choose to monitor (Inbox unless you pick another).
          </li>
          <li>
            Asks the mail server to find only messages from Amazon's sender domains, and downloads
            only those messages.
          </li>
          <li>Reads their headers and content to extract order details.</li>
          <li>
            If you turn these on: marks processed Amazon messages as read, and moves them to a
            folder you choose.
          </li>
        </ul>
        <h3>What Grapevine never does</h3>
        <ul>
          <li>It never opens personal, work or financial mail, or any mail not from Amazon.</li>
          <li>It never sends, deletes or forwards email.</li>
          <li>It never shares your mail or anything taken from it with anyone.</li>
        </ul>
      </section>

      <section>
        <h2>Data handling and storage</h2>
        <h3>What is stored</h3>
        <ul>
          <li>Your account: display name, email address, a salted hash of your password.</li>
          <li>
            Your orders as extracted from Amazon's mail or entered by you: order number, product
            name, link and image, value, ship-to address, dates, tracking numbers and carriers.
          </li>
          <li>Your reviews: rating, subject, text, photos and video.</li>
          <li>Your settings: time zone, tracking time, review preferences, mailbox folders.</li>
          <li>The mailbox connection: the Gmail address and its access credential, encrypted.</li>
          <li>
            Server logs: one line per request (time, method, path, status, duration) and errors.
            Sign-in tokens in addresses are masked before anything is logged.
          </li>
        </ul>
        <h3>What is not stored</h3>
        <ul>
          <li>
            Copies of your emails: a message is read, its order details are kept, the rest is not.
          </li>
          <li>Your password in readable form.</li>
          <li>Any tracking, analytics or advertising data: Grapevine has none.</li>
        </ul>
        <h3>AI help with reviews (optional)</h3>
        <ul>
          <li>
            Off unless you turn it on: nothing is ever sent to an AI server unless you pick an AI
            option (Grammar &amp; Spelling or Improve Writing) in Account Settings, Review Settings,
            and then press Enhance on a review.
          </li>
          <li>
            What is sent, each time you press Enhance: the product's name and the review subject
            and/or review text you are enhancing (the dialog lists which), with instructions drawn
            from your review settings (target length, tone mix, whether to write a subject).
          </li>
          <li>
            What is never sent: your name, email address, order numbers, ASINs, addresses, ratings,
            photos, videos, other reviews or anything from your mail.
          </li>
          <li>
            Where it goes: the AI server the administrator of this Grapevine configured. That may be
            a model running on the same machine (such as Ollama) or an outside service (such as
            OpenAI), whose own privacy terms then apply to what it receives.
          </li>
          <li>
            The suggestion is kept only if you accept it and save the order. Server logs record only
            sizes and timings of AI requests, never the words.
          </li>
        </ul>
        <h3>Security measures</h3>
        <ul>
          <li>
            Passwords are hashed with Argon2id; sign-in tokens are random and stored only hashed.
          </li>
          <li>
            Tokens end when you log out, and other devices are signed out when you change your
            password.
          </li>
          <li>Repeated failed sign-ins are slowed down.</li>
          <li>Mailbox credentials are encrypted at rest with a key kept on the server.</li>
          <li>Every order, review, photo and setting can be read only by its owner.</li>
        </ul>
      </section>

      <section>
        <h2>Alert channels (optional)</h2>
        <p>
          Nothing leaves this server as an alert unless you add a channel in Account Settings,
          Alerts, and choose which events it hears about. Each alert holds its title, a short
          message (for example "Review overdue"), the product's name, the order number and status,
          and a link back to the order on this server; never your mail, reviews, photos or password.
        </p>
        <ul>
          <li>
            <strong>ntfy:</strong> sent to the ntfy server you name (ntfy.sh unless you choose
            another), on the topic you choose. A topic on a public server without an access token or
            password is readable by anyone who knows or guesses its name: pick a long, random topic
            name, or protect the topic with a token or password.
          </li>
          <li>
            <strong>Webhooks (JSON, Discord, Slack):</strong> sent to the web address you enter, so
            to whoever runs it (Discord, Slack, or your own service) and everyone who can read the
            channel it posts in.
          </li>
          <li>
            <strong>Web Push:</strong> sent through your browser maker's push service (for example
            Google's for Chrome, Mozilla's for Firefox, Apple's for Safari), encrypted so that only
            your device can read it.
          </li>
          <li>
            The last 20 deliveries of each channel are kept on this server so you can see what was
            sent; removing a channel removes them and stops everything it would still send.
          </li>
        </ul>
      </section>

      <section>
        <h2>Email processing</h2>
        <ul>
          <li>
            <strong>Server-side filtering:</strong> the mail server itself is asked for messages
            from Amazon's domains only, so other mail is never downloaded.
          </li>
          <li>
            <strong>Local processing:</strong> messages are processed on this Grapevine server. Mail
            content is not sent to any outside service. If you use AI help for a review, only that
            review's subject, text and product name are sent to the AI server configured by the
            administrator (see "AI help with reviews" above).
          </li>
          <li>
            <strong>Real-time monitoring:</strong> while connected, Grapevine waits for new messages
            in the monitored folder (IMAP IDLE) and checks every few minutes when that is not
            possible.
          </li>
          <li>
            <strong>Carrier tracking:</strong> once a day, tracking numbers of shipped orders are
            sent to their carriers to learn whether they were delivered.
          </li>
        </ul>
      </section>

      <section>
        <h2>Your rights</h2>
        <ul>
          <li>
            <strong>Disconnect:</strong> disconnect your mailbox at any time in Account Settings;
            Grapevine stops reading it at once and forgets its credentials.
          </li>
          <li>
            <strong>Configure folders:</strong> choose which folder is monitored and what happens to
            processed messages.
          </li>
          <li>
            <strong>Export your data:</strong> download everything Grapevine keeps about you as a
            file from Account Settings, Profile, "Your data".
          </li>
          <li>
            <strong>Delete your account:</strong> in the same place; your account, orders, reviews,
            photos and settings are removed from the server.
          </li>
          <li>
            <strong>Revoke access:</strong> you can also withdraw Grapevine's access from your
            Google account's permissions page at any time.
          </li>
        </ul>
      </section>

      <section>
        <h2>Contact</h2>
        <p>
          This Grapevine is run by its administrator, not by the authors of the software. For
          questions about your data here, contact the person who runs this server. Questions about
          the software itself belong in its project's issue tracker.
        </p>
      </section>
    </main>
  );
}
