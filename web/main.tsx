import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);

// The service worker shows Web Push alerts and makes the app installable; it caches nothing.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // no push on this browser; everything else works without it
    });
  });
}
