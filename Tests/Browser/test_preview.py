"""The dashboard's look preview in a real headless Chromium, against the running daemon (issue 7).

For en, ar, ja, ru and de, light and dark, a few increased-contrast phones (every pair at 7:1) and the
pseudo-locales en-XA and ar-XB: load /v1/preview, expect no console errors, check `dir`, read the
computed colours of the person's bubble (text on fill), the tint link on the background and the team bubble, and
check each pair against its WCAG threshold (4.5:1, or 7:1 in the increased-contrast palette) with the exact formula; save a PNG of each page under
test-output/preview/. Also: team-supplied text with markup renders as text, never as markup.
"""
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOOKD = os.environ.get("LOOKD_BIN", os.path.join(ROOT, ".build", "debug", "lookd"))
OUT = os.path.join(ROOT, "test-output", "preview")
TOKEN = "browser-test-admin-token-0123456789"


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(a, b):
    la, lb = sorted([luminance(a), luminance(b)])
    return (lb + 0.05) / (la + 0.05)


def parse_color(css):
    m = re.match(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)", css)
    assert m, f"unexpected colour {css!r}"
    assert m.group(4) in (None, "1"), f"translucent colour {css!r} cannot be checked"
    return tuple(int(m.group(i)) for i in (1, 2, 3))


@pytest.fixture(scope="module")
def daemon():
    data = tempfile.mkdtemp(prefix="lookd-browser-")
    env = dict(os.environ, LOOKD_ADMIN_TOKEN=TOKEN)
    proc = subprocess.Popen(
        [LOOKD, "serve", "--listen", "127.0.0.1:0", "--data", data, "--catalogs", os.path.join(ROOT, "Resources", "Localizations")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True)
    base = None
    deadline = time.time() + 30
    while time.time() < deadline and base is None:
        line = proc.stderr.readline()
        m = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line or "")
        if m:
            base = m.group(1)
        elif proc.poll() is not None:
            break
    assert base, "lookd serve did not start"
    yield base
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1000",
                 "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def request(base, method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.status, response.read()


def publish(base, layer):
    key = subprocess.run([LOOKD, "keygen", "--test"], capture_output=True, text=True, check=True).stdout.strip()
    status, _ = request(base, "PUT", f"/v1/apps/{key}/look", layer,
                        {"Authorization": f"Bearer {TOKEN}", "If-None-Match": "*", "Content-Type": "application/json"})
    assert status in (200, 201)
    return key


def computed(driver, element, prop):
    return parse_color(driver.execute_script(f"return getComputedStyle(arguments[0]).{prop}", element))


CASES = [(lang, appearance) for lang in ["en", "ar", "ja", "ru", "de"] for appearance in ["light", "dark"]] + [
    # The increased-contrast palette (appearance=increased-…): every pair at 7:1.
    ("en", "increased-light"), ("en", "increased-dark"), ("ar", "increased-light"), ("ja", "increased-dark"),
    # The pseudo-locales: en-XA left to right and longer, ar-XB right to left and mirrored.
    ("en-XA", "light"), ("ar-XB", "dark"), ("ar-XB", "increased-light"),
]


