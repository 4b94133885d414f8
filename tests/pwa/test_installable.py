"""The club as an installable app: the manifest on every page, the service worker at the root, the
offline page. The browser test asks Chromium itself (DevTools' Page.getInstallabilityErrors)."""

from __future__ import annotations

import json
import re
import tempfile

import pytest

from tests.game.helpers import make_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "name"), [("ru", "Клуб «Дурак»"), ("en", "Durak Club")])
def test_the_manifest_names_the_club_in_the_visitors_language_with_every_icon(client, language, name):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=language)
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == name and manifest["lang"] == language
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    assert manifest["theme_color"] and manifest["background_color"] and manifest["short_name"]
    icons = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for src in icons.values():
        image = client.get(src)
        assert image.status_code == 200 and b"".join(image.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_page_links_the_manifest(client):
    client.force_login(make_player("Значок"))
    for url in ("/", "/help/", "/tables/", "/accounts/profile/", "/no-such-page/"):
        page = client.get(url).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, url
        assert "site/pwa.js" in page, url


def test_the_worker_is_served_at_the_root_and_never_from_the_http_cache(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    release = re.search(r'const RELEASE = "([0-9a-f]{16})"', script)
    assert release, "the script names its release"
    assert '"ru": "/offline/ru/"' in script and '"en": "/offline/en/"' in script


def test_the_offline_page_carries_nobody_s_data_and_sets_no_cookie(client):
    client.force_login(make_player("Невидимка"))
    for language, words in (("ru", "Нет связи…"), ("en", "No connection…")):
        response = client.get(f"/offline/{language}/")
        page = response.content.decode()
        assert words in page and "Невидимка" not in page and f'lang="{language}"' in page
        assert not response.cookies
    assert client.get("/offline/de/").status_code == 404


def installed_profile(browser, folder: str, base_url: str, player, locale: str):
    """A signed-in Chromium profile on disk: an incognito context (Playwright's usual) is never
    installable, so the installability check needs a persistent one. The site's CSP stays on."""
    from django.conf import settings
    from django.test import Client

    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    client = Client()
    client.force_login(player)
    context = browser.browser_type.launch_persistent_context(
        folder, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, locale=locale, base_url=base_url,
        viewport={"width": 1280, "height": 860})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base_url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    return context


def _wait_for_the_worker(page) -> None:
    """Until the worker controls the page (polled: the site's CSP, kept on here, forbids the string
    evaluation Playwright's wait_for_function uses)."""
    for _attempt in range(150):
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control of the page")


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_chromium_finds_the_club_installable_and_shows_the_offline_page_when_the_server_is_down(
        browser, transactional_db, django_db_blocker, screenshot_dir, locale):
    from tests.conftest import daphne_server

    player = make_player("Установщик" if locale == "ru-RU" else "Installer")
    profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)  # removed after the browser closed
    with daphne_server(django_db_blocker) as host:
        base = f"http://{host}"
        context = installed_profile(browser, profile.name, base, player, locale)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/", wait_until="load")
        _wait_for_the_worker(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"], manifest
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r && r.scope)")
        assert scope == f"{base}/"
        page.goto("/tables/", wait_until="load")  # a page seen online: its text is never kept
        page.wait_for_timeout(300)  # the page's language reaches the worker
        kept = page.evaluate("""async () => {
            const out = [];
            for (const name of await caches.keys()) {
                for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname);
            }
            return out.sort();
        }""")
        # no page seen, no script or style under an unhashed name (tests serve static files unhashed)
        assert kept == ["/__club/lang", "/offline/en/", "/offline/ru/"], kept
    # the server process is gone now: a navigation fails, and the worker answers
    page.goto(f"{base}/tables/", wait_until="load")
    heading = page.get_by_role("heading", level=1)
    expected = "Нет связи…" if locale == "ru-RU" else "No connection…"
    assert heading.inner_text() == expected
    retry = page.get_by_role("link", name="Повторить" if locale == "ru-RU" else "Try again")
    assert retry.is_visible()
    assert "Установщик" not in page.content() and "Installer" not in page.content()
    page.screenshot(path=str(screenshot_dir / f"offline-{locale}.png"))
    retry.click()  # still down: the retry lands on the offline page again, not on a browser error
    page.wait_for_load_state("load")
    assert page.get_by_role("heading", level=1).inner_text() == expected
    context.close()
    profile.cleanup()
