// The club's service worker (durak_site/pwa.py). Pages always come from the server: a page, an API
// answer or anything else that may carry a player's data is never cached. Kept: the static files
// whose names carry a content hash (a name never changes meaning), and the offline pages shown
// when a navigation cannot reach the server. A new release is a new script: it takes over at once
// and deletes the old release's cache.
const RELEASE = "{{ release }}";
const STATIC_PREFIX = "{{ static_url }}";
const OFFLINE = {{ offline|safe }};
const DEFAULT_LANG = "{{ default_lang }}";
const CACHE = `club-${RELEASE}`;
const META = "club-meta"; // the page's language, for the offline page (kept across releases)
const LANG_KEY = "/__club/lang";
const ICON = "{{ icon }}";
const HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/; // collectstatic's name.<hash>.ext

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(Object.values(OFFLINE).map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("club-") && key !== CACHE && key !== META) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const lang = event.data && event.data.lang;
  if (typeof lang === "string" && lang in OFFLINE) {
    event.waitUntil(caches.open(META).then((cache) => cache.put(LANG_KEY, new Response(lang))));
  }
});

async function offlinePage() {
  let lang = DEFAULT_LANG;
  try {
    const saved = await (await caches.open(META)).match(LANG_KEY);
    if (saved) lang = await saved.text();
  } catch (e) { /* the default language */ }
  const cache = await caches.open(CACHE);
  return (await cache.match(OFFLINE[lang] || OFFLINE[DEFAULT_LANG], { ignoreVary: true })) ||
    new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function hashedAsset(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX) && HASHED.test(url.pathname) && !url.search) {
    event.respondWith(hashedAsset(request));
  }
  // anything else goes to the network as if there were no worker
});

// Web Push (notifications/delivery.py): the server's message, already worded in the device's
// language; its tag is the push topic, so the next «Ваш ход» of a game replaces the last one.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  if (!data.title) return;
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body || "", tag: data.tag || undefined, renotify: !!data.tag, icon: ICON, badge: ICON,
    data: { url: data.url || "/" }, vibrate: data.vibrate ? [120, 60, 120] : undefined,
  }));
});

// A tap opens the right page: an open tab of it if there is one, else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname === target.pathname && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target.href);
  })());
});
