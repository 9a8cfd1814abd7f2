#!/usr/bin/env python3
"""The auditor's console in a real browser (run by tools/console-check, which prepares the ledger).

Drives Debian's Chromium with Selenium through each step issue 21 names: sign in (a wrong key and
an ingest key refused), the log at a glance, a subject's timeline in order, the as-of control on
both clocks, an inclusion proof checked in the browser ("Verified"), the same proof with altered
bytes ("Failed"), the dossier download equal to the CLI's bytes, another log unreachable, and
sign-out ending the session on the server, and an admin finding those reads in the record of who
looked at the subject's data. A full-page screenshot of each page is written.
Exit 0 and "OK" when every step holds; 1 and "FAILED: <step>: <what>" at the first that does not.
"""
import argparse, base64, json, pathlib, re, sys, time, traceback, urllib.parse, urllib.request, uuid

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

COOKIE = "consent_ledger_console"

class Failed(Exception):
    pass

def check(ok, what):
    if not ok:
        raise Failed(what)

def main():
    parser = argparse.ArgumentParser()
    for name in ("base", "log", "head", "subject", "auditor", "ingest", "admin", "other-log", "other-auditor", "dossier", "register",
                 "regulator", "jurisdiction", "from", "to", "screenshots",
                 "large-log", "large-auditor", "large-events", "large-entries"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1366,900", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    step = "starting"
    try:
        run(driver, args, lambda name: set_step(name))
    except (Failed, WebDriverException, AssertionError) as error:
        message = str(error).split("\nStacktrace:")[0].strip()  # WebDriver's own message, without chromedriver's frames
        where = traceback.extract_tb(error.__traceback__)
        line = next((f"console_check.py line {f.lineno}: {f.line}" for f in reversed(where) if f.filename == __file__), "")
        print(f"console-check: FAILED: {CURRENT[0]}: {type(error).__name__}: {message}\n  at {line}")
        shoot(driver, pathlib.Path(args.screenshots), "failure")
        return 1
    finally:
        driver.quit()
    print("console-check: OK: signed in, read the log and a subject on both clocks, verified a proof in the browser and "
          "caught its altered bytes, downloaded the CLI's dossier bytes, was refused what the key may not see, signed out; "
          f"an admin found those reads in the record of who looked; every page's {CHECKED['texts']} texts meet WCAG 2.1 AA contrast")
    return 0

CURRENT = ["starting"]

def set_step(name):
    CURRENT[0] = name
    print(f"console-check: {name}")

def shoot(driver, folder, name):
    """A full-page PNG of the current page."""
    try:
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        (folder / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))
    except Exception as error:  # a screenshot must never hide the result
        print(f"console-check: (no screenshot {name}: {error})")

def accessible(driver, page):
    """What a page must have for assistive technology and the keyboard: one h1, a main landmark, a
    label for every field, a name for every button and link, a title for every chart, and no
    positive tabindex (which would break the natural tab order)."""
    problems = driver.execute_script("""
        const out = [];
        if (document.querySelectorAll("h1").length !== 1) out.push("not exactly one h1");
        if (!document.querySelector("main")) out.push("no main landmark");
        if (!document.documentElement.lang) out.push("no lang on html");
        for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
          const labelled = (field.id && document.querySelector(`label[for="${field.id}"]`)) || field.closest("label")
                           || field.getAttribute("aria-label") || field.getAttribute("aria-labelledby");
          if (!labelled) out.push(`a field without a label: ${field.outerHTML.slice(0, 80)}`);
        }
        for (const control of document.querySelectorAll("button, a[href]")) {
          if (!control.textContent.trim() && !control.getAttribute("aria-label")) out.push(`a control without a name: ${control.outerHTML.slice(0, 80)}`);
        }
        for (const chart of document.querySelectorAll("svg")) {
          if (chart.getAttribute("role") !== "img" || !chart.querySelector("title")) out.push("a chart without role=img and a title");
        }
        for (const element of document.querySelectorAll("[tabindex]")) {
          if (Number(element.getAttribute("tabindex")) > 0) out.push("a positive tabindex");
        }
        return out;""")
    check(not problems, f"{page} is not accessible: {problems[:3]}")
    low = driver.execute_script(CONTRAST)
    check(not low, f"{page} has text below WCAG 2.1 AA contrast: {low[:3]}")
    CHECKED["texts"] += driver.execute_script("return window.__contrastChecked || 0")

CHECKED = {"texts": 0}

# Known answers for the measurement below: #767676 on white is 4.54:1 (passes), #777 4.48:1
# (fails); white on #005a9c passes, #3377aa on it fails; 45% black on white is 3.4:1 (fails as
# body text, passes at 24 px); a chart's #bbb text fails.
CONTRAST_PROBE = """<html lang=en><body><main><h1 style='color:#767676'>grey passes</h1><p style='color:#777'>low grey</p>
<div style='background:#005a9c'><span style='color:#fff'>white on blue</span> <span style='color:#3377aa'>blue on blue</span></div>
<p style='color:rgba(0,0,0,.45)'>translucent</p><p style='color:rgba(0,0,0,.45);font-size:24px'>translucent large</p>
<svg role=img><title>t</title><text x=5 y=15 fill='#bbb'>svg low</text></svg></main></body></html>"""
CONTRAST_PROBE_FAILS = ["low grey", "blue on blue", "translucent", "svg low"]