@pytest.mark.parametrize("lang,appearance", CASES)
def test_preview_meets_contrast_and_direction(daemon, browser, lang, appearance):
    # A yellow light accent and a pale dark one force both kinds of adjustment; a Latin app name inside RTL text.
    key = publish(daemon, {"accent": {"light": "#FFD60A", "dark": "#5E5CE6"}, "appName": "Ledgerly",
                           "topics": ["billing", "bug", "idea"], "headerStyle": "team"})
    os.makedirs(OUT, exist_ok=True)
    browser.get_log("browser")  # drop earlier entries
    browser.get(f"{daemon}/v1/preview?app={key}&lang={lang}&appearance={appearance}")
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors
    expected_dir = "rtl" if lang in ("ar", "ar-XB") else "ltr"
    minimum = 7 if appearance.startswith("increased-") else 4.5
    assert browser.execute_script("return document.documentElement.dir") == expected_dir
    assert browser.execute_script("return document.documentElement.lang") == lang

    phone = browser.find_element(By.CSS_SELECTOR, f'[data-role="phone"][data-appearance="{appearance}"]')
    background = computed(browser, phone, "backgroundColor")
    assert background == ((255, 255, 255) if appearance.endswith("light") else (0, 0, 0))
    for bubble in phone.find_elements(By.CSS_SELECTOR, '[data-role="bubble-person"], [data-role="bubble-person-photo"]'):
        text, fill = computed(browser, bubble, "color"), computed(browser, bubble, "backgroundColor")
        assert ratio(text, fill) >= minimum, (lang, appearance, text, fill)
    team = phone.find_element(By.CSS_SELECTOR, '[data-role="bubble-team"]')
    assert ratio(computed(browser, team, "color"), computed(browser, team, "backgroundColor")) >= minimum
    link = phone.find_element(By.CSS_SELECTOR, '[data-role="tint-link"]')
    assert ratio(computed(browser, link, "color"), background) >= minimum
    for chip in phone.find_elements(By.CSS_SELECTOR, '[data-role="topic"]'):
        assert ratio(computed(browser, chip, "color"), background) >= minimum
    assert ratio(computed(browser, phone, "color"), background) >= minimum
    # The person's bubbles sit on the trailing side in both directions.
    thread = phone.find_element(By.CSS_SELECTOR, '[data-role="thread"]').rect
    person = phone.find_element(By.CSS_SELECTOR, '[data-role="bubble-person"]').rect
    team_rect = team.rect
    if expected_dir == "ltr":
        assert person["x"] + person["width"] > thread["x"] + thread["width"] - 2 and team_rect["x"] < thread["x"] + 2
    else:
        assert person["x"] < thread["x"] + 2 and team_rect["x"] + team_rect["width"] > thread["x"] + thread["width"] - 2
    browser.save_screenshot(os.path.join(OUT, f"preview-{lang}-{appearance}.png"))


def test_team_text_is_escaped(daemon, browser):
    name = "<script>alert(1)</script>"
    label = '"><img src=x onerror=alert(2)>'
    key = publish(daemon, {"appName": name, "headerStyle": "app",
                           "topics": [{"id": "x", "label": label, "prefill": label}]})
    browser.get(f"{daemon}/v1/preview?app={key}&lang=en&appearance=light")
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    assert browser.find_elements(By.TAG_NAME, "script") == []
    assert browser.find_elements(By.TAG_NAME, "img") == []
    header = browser.find_element(By.CSS_SELECTOR, '[data-role="header"] .title').text
    assert header == name
    topic = browser.find_element(By.CSS_SELECTOR, '[data-role="topic"]').text
    assert topic == label


def test_draft_preview_shows_the_chat_link(daemon, browser):
    """The plain preview page given a preview token (issue 24): the draft itself (square corners, 6 pt, where the
    published look is soft, 12 pt), its phones marked as the draft, and the chat link readable in full."""
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    key = publish(daemon, {"corners": "soft", "appName": "Ledgerly"})
    status, _ = request(daemon, "PUT", f"/v1/apps/{key}/look/draft", {"corners": "square", "appName": "Ledgerly"},
                        dict(auth, **{"If-None-Match": "*"}))
    assert status == 201
    status, body = request(daemon, "POST", f"/v1/apps/{key}/look/draft/preview-tokens", {"ttlSeconds": 600}, auth)
    assert status == 201
    token = json.loads(body)["token"]

    browser.get_log("browser")
    browser.get(f"{daemon}/v1/preview?app={key}&lang=ar&appearance=light&preview={token}")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    link = browser.find_element(By.CSS_SELECTOR, '[data-role="chat-link"]')
    assert link.is_displayed()
    assert link.find_element(By.TAG_NAME, "code").text == f"?pingfront=chat&preview={token}"
    # Readable in full in a right-to-left page: the link itself is left to right and nothing is cut off.
    assert browser.execute_script("return getComputedStyle(arguments[0]).direction", link) == "ltr"
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", link)
    phones = browser.find_elements(By.CSS_SELECTOR, '[data-role="phone"]')
    assert [p.get_attribute("data-look") for p in phones] == ["draft"]
    bubble = browser.find_element(By.CSS_SELECTOR, '[data-role="bubble-team"]')
    assert browser.execute_script("return getComputedStyle(arguments[0]).borderTopLeftRadius", bubble) == "6px"
    os.makedirs(OUT, exist_ok=True)
    browser.save_screenshot(os.path.join(OUT, "preview-draft-chat-link.png"))

    browser.get(f"{daemon}/v1/preview?app={key}&lang=ar&appearance=light")
    assert browser.find_elements(By.CSS_SELECTOR, '[data-role="chat-link"]') == []
    bubble = browser.find_element(By.CSS_SELECTOR, '[data-role="bubble-team"]')
    assert browser.execute_script("return getComputedStyle(arguments[0]).borderTopLeftRadius", bubble) == "12px"
