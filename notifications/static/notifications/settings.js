// The notification section of the profile: subscribe this device to Web Push after a tap (browsers
// ask for the permission only after one), or unsubscribe it. The switches are a plain form.
const box = document.querySelector("[data-push-settings]");
const enableBtn = box && box.querySelector("[data-push-enable]");
const disableBtn = box && box.querySelector("[data-push-disable]");
const state = box && box.querySelector("[data-push-state]");

const text = (name) => box.querySelector(`[data-push-text="${name}"]`).textContent;
const say = (name) => { state.textContent = text(name); };

function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

function keyBytes(base64url) {
  const padded = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return response.json().catch(() => ({ ok: false }));
}

function show(subscribed) {
  enableBtn.hidden = subscribed;
  disableBtn.hidden = !subscribed;
}

async function current() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

async function enable() {
  enableBtn.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { say("denied"); return; }
    const registration = await navigator.serviceWorker.ready;
    const subscription = (await registration.pushManager.getSubscription()) ||
      await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.publicKey) });
    const answer = await post(box.dataset.subscribeUrl, { ...subscription.toJSON(), lang: document.documentElement.lang });
    if (!answer.ok) { state.textContent = answer.message || text("failed"); return; }
    show(true);
    say("on");
  } catch (e) {
    say("failed");
  } finally {
    enableBtn.disabled = false;
  }
}

async function disable() {
  const subscription = await current();
  if (subscription) {
    await post(box.dataset.unsubscribeUrl, { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  show(false);
  say("off");
}

if (enableBtn) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    enableBtn.hidden = true;
    say("unsupported");
  } else {
    if (Notification.permission === "denied") say("denied");
    current().then((subscription) => show(!!subscription)).catch(() => {});
    enableBtn.addEventListener("click", enable);
    disableBtn.addEventListener("click", disable);
  }
}