# WCAG 2.1 AA contrast (1.4.3), measured on what the browser renders: every visible element that
# holds text (and every chart's <text>) has its computed colour weighed against the first opaque
# background behind it, blending translucent layers on the way: 4.5:1, or 3:1 for large text
# (24 px, or 18.67 px bold). Text over a background image cannot be measured this way and is
# reported as such. Returns the failures, each with its ratio and colours.
CONTRAST = """
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => { const v = c.slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const background = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.backgroundImage && style.backgroundImage !== "none") return "image";
      const c = parse(style.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let result = [255, 255, 255, 1];  // the canvas
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const out = []; let checked = 0;
  for (const element of document.querySelectorAll("body *")) {
    const svgText = element instanceof SVGElement;
    if (svgText && element.tagName.toLowerCase() !== "text") continue;
    if (!svgText && ![...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    if (style.visibility === "hidden" || style.display === "none" || box.width === 0 || box.height === 0) continue;
    if (element.closest(".skip") && box.right <= 0) continue;  // the skip link, off screen until focused
    const behind = background(svgText ? element.closest("svg") : element);
    const name = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + (element.className && typeof element.className === "string" ? "." + element.className.split(" ")[0] : "");
    if (behind === "image") { out.push(`${name}: text over a background image`); continue; }
    let color = parse(svgText ? style.fill : style.color);
    if (!color) { out.push(`${name}: colour ${style.color} not measurable`); continue; }
    color = over([color[0], color[1], color[2], color[3] * Number(style.opacity)], behind);
    const [a, b] = [lum(color), lum(behind)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    checked += 1;
    if (ratio < needed) out.push(`${name} "${element.textContent.trim().slice(0, 30)}": ${ratio.toFixed(2)}:1 < ${needed}:1 (${svgText ? style.fill : style.color} on rgb(${behind.slice(0, 3).map(Math.round)}))`);
  }
  window.__contrastChecked = checked;
  return out;"""

def fetch(driver, url):
    """(status, bytes) of a GET from the page, with its cookies (same origin)."""
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {credentials: "same-origin"}).then(async (r) => {
          const bytes = new Uint8Array(await r.arrayBuffer());
          let text = ""; for (const b of bytes) text += String.fromCharCode(b);
          done([r.status, btoa(text)]);
        }).catch((e) => done([0, btoa(String(e))]));""", url)
    return result[0], base64.b64decode(result[1])

def sign_in(driver, base, key):
    driver.get(base + "/console")
    field = driver.find_element(By.ID, "key")
    field.clear()
    field.send_keys(key)
    field.submit()

def answered(driver, element_id):
    """The element `element_id` of the page a form's submission brings, once it has come (a submit
    returns before the answer arrives on a busy machine); [] when the page came without it."""
    try:
        PageWait(driver, 30).until(
            lambda d: d.find_elements(By.ID, element_id) or (d.find_elements(By.TAG_NAME, "h1") and heading(d) != "Sign in"))
    except WebDriverException:
        pass
    return driver.find_elements(By.ID, element_id)

class PageWait(WebDriverWait):
    """A wait that tries again when the page it reads is replaced by the next one between finding an
    element and reading it: Selenium then raises a stale reference, or Chromium's "Node with given id
    does not belong to the document" (an unknown error). Any other error stops the wait."""

    REPLACED = "does not belong to the document"

    def until(self, method, message=""):
        def settled(driver):
            try:
                return method(driver)
            except StaleElementReferenceException:
                return False
            except WebDriverException as error:
                if self.REPLACED in str(error):
                    return False
                raise
        return super().until(settled, message)

def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text

