// The installable app's page side: register the service worker (its scope is the whole site) and
// tell it the page's language, so the offline page it may show later speaks it.
if ("serviceWorker" in navigator && window.isSecureContext) {
  const lang = document.documentElement.lang || "ru";
  navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => { if (registration.active) registration.active.postMessage({ lang }); })
    .catch(() => { /* no worker: the site works as a plain website */ });
}
