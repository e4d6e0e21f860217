"""The preview matrix in headless Chromium (issue 24): a published look with its draft beside it (through a preview
token); at the largest Dynamic Type size (AX5) and in en-XA nothing is clipped or overlaps; right-to-left phones
are mirrored; every text's computed colour reaches the contrast the report claims against the background it is
drawn on (4.5:1, 7:1 in increased contrast, 3:1 for the icon glyphs); screenshots under test-output/preview/.
"""
import json
import os

from selenium.webdriver.common.by import By

from test_preview import OUT, TOKEN, browser, daemon, publish, ratio, request  # noqa: F401 (fixtures)

# Every element that draws text of its own, with its colour, the background under it and its box; the phone's box.
TEXTS = """
const phone = arguments[0];
const out = [];
for (const el of phone.querySelectorAll('*')) {
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== '');
  if (!own) continue;
  let bg = el, opacity = 1;
  for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
  while (bg && getComputedStyle(bg).backgroundColor.replace(/\\s/g, '') === 'rgba(0,0,0,0)') bg = bg.parentElement;
  const r = el.getBoundingClientRect();
  out.push({cls: el.className, role: el.dataset.role || '', color: getComputedStyle(el).color,
            background: bg ? getComputedStyle(bg).backgroundColor : 'rgb(255, 255, 255)', opacity,
            clipped: el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'inline',
            box: [r.left, r.top, r.right, r.bottom], text: el.textContent.trim().slice(0, 40)});
}
const p = phone.getBoundingClientRect();
return {texts: out, phone: [p.left, p.top, p.right, p.bottom]};
"""


def rgb(css):
    parts = css[css.index("(") + 1:css.index(")")].split(",")
    return tuple(int(float(x)) for x in parts[:3])


def overlaps(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def test_matrix(daemon, browser):
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    key = publish(daemon, {"accent": "#34C759", "appName": "Ledgerly", "topics": ["billing", "bug", "idea"]})
    status, _ = request(daemon, "PUT", f"/v1/apps/{key}/look/draft",
                        {"accent": {"light": "#FFD60A", "dark": "#5E5CE6"}, "appName": "Ledgerly", "topics": ["billing", "bug"],
                         "headerStyle": "person"}, dict(auth, **{"If-None-Match": "*"}))
    assert status == 201
    status, body = request(daemon, "POST", f"/v1/apps/{key}/look/draft/preview-tokens", {"ttlSeconds": 600}, auth)
    token = json.loads(body)["token"]

    browser.get_log("browser")
    browser.get(f"{daemon}/v1/preview/matrix?app={key}&preview={token}")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert token in browser.find_element(By.CSS_SELECTOR, '[data-role="chat-link"]').text
    phones = browser.find_elements(By.CSS_SELECTOR, '[data-role="phone"]')
    assert len(phones) == 50  # 25 conditions, published and draft side by side
    assert {p.get_attribute("data-look") for p in phones} == {"published", "draft"}
    os.makedirs(OUT, exist_ok=True)
    browser.set_window_size(1400, 1000)
    browser.save_screenshot(os.path.join(OUT, "matrix.png"))

    checked = 0
    for phone in phones:
        lang, size, cvd = phone.get_attribute("lang"), phone.get_attribute("data-text-size"), phone.get_attribute("data-cvd")
        found = browser.execute_script(TEXTS, phone)
        texts, frame = found["texts"], found["phone"]
        where = (phone.get_attribute("data-look"), lang, phone.get_attribute("data-appearance"), size, cvd)
        if size == "ax5" or lang == "en-XA":
            for t in texts:
                assert not t["clipped"], (where, t)
                box = t["box"]
                assert box[0] >= frame[0] - 1 and box[2] <= frame[2] + 1, ("outside the phone", where, t)
            leaves = [t for t in texts if t["cls"] not in ("attach", "send")]
            for i, a in enumerate(leaves):
                for b in leaves[i + 1:]:
                    inner = all(a["box"][k] <= b["box"][k] for k in (0, 1)) and all(a["box"][k] >= b["box"][k] for k in (2, 3))
                    outer = all(b["box"][k] <= a["box"][k] for k in (0, 1)) and all(b["box"][k] >= a["box"][k] for k in (2, 3))
                    assert inner or outer or not overlaps(a["box"], b["box"]), ("overlap", where, a, b)
        # Mirrored: the person's bubble on the trailing side (left in RTL, right in LTR).
        bubble = phone.find_element(By.CSS_SELECTOR, '[data-role="bubble-person"]').rect
        middle = phone.rect["x"] + phone.rect["width"] / 2
        if phone.get_attribute("dir") == "rtl":
            assert bubble["x"] + bubble["width"] / 2 < middle, where
        else:
            assert bubble["x"] + bubble["width"] / 2 > middle, where
        if cvd:
            continue  # simulated colours: the report's simulatedWcag, not a claim of the palette
        minimum = 7 if phone.get_attribute("data-contrast") == "increased" else 4.5
        for t in texts:
            assert t["opacity"] == 1, ("translucent text cannot be checked", where, t)
            needed = 3 if t["cls"] in ("attach", "send") else minimum
            assert ratio(rgb(t["color"]), rgb(t["background"])) >= needed, (where, t)
            checked += 1
    assert checked > 500