def run(driver, args, step):
    base, log, subject = args.base, args.log, args.subject
    shots = pathlib.Path(args.screenshots)
    # A page being replaced by the next one can drop an element between finding and reading it:
    # waits try again then.
    wait = PageWait(driver, 30)
    dossier = json.loads(pathlib.Path(args.dossier).read_bytes())
    steps = dossier["steps"]

    step("0. the contrast measurement catches what it must: a page of known passes and failures")
    driver.get("data:text/html;charset=utf-8," + urllib.parse.quote(CONTRAST_PROBE))
    found = sorted(line.split('"')[1] for line in driver.execute_script(CONTRAST))
    check(found == sorted(CONTRAST_PROBE_FAILS),
          f"the contrast measurement found {found}, not {sorted(CONTRAST_PROBE_FAILS)}")

    step("1. the sign-in page; a wrong key and an ingest key are refused and get no session")
    driver.get(base + "/console")
    check(heading(driver) == "Sign in", f"the first page is {heading(driver)!r}, not the sign-in page")
    shoot(driver, shots, "01-sign-in")
    accessible(driver, "the sign-in page")
    sign_in(driver, base, "cl_aaaaaaaaaaaa_not-a-real-secret")
    problem = answered(driver, "sign-in-problem")
    check(problem and "not accepted" in problem[0].text, "a wrong key was not refused with a message")
    check(driver.get_cookie(COOKIE) is None, "a wrong key got a session cookie")
    shoot(driver, shots, "02-wrong-key")
    sign_in(driver, base, args.ingest)
    problem = answered(driver, "sign-in-problem")
    check(problem and "cannot open the console" in problem[0].text, "an ingest key was not refused")
    check(driver.get_cookie(COOKIE) is None, "an ingest key got a session cookie")

    step("2. the auditor's key opens a session (HttpOnly, SameSite=Strict) and the log at a glance")
    sign_in(driver, base, args.auditor)
    wait.until(lambda d: d.current_url.endswith(f"/console/logs/{log}"))
    cookie = driver.get_cookie(COOKIE)
    check(cookie is not None and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
          f"the session cookie is not HttpOnly and SameSite=Strict: {cookie}")
    check(args.auditor not in json.dumps(driver.get_cookies()), "the API key itself is in a cookie")
    stored = driver.execute_script("return JSON.stringify(Object.assign({}, localStorage, sessionStorage))")
    check(args.auditor not in stored, "the API key is in the browser's storage")
    check(driver.find_element(By.ID, "head-position").text == args.head,
          f"the head shown is {driver.find_element(By.ID, 'head-position').text}, not {args.head}")
    check(driver.find_elements(By.CSS_SELECTOR, "figure#events-per-day svg"), "no events-per-day chart")
    # Issue 39 item 4: both clocks, each named; the demo log was recorded at once, so the device's
    # clock spreads the same events over more days, and a sentence says why.
    check(driver.find_elements(By.CSS_SELECTOR, "figure#events-per-day-occurred svg"), "no chart of events by the device's clock")
    captions = [f.text for f in driver.find_elements(By.CSS_SELECTOR, "figure.chart figcaption")]
    check(any("recordedAt" in c for c in captions) and any("occurredAt" in c for c in captions),
          f"the charts do not name their clocks: {captions}")
    recorded_bars = len(driver.find_elements(By.CSS_SELECTOR, "figure#events-per-day svg rect"))
    occurred_bars = len(driver.find_elements(By.CSS_SELECTOR, "figure#events-per-day-occurred svg rect"))
    check(occurred_bars > recorded_bars, f"the device's clock shows {occurred_bars} bars, the ledger's {recorded_bars}: the demo was recorded at once")
    check("all at once" in driver.find_element(By.ID, "clocks-note").text, "no sentence says why the two clocks differ")
    check(driver.find_elements(By.ID, "log-public-key"), "the newest checkpoint is not shown")
    shoot(driver, shots, "03-overview")
    accessible(driver, "the overview")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    check("skip" in (focused.get_attribute("class") or ""), "the first Tab does not reach the skip link")

    step("2a. verify now: the progress streams in, the result passes, and the overview then shows it as the last verification")
    before = driver.find_element(By.ID, "last-verification").text
    check(before.startswith("No verification"), f"the log was verified before the check: {before}")
    marker = driver.execute_script("window.__sameDocument = true; return window.__sameDocument")
    driver.find_element(By.CSS_SELECTOR, "#verify-form button").click()
    result = driver.find_element(By.ID, "verify-result")
    wait.until(lambda d: result.get_attribute("class") in ("verified", "failed"))
    check(result.get_attribute("class") == "verified" and result.text.startswith("Passed"), f"the verification did not pass: {result.text}")
    # Issue 39 item 5: the sentence on the last verification is replaced by the new one, no reload.
    wait.until(lambda d: "passed" in d.find_element(By.ID, "last-verification").text)
    last = driver.find_element(By.ID, "last-verification").text
    check(marker and driver.execute_script("return window.__sameDocument === true"), "the page was reloaded")
    check(args.auditor.split("_")[1] in last and "No verification" not in last, f"the last verification was not refreshed in place: {last}")
    shoot(driver, shots, "03a-verified")
    driver.get(f"{base}/console/logs/{log}")
    last = driver.find_element(By.ID, "last-verification").text
    check("passed" in last and args.auditor.split("_")[1] in last, f"the overview does not show this verification as the last: {last}")

    step("2b. violations and anomalies, each linked to its evidence, which the browser proves")
    driver.get(f"{base}/console/logs/{log}/findings")
    findings = driver.find_elements(By.CSS_SELECTOR, "#findings li.finding")
    check(findings, "the log's findings page lists none, though the simulated history has some")
    evidence = findings[0].find_elements(By.XPATH, ".//p[starts-with(., 'Evidence:')]/a")[-1]
    position = evidence.text.split()[-1]
    shoot(driver, shots, "03b-findings")
    accessible(driver, "the findings page")
    evidence.click()
    wait.until(lambda d: heading(d).startswith(f"Position {position} "))
    driver.find_element(By.CSS_SELECTOR, "button.check-proof").click()
    output = driver.find_element(By.CSS_SELECTOR, ".proof-result")
    wait.until(lambda d: "verified" in output.get_attribute("class") or "failed" in output.get_attribute("class"))
    check(output.text.startswith("Verified"), f"the evidence at position {position} was not verified: {output.text}")
    shoot(driver, shots, "03c-evidence-event")
    accessible(driver, "an event page")

    step("2c. an event found by its event id says what the dossier says of it")
    # An age declaration if there is one: its sentence rests on the ledger's derived facts too.
    pick = next((s for s in steps if s["type"] == "AgeRangeShared"), steps[1])
    driver.get(f"{base}/console/logs/{log}")
    driver.find_element(By.ID, "eventId").send_keys(pick["eventId"])
    driver.find_element(By.ID, "eventId").submit()
    wait.until(lambda d: heading(d).startswith(f"Position {pick['position']} "))
    check(driver.find_element(By.ID, "sentence").get_attribute("data-said") == pick["sentence"],
          f"the event's sentence {driver.find_element(By.ID, 'sentence').get_attribute('data-said')!r} is not the dossier's {pick['sentence']!r}")
    driver.get(f"{base}/console/logs/{log}")

    step("3. a subject found by pseudonym: the timeline holds every event of the CLI's dossier, in log order")
    driver.find_element(By.ID, "pseudonym").send_keys(subject)
    driver.find_element(By.ID, "pseudonym").submit()
    wait.until(lambda d: d.find_elements(By.ID, "timeline"))
    positions = [int(li.get_attribute("data-position")) for li in driver.find_elements(By.CSS_SELECTOR, "li.event")]
    check(positions == [s["position"] for s in steps], f"the timeline's positions {positions} are not the dossier's")
    check(positions == sorted(positions) and len(set(positions)) == len(positions), "the timeline is not in log order")
    check(len(positions) >= 3, f"the subject has {len(positions)} events; the test needs at least 3")
    # Each sentence is the dossier's (kept in data-said), its keys printed in words.
    sentences = [p.get_attribute("data-said") for p in driver.find_elements(By.CSS_SELECTOR, "li.event p.sentence")]
    check(sentences == [s["sentence"] for s in steps], "the timeline's sentences are not the dossier's")
    shown = " ".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, "li.event p.sentence"))
    check(not re.search(r"\b[a-z]{2,}[A-Z][a-z]+[A-Z]|\b[A-Z]{2,}_[A-Z]+", shown), f"the timeline's sentences show raw keys: "
          f"{re.findall(r'[a-z]{2,}[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z]{2,}_[A-Z_]+', shown)[:3]}")
    head_state = driver.find_element(By.ID, "current-state").text
    # Issue 39 items 1 and 7: the state in sections with words, not a JSON tree; the JSON collapsed.
    for part in ("age", "signals", "features", "consents", "findings", "app-facts"):
        check(driver.find_elements(By.ID, f"state-{part}"), f"the subject's state has no {part} section")
    raw = driver.find_element(By.ID, "state-json")
    check(raw.tag_name == "details" and raw.get_attribute("open") is None, "the raw JSON is not a collapsed details element")
    check(not re.search(r"\b(under13|13to15|16to17|18toMajority)\b|\b[A-Z]+_[A-Z_]+\b", head_state),
          f"the state shows raw keys: {re.findall(r'under13|13to15|16to17|18toMajority|[A-Z]+_[A-Z_]+', head_state)[:3]}")
    titles = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "li.event h3")]
    check(not any(re.search(r"[a-z][A-Z]", t.split("·")[-1]) for t in titles), f"event types are not in words: {titles[:2]}")
    shoot(driver, shots, "04-subject")
    accessible(driver, "the subject page")

    step("3b. a subject found by the start of the pseudonym; a mistyped one gets a page with the near matches")
    driver.get(f"{base}/console/logs/{log}")
    driver.find_element(By.ID, "pseudonym").send_keys(subject[:3])
    driver.find_element(By.ID, "pseudonym").submit()
    wait.until(lambda d: d.find_elements(By.ID, "subject-matches") or d.find_elements(By.ID, "timeline"))
    if driver.find_elements(By.ID, "subject-matches"):
        links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#subject-matches tbody a code")]
        check(links and all(t.startswith(subject[:3]) for t in links), f"the matches of {subject[:3]} are {links[:3]}")
        shoot(driver, shots, "04a-subject-search")
        accessible(driver, "the subject search")
    driver.get(f"{base}/console/logs/{log}")
    driver.find_element(By.ID, "pseudonym").send_keys(subject[:-1])
    driver.find_element(By.ID, "pseudonym").submit()
    wait.until(lambda d: d.find_elements(By.ID, "timeline"))
    check(driver.current_url.endswith(f"/subjects/{subject}"), "the one subject starting with the text typed was not opened")
    typo = subject[:-3] + "zzz"
    driver.get(f"{base}/console/logs/{log}/subjects/{typo}")
    check(heading(driver) == "Subject not found", f"a mistyped pseudonym shows {heading(driver)!r}")
    page_text = driver.find_element(By.TAG_NAME, "main").text
    check(driver.find_elements(By.ID, "subject-not-found"), "the not-found page does not say the subject is not in the log")
    check("consent-ledger" not in page_text and "CLI" not in page_text and "--prefix" not in page_text,
          f"the not-found page tells a browser user to run a command: {page_text[:200]}")
    offered = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#subject-matches tbody a")]
    check(any(h.endswith(f"/subjects/{subject}") for h in offered), f"the not-found page does not offer {subject}: {offered[:3]}")
    shoot(driver, shots, "04b-subject-not-found")
    accessible(driver, "the subject not found page")
    driver.get(f"{base}/console/logs/{log}/subjects/{subject}")
    wait.until(lambda d: d.find_elements(By.ID, "timeline"))

    step("4. the as-of control: an earlier position, then a time on the device clock, change the state shown")
    earlier = next(i for i, s in enumerate(steps) if s["state"] != steps[-1]["state"])
    field = driver.find_element(By.ID, "asOf")
    field.clear()
    field.send_keys(str(steps[earlier]["position"]))
    field.submit()
    wait.until(lambda d: d.find_element(By.ID, "through-position").text == str(steps[earlier]["position"]))
    check(driver.find_element(By.ID, "event-count").text == str(earlier + 1),
          f"as of position {steps[earlier]['position']} the page counts {driver.find_element(By.ID, 'event-count').text} events, not {earlier + 1}")
    check(driver.find_element(By.ID, "current-state").text != head_state, "the state as of the earlier position is the head's")
    shoot(driver, shots, "05-subject-as-of-position")
    moment = steps[earlier]["occurredAt"]
    expected = sum(1 for s in steps if s["occurredAt"] <= moment)
    field = driver.find_element(By.ID, "asOf")
    field.clear()
    field.send_keys(moment)
    driver.find_element(By.CSS_SELECTOR, "#clock option[value=occurred]").click()
    field.submit()
    wait.until(lambda d: "device clock" in d.find_element(By.ID, "as-of-said").text)
    check(driver.find_element(By.ID, "event-count").text == str(expected),
          f"as of {moment} on the device clock the page counts {driver.find_element(By.ID, 'event-count').text} events, not {expected}")

    step("4b. why was a feature open: each decision cites the gate event the timeline shows for that feature")
    driver.get(f"{base}/console/logs/{log}/subjects/{subject}")
    select = driver.find_elements(By.CSS_SELECTOR, "#feature option")
    check(select, "the subject's state names no feature to explain")
    feature = select[0].get_attribute("value")
    driver.find_element(By.ID, "explain-form").submit()
    wait.until(lambda d: heading(d).startswith("Why was ") and d.find_elements(By.ID, "explain-feature"))
    check(driver.find_element(By.ID, "explain-feature").get_attribute("title") == feature, "the explanation is not of the feature chosen")
    explained = driver.find_element(By.TAG_NAME, "main").text
    check(".." not in explained.replace("…", ""), f"the explanation has a double full stop: {explained[explained.find('..') - 60:explained.find('..') + 5]!r}")
    check(not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-", explained), "the explanation shows raw event ids")
    check(not re.search(r"\b(under13|13to15|16to17|18toMajority)\b", explained), "the explanation shows raw age categories")
    gates = {s["position"] for s in steps if f"feature {feature} " in s["sentence"]}
    # The first link of "Since …" is the gate; the ids its sentence cites are links to their positions too.
    since = [int(a.text.lstrip("#")) for a in driver.find_elements(By.XPATH, "//section[@class='decision']/p[starts-with(., 'Since')]/a[1]")]
    check(since and set(since) <= gates, f"the decisions cite {since}, not gates of {feature} in the timeline {sorted(gates)}")
    shoot(driver, shots, "05b-explain")
    accessible(driver, "the explanation")

    step("5. an inclusion proof checked in the browser (WebCrypto) shows Verified; altered bytes show Failed")
    driver.get(f"{base}/console/logs/{log}/subjects/{subject}")
    proof = driver.find_element(By.CSS_SELECTOR, "li.event .proof")
    proof.find_element(By.CSS_SELECTOR, "button.check-proof").click()
    output = proof.find_element(By.CSS_SELECTOR, ".proof-result")
    wait.until(lambda d: "verified" in output.get_attribute("class") or "failed" in output.get_attribute("class"))
    check("verified" in output.get_attribute("class") and output.text.startswith("Verified"),
          f"a true proof was not verified in the browser: {output.text}")
    proof.find_element(By.CSS_SELECTOR, "details.proof-bytes summary").click()
    shoot(driver, shots, "06-proof-verified")
    area = proof.find_element(By.CSS_SELECTOR, "textarea.bundle")
    bundle = json.loads(area.get_attribute("value"))
    alterations = []
    changed = json.loads(json.dumps(bundle))
    first = changed["inclusion"]["path"][0]
    changed["inclusion"]["path"][0] = ("1" if first[0] == "0" else "0") + first[1:]
    alterations.append(("a changed audit path element", changed))
    changed = json.loads(json.dumps(bundle))
    record = base64.b64decode(changed["inclusion"]["record"]).replace(b'"streamVersion":', b'"streamVersion":1', 1)
    changed["inclusion"]["record"] = base64.b64encode(record).decode()
    alterations.append(("a changed record", changed))
    changed = json.loads(json.dumps(bundle))
    note = changed["checkpoint"].split("\n")
    note[1] = str(int(note[1]) + 1)
    changed["checkpoint"] = "\n".join(note)
    alterations.append(("a changed checkpoint size", changed))
    for what, altered in alterations:
        driver.execute_script("arguments[0].value = arguments[1]", area, json.dumps(altered))
        proof.find_element(By.CSS_SELECTOR, "button.check-again").click()
        wait.until(lambda d: "checking" not in output.get_attribute("class"))
        check("failed" in output.get_attribute("class") and output.text.startswith("Failed"),
              f"{what} was not caught in the browser: {output.text}")
    shoot(driver, shots, "07-proof-failed")

    step("6. the dossier downloaded from the console is the CLI's file, byte for byte")
    status, body = fetch(driver, f"{base}/console/logs/{log}/subjects/{subject}/dossier?format=json&asOf={args.head}")
    check(status == 200, f"the download answered {status}")
    check(body == pathlib.Path(args.dossier).read_bytes(), "the downloaded dossier differs from `consent-ledger report dossier`'s")

    step("6b. the consent register: filtered by status, sorted, paged; its download is the CLI's report")
    register = json.loads(pathlib.Path(args.register).read_bytes())
    driver.get(f"{base}/console/logs/{log}/register")
    total = int(driver.find_element(By.ID, "register-total").text)
    check(total == len(register["rows"]), f"the register counts {total} entries, the CLI's report {len(register['rows'])}")
    check(total > 50, f"the test log has {total} register entries; paging needs more than one page of 50")
    shoot(driver, shots, "11-register")
    accessible(driver, "the register")
    # Issue 39 item 6: the totals of each status, and a table that fits 1366 px with times on one line.
    totals = {e.get_attribute("data-status"): int(e.text) for e in driver.find_elements(By.CSS_SELECTOR, "#status-totals strong")}
    check(totals.get("all") == total and sum(v for k, v in totals.items() if k != "all") == total, f"the status totals {totals} do not add up to {total}")
    check(totals.get("approval") == sum(1 for r in register["rows"] if r["answer"] == "approval" and r.get("rescindedAt") is None),
          f"the approved total {totals.get('approval')} is not the CLI report's")
    fits = driver.execute_script("""
        const table = document.getElementById("register"), width = document.documentElement.clientWidth;
        const broken = [...table.querySelectorAll("time")].filter(t => t.getClientRects().length !== 1 || t.getBoundingClientRect().height > 30);
        return [table.getBoundingClientRect().right <= width, document.documentElement.scrollWidth <= width, broken.length,
                [...table.querySelectorAll("time")].every(t => t.title && t.getAttribute("datetime"))];""")
    check(fits[0] and fits[1], f"the register does not fit a {driver.execute_script('return window.innerWidth')} px window: {fits}")
    check(fits[2] == 0, f"{fits[2]} times of the register are broken over lines")
    check(fits[3], "a register time has no full value in its title")
    first_page = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")]
    driver.find_element(By.LINK_TEXT, "Next page").click()
    wait.until(lambda d: "page 2 of" in d.find_element(By.CSS_SELECTOR, "#register caption").text)
    second_page = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")]
    check(second_page and not set(first_page) & set(second_page), "the second page repeats rows of the first")
    driver.get(f"{base}/console/logs/{log}/register")
    driver.find_element(By.CSS_SELECTOR, "#status option[value=approval]").click()
    driver.find_element(By.CSS_SELECTOR, "#sort option[value=subject]").click()
    driver.find_element(By.CSS_SELECTOR, "#order option[value=asc]").click()
    driver.find_element(By.ID, "register-filters").submit()
    wait.until(lambda d: "status=approval" in d.current_url)
    approved = [r for r in register["rows"] if r["answer"] == "approval" and r.get("rescindedAt") is None]
    statuses = {cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#register td.status")}
    check(statuses <= {"approved"}, f"the approved filter shows {statuses}")
    shown = int(driver.find_element(By.ID, "register-total").text) if driver.find_elements(By.ID, "register-total") else 0
    check(shown == len(approved), f"the approved filter counts {shown}, the CLI's report has {len(approved)} approved and not rescinded")
    subjects = [row.find_elements(By.TAG_NAME, "td")[1].text for row in driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")]
    check(subjects == sorted(subjects), "sorted by subject, the rows are not in order")
    shoot(driver, shots, "12-register-approved")
    status, body = fetch(driver, f"{base}/console/logs/{log}/reports/consent-register?asOf={args.head}&format=json")
    check(status == 200 and body == pathlib.Path(args.register).read_bytes(), "the register download differs from the CLI's report")

    step("6c. the regulator report for a jurisdiction and period, with its charts, is the CLI's page")
    driver.get(f"{base}/console/logs/{log}/reports")
    # Issue 39 item 3: the log's jurisdictions in a select, and preset periods that fill the dates.
    jurisdiction = Select(driver.find_element(By.ID, "jurisdiction"))
    codes = [o.get_attribute("value") for o in jurisdiction.options]
    check(args.jurisdiction in codes and codes[0] == args.jurisdiction, f"the form offers {codes}, not first the log's most named {args.jurisdiction}")
    jurisdiction.select_by_value(args.jurisdiction)
    chosen = jurisdiction.first_selected_option
    wait.until(lambda d: d.find_element(By.ID, "report-from").get_attribute("value") == chosen.get_attribute("data-from"))
    check(driver.find_element(By.ID, "report-to").get_attribute("value") == chosen.get_attribute("data-to"),
          "the period of the jurisdiction's data did not fill the dates")
    period = Select(driver.find_element(By.ID, "report-period"))
    period.select_by_value("last-month")
    wait.until(lambda d: d.find_element(By.ID, "report-from").get_attribute("value").endswith("-01"))
    filled = (driver.find_element(By.ID, "report-from").get_attribute("value"), driver.find_element(By.ID, "report-to").get_attribute("value"))
    today = time.gmtime()
    this_month = f"{today.tm_year:04d}-{today.tm_mon:02d}-01"
    check(filled[1] == this_month and filled[0] < filled[1], f"last month filled {filled}, not the month before {this_month}")
    period.select_by_value("last-quarter")
    wait.until(lambda d: d.find_element(By.ID, "report-to").get_attribute("value") != this_month or today.tm_mon in (1, 4, 7, 10))
    shoot(driver, shots, "12b-report-form")
    accessible(driver, "the report form")
    for field, value in (("report-from", args.__dict__["from"]), ("report-to", args.to)):
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, field), value)
    driver.find_element(By.ID, "regulator-form").submit()
    wait.until(lambda d: "/reports/regulator?" in d.current_url)
    check(driver.find_elements(By.CSS_SELECTOR, "svg.chart"), "the regulator report shows no chart")
    styled = driver.execute_script("return getComputedStyle(document.querySelector('header')).borderBottomStyle + ' ' + document.styleSheets.length")
    check(not styled.endswith(" 0"), "the report's style was blocked: the page is unstyled")
    shoot(driver, shots, "13-regulator")
    driver.get(f"{base}/console/logs/{log}/reports")  # the report's own policy allows no fetch: fetch from a console page
    status, body = fetch(driver, f"{base}/console/logs/{log}/reports/regulator?jurisdiction={args.jurisdiction}&from={args.__dict__['from']}"
                                 f"&to={args.to}&asOf={args.head}&format=html")
    if body != pathlib.Path(args.regulator).read_bytes():
        (shots / "regulator-console.html").write_bytes(body)  # beside the screenshots, to see how it differs
    check(status == 200 and body == pathlib.Path(args.regulator).read_bytes(),
          f"the regulator report's page differs from the CLI's (the console's copy is in {shots}/regulator-console.html)")

    step("7. another log is never reachable, through pages, proofs or the API")
    driver.get(f"{base}/console/logs/{args.other_log}")
    check(heading(driver) == "Not allowed", f"another log's page shows {heading(driver)!r}")
    shoot(driver, shots, "08-other-log-refused")
    for url in (f"/console/logs/{args.other_log}/subjects/{subject}", f"/console/logs/{args.other_log}/proofs/inclusion?position=1",
                f"/console/logs/{args.other_log}/subjects/{subject}/dossier?format=json"):
        status, _ = fetch(driver, base + url)
        check(status == 403, f"{url} answered {status}, not 403")
    status, _ = fetch(driver, f"{base}/v1/logs/{log}/events")
    check(status == 401, f"the session cookie opened the API (/v1/logs/{log}/events answered {status})")

    step("8. sign-out ends the session on the server: the old cookie no longer opens anything")
    old = driver.get_cookie(COOKIE)["value"]
    driver.get(f"{base}/console/logs/{log}")
    driver.find_element(By.CSS_SELECTOR, "form.sign-out button").click()
    wait.until(lambda d: heading(d) == "Sign in")
    check(driver.get_cookie(COOKIE) is None, "the cookie is still set after sign-out")
    driver.add_cookie({"name": COOKIE, "value": old, "path": "/console"})
    driver.get(f"{base}/console/logs/{log}")
    check(heading(driver) == "Sign in first", f"the ended session's cookie still opened {heading(driver)!r}")
    shoot(driver, shots, "09-signed-out")

    step("9. an admin sees who looked at the subject's data: the auditor's reads above, through the console")
    sign_in(driver, base, args.admin)
    wait.until(lambda d: d.current_url.endswith(f"/console/logs/{log}"))
    driver.find_element(By.LINK_TEXT, "Who looked").click()
    field = driver.find_element(By.ID, "subject")
    field.send_keys(subject)
    field.submit()
    wait.until(lambda d: d.find_elements(By.ID, "reads"))
    auditor_id = args.auditor.split("_")[1]
    # A pseudonym shows its first characters, the whole in the link's title.
    rows = [[(cell.find_elements(By.TAG_NAME, "a") or [cell])[0].get_attribute("title") or cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#reads tbody tr")]
    mine = [r for r in rows if r[3] == auditor_id and r[2] == "console"]
    check(any(r[5] == "replay" for r in mine), f"the auditor's views of the subject are not in the record of reads: {rows[:5]}")
    check(any(r[5] == "dossier" for r in mine), "the auditor's dossier download is not in the record of reads")
    check(all(r[6] == subject or r[6] == "every subject" for r in rows), "the filter let another subject's reads through")
    fits = driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    check(fits, "the record of reads does not fit the window")
    shoot(driver, shots, "10-who-looked")
    accessible(driver, "the record of reads")

    step("9b. the findings page is live: a violation appended over the API appears at its top, without a reload")
    # Last of the demo log's steps: the event it appends moves the head the steps above compare at.
    # An answer to a question nobody asked breaks a rule (answer-before-question).
    driver.get(f"{base}/console/logs/{log}/findings")
    wait.until(lambda d: d.find_element(By.ID, "live-status").text.startswith("Live:"))
    driver.execute_script("window.__findingsPage = true")
    question = str(uuid.uuid4())
    answer = {"eventId": str(uuid.uuid4()), "stream": f"question-{question}", "type": "ParentalAnswerReceived",
              "schemaVersion": 1, "occurredAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "subject": "p_live42",
              "actor": {"kind": "app"},
              "payload": {"answer": "approval", "channel": "message", "choiceId": "allow", "choiceTitle": "Allow",
                          "questionId": question, "receivedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}}
    request = urllib.request.Request(f"{base}/v1/logs/{log}/events", data=(json.dumps(answer) + "\n").encode(), method="POST",
                                     headers={"Authorization": f"Bearer {args.ingest}", "Content-Type": "application/x-ndjson"})
    with urllib.request.urlopen(request, timeout=60) as response:
        appended = json.loads(response.read())
    new_position = appended["events"][0]["position"]
    new_id = f"{new_position}.answer-before-question"
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#findings li.finding[data-id="{new_id}"]'),
               f"the new violation {new_id} did not appear on the open findings page")
    top = driver.find_elements(By.CSS_SELECTOR, "#findings li.finding")[0]
    check(top.get_attribute("data-id") == new_id, f"the new violation is not at the top: {top.get_attribute('data-id')}")
    check(driver.execute_script("return window.__findingsPage === true"), "the findings page was reloaded")
    check(str(new_position) in driver.find_element(By.ID, "live-status").text, "the live line does not name the new finding")
    shoot(driver, shots, "10b-findings-live")
    accessible(driver, "the findings page with a live finding")

    step(f"10. the consent register at {int(args.large_entries):,} entries: counted, paged to the end, filtered as the events say")
    expected = register_outcomes(pathlib.Path(args.large_events))
    check(len(expected) == int(args.large_entries), f"the generated log holds {len(expected)} questions, not {args.large_entries}")
    driver.find_element(By.CSS_SELECTOR, "form.sign-out button").click()
    wait.until(lambda d: heading(d) == "Sign in")
    sign_in(driver, base, args.large_auditor)
    large = args.large_log
    wait.until(lambda d: d.current_url.endswith(f"/console/logs/{large}"))
    timings = {}
    def visit(url, name):
        driver.get(base + url)
        timings[name] = server_time(driver)
    visit(f"/console/logs/{large}/register", "first page")
    total = int(driver.find_element(By.ID, "register-total").text)
    check(total == len(expected), f"the register counts {total} entries; the log's events hold {len(expected)} questions")
    pages = (total + 49) // 50
    caption = driver.find_element(By.CSS_SELECTOR, "#register caption").text
    check(f"page 1 of {pages}" in caption, f"the first page's caption says {caption!r}")
    shoot(driver, shots, "13-register-large")
    accessible(driver, "the register at scale")
    newest = [row.find_element(By.TAG_NAME, "time").get_attribute("datetime") for row in driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")]
    check(newest == sorted(newest, reverse=True) and newest[0] == max(q["asked"] for q in expected.values()),
          f"the first page does not start with the newest question: {newest[:2]}")
    driver.find_element(By.ID, "last-page").click()
    wait.until(lambda d: f"page {pages} of {pages}" in d.find_element(By.CSS_SELECTOR, "#register caption").text)
    timings["last page"] = server_time(driver)
    oldest = [row.find_element(By.TAG_NAME, "time").get_attribute("datetime") for row in driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")]
    check(len(oldest) == total - (pages - 1) * 50 and oldest[-1] == min(q["asked"] for q in expected.values()),
          f"the last page does not end with the oldest question: {len(oldest)} rows, the last {oldest[-1:]}")
    check(f"Entries {(pages - 1) * 50 + 1} to {total}" in driver.find_element(By.CSS_SELECTOR, "#register caption").text,
          "the last page's caption does not count its entries")
    visit(f"/console/logs/{large}/register?page={pages + 1}", "past the end")
    check("past the last page" in driver.find_element(By.ID, "register-empty").text, "a page past the end does not say so")
    # A filter on each column the events decide: app, status and whether the guardian was named.
    app = sorted({q["app"] for q in expected.values()})[-1]
    for status, disclosed in (("approval", "disclosed"), ("denial", "undisclosed"), ("expired", None), ("pending", None)):
        want = [q for q in expected.values() if q["app"] == app and q["status"] == status
                and (disclosed is None or q["disclosed"] == (disclosed == "disclosed"))]
        query = f"status={status}&app={app}" + (f"&guardian={disclosed}" if disclosed else "") + "&sort=asked&order=asc"
        visit(f"/console/logs/{large}/register?{query}", f"{status} of one app")
        shown = int(driver.find_element(By.ID, "register-total").text)
        check(shown == len(want), f"{query}: the register counts {shown}, the events {len(want)}")
        rows = driver.find_elements(By.CSS_SELECTOR, "#register tbody tr")
        first = rows[0].find_element(By.TAG_NAME, "time").get_attribute("datetime")
        check(first == min(q["asked"] for q in want), f"{query}: the oldest first shows {first}")
        check({cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#register td.status")} <= {REGISTER_LABELS[status]},
              f"{query}: rows of another status are shown")
    shoot(driver, shots, "14-register-large-filtered")
    print("console-check:   server time per page (the browser's responseStart - requestStart, ms): "
          + ", ".join(f"{name} {ms:.0f}" for name, ms in timings.items()))

REGISTER_LABELS = {"approval": "approved", "denial": "denied", "expired": "expired", "pending": "pending"}

def register_outcomes(path):
    """Each question of an NDJSON log with what its events say became of it: app, asked at (as the
    register shows it), status (the first answer or expiry, else pending) and whether the answer
    named its guardian. Read from the events, not from the ledger, so the server is checked."""
    questions = {}
    for line in path.open():
        event = json.loads(line)
        kind, payload = event["type"], event["payload"]
        if kind == "PermissionQuestionSent":
            questions[payload["questionId"]] = {"app": event["app"]["bundleId"], "asked": event["occurredAt"],
                                                "status": "pending", "disclosed": False}
        elif kind in ("ParentalAnswerReceived", "QuestionExpired"):
            question = questions[payload["questionId"]]
            if question["status"] == "pending":
                question["status"] = payload["answer"] if kind == "ParentalAnswerReceived" else "expired"
                question["disclosed"] = "guardianId" in payload
    return questions

def server_time(driver):
    """How long the page took from the request to the first byte of the answer, as the browser
    timed it (Navigation Timing): the server's time plus a loopback round trip."""
    return driver.execute_script("const n = performance.getEntriesByType('navigation')[0]; return n.responseStart - n.requestStart;")

if __name__ == "__main__":
    sys.exit(main())
