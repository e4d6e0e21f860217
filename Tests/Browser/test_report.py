"""The accessibility report's HTML in headless Chromium (issue 24): for a look whose light accent needs deepening
and whose dark accent is a red/green-only distinction, the page lists every pair of the JSON report (same palette,
role, colours, WCAG ratio, level and APCA Lc), draws each sample in the pair's own colours, lists the adjustments
and every colour-vision row with the JSON's distances and warnings, and is readable: nothing clipped or wider than
the window, no text under 12 px, and the page's own texts at 4.5:1 or more against what they are drawn on
(computed colours, the WCAG formula here). Screenshot under test-output/preview/.
"""
import json
import math
import os

from selenium.webdriver.common.by import By

from test_preview import OUT, browser, daemon, publish, ratio, request  # noqa: F401 (fixtures)
from test_matrix import TEXTS, rgb


def number(text):
    """The number at the start of a cell ("4.567:1", "-68.54 contentText")."""
    return float(text.split(":")[0].split()[0])


def cut(value, places):
    scale = 10 ** places
    return math.trunc(value * scale) / scale


def hex_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def test_report_html_is_readable_and_matches_the_json(daemon, browser):
    key = publish(daemon, {"accent": {"light": "#FFD60A", "dark": "#8B0000"}})
    status, body = request(daemon, "GET", f"/v1/apps/{key}/look/report")
    assert status == 200
    report = json.loads(body)
    assert report["draft"] is False and len(report["pairs"]) == 20

    browser.set_window_size(1280, 1000)
    browser.get_log("browser")
    browser.get(f"{daemon}/v1/apps/{key}/look/report?format=html")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []

    rows = browser.find_elements(By.CSS_SELECTOR, '[data-role="pair"]')
    assert len(rows) == len(report["pairs"])
    for pair, row in zip(report["pairs"], rows):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        where = (pair["appearance"], pair["role"])
        assert row.get_attribute("data-appearance") == pair["appearance"] and row.get_attribute("data-pair-role") == pair["role"], where
        assert cells[0] == pair["appearance"] and cells[1] == pair["role"], where
        assert cells[3] == f'{pair["foreground"]} on {pair["background"]}', where
        # The ratio as the JSON has it, and never above the real one (the formula here, on the pair's colours).
        shown = number(cells[4])
        assert shown == pair["wcag"], (where, cells[4])
        real = ratio(hex_rgb(pair["foreground"]), hex_rgb(pair["background"]))
        assert shown <= real < shown + 0.001, (where, shown, real)
        assert cells[5] == pair["level"], where
        assert number(cells[6]) == pair["minimumRatio"] and cells[6].endswith("✓" if pair["passes"] else "✗"), where
        assert number(cells[7]) == pair["apcaLc"] and cells[7].split()[1] == pair["apcaUse"], where
        if pair["adjustment"]:
            a = pair["adjustment"]
            assert f'{a["original"]} → {a["adjusted"]}' in cells[8], where
            assert f'{a["ratioBefore"]:g} → {a["ratioAfter"]:g}:1' in cells[8], where
        else:
            assert cells[8] == "—", where
        # The sample is drawn in the pair's own colours.
        sample = row.find_element(By.CSS_SELECTOR, '[data-role="sample"]')
        color = browser.execute_script("return getComputedStyle(arguments[0]).color", sample)
        background = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", sample)
        assert rgb(color) == hex_rgb(pair["foreground"]) and rgb(background) == hex_rgb(pair["background"]), where
    assert sum(1 for p in report["pairs"] if p["adjustment"]) >= 2, "the yellow light accent is adjusted"

    cvd_rows = browser.find_elements(By.CSS_SELECTOR, '[data-role="cvd-row"]')
    expected = [(name, entry) for name in ("protanopia", "deuteranopia", "tritanopia") for entry in report["cvd"][name]["appearances"]]
    assert len(cvd_rows) == len(expected) == 12
    for (name, entry), row in zip(expected, cvd_rows):
        where = (name, entry["appearance"])
        assert row.get_attribute("data-deficiency") == name and row.get_attribute("data-appearance") == entry["appearance"], where
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        bubbles, tint = entry["bubbles"], entry["tintOnBackground"]
        assert cells[2].split() == bubbles["simulated"], where
        assert [float(x) for x in cells[3].replace("⚠", "").split("→")] == [bubbles["deltaEOK"], bubbles["simulatedDeltaEOK"]], where
        assert [float(x) for x in cells[5].replace("⚠", "").split("→")] == [tint["deltaEOK"], tint["simulatedDeltaEOK"]], where
        assert number(cells[6]) == tint["simulatedWcag"], where
        link = row.find_element(By.CSS_SELECTOR, ".sample")
        assert rgb(browser.execute_script("return getComputedStyle(arguments[0]).color", link)) == hex_rgb(tint["simulated"][0]), where
        assert rgb(browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", link)) == hex_rgb(tint["simulated"][1]), where
        assert cut(ratio(hex_rgb(tint["simulated"][0]), hex_rgb(tint["simulated"][1])), 3) == tint["simulatedWcag"], where
        assert row.get_attribute("data-lost") == ("true" if bubbles["lost"] or tint["lost"] else "false"), where
    warnings = [li.get_attribute("data-code") for li in browser.find_elements(By.CSS_SELECTOR, '[data-role="warnings"] li')]
    assert sorted(warnings) == sorted(w["code"] for w in report["summary"]["warnings"])
    assert "red_green_only" in warnings  # dark red against the dark team bubble (#262628) for a protanope

    # Readable: nothing clipped, nothing wider than the window, no tiny text, the page's own texts at 4.5:1.
    found = browser.execute_script(TEXTS, browser.find_element(By.TAG_NAME, "body"))
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    for t in found["texts"]:
        assert not t["clipped"], t
        assert t["opacity"] == 1, t
        if t["cls"] == "sample":
            continue  # a pair's own (or simulated) colours, checked against the JSON above
        assert ratio(rgb(t["color"]), rgb(t["background"])) >= 4.5, t
    assert browser.execute_script(
        "return [...document.querySelectorAll('body *')].filter(e => e.textContent.trim() && parseFloat(getComputedStyle(e).fontSize) < 12).length") == 0
    os.makedirs(OUT, exist_ok=True)
    browser.save_screenshot(os.path.join(OUT, "report.png"))
