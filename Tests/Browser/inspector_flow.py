#!/usr/bin/python3
"""The inspector's page in headless chromium, driven as a person would on a
call with their team: the README's session through the page's command box
(one command came from the terminal first), the timeline, the state tree
with the parts a command changed, why a command did what it did (its causal
tree and sequence diagram), going back to an earlier command, a watch, and
the refusals (no token; a WebSocket from another site's page).

    /usr/bin/python3 Tests/Browser/inspector_flow.py URL [SCREENSHOT.png]

Prints one line a step; exits 1 with the step that failed. Run by
InspectorBrowserFlowTests (make test), which starts `karc --inspect`."""
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
from urllib.parse import urlsplit

from headless import chromium, patient, text_of
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

url = sys.argv[1]
screenshot = sys.argv[2] if len(sys.argv) > 2 else None
origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))

driver = chromium("1400,1000")
wait = patient(driver, 20)
downloads = tempfile.mkdtemp(prefix="karc-inspector-downloads-")
driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})


def downloaded(name):
    path = os.path.join(downloads, name)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return open(path, encoding="utf-8").read()
        time.sleep(0.05)
    raise AssertionError(f"{name} was not downloaded: {os.listdir(downloads)}")


class Elsewhere(http.server.BaseHTTPRequestHandler):
    """Another site's page."""

    def do_GET(self):
        body = b"<!DOCTYPE html><title>elsewhere</title><p>another site"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def step(text):
    print("step:", text, flush=True)


def find(css):
    return driver.find_element(By.CSS_SELECTOR, css)


def until(condition, what):
    """Waits for `condition`; else fails with `what` (a text, or a function that says what the page shows then)."""
    try:
        return wait.until(lambda _: condition())
    except Exception:
        said = what() if callable(what) else what
        raise AssertionError(f"{said}; the page shows:\n{find('body').text}")


def text(css):
    return text_of(driver, css)


def row(seq):
    return f'#timeline li.command[data-seq="{seq}"]'


def run(line):
    box = find("#command")
    box.clear()
    box.send_keys(line + Keys.ENTER)


def outcome(seq):
    return text(f"{row(seq)} .outcome")


try:
    step("the page opens live, with what ran before it came")
    driver.get(url)
    until(lambda: text("#status") == "live", "the page never went live")
    until(lambda: outcome(1) == "ok" and outcome(2) == "ok" and "by Gatekeeper" in text(row(2)),
          "the terminal's two commands are not on the timeline")

    step("the README's session through the command box")
    run("identity.login email=jill@example.com password=s3cret!")
    until(lambda: outcome(3) == "ok", "the login from the page did not end ok")
    box = find("#command")
    box.send_keys("arti" + Keys.TAB)
    until(lambda: box.get_attribute("value") == "articles.", "Tab did not complete the target")
    box.send_keys("a" + Keys.TAB)
    until(lambda: box.get_attribute("value") == "articles.add ", "Tab did not complete the command")
    box.send_keys(Keys.TAB)
    until(lambda: box.get_attribute("value") == "articles.add title=", "Tab did not complete the field")
    box.send_keys('"Hello, karc"' + Keys.ENTER)
    until(lambda: outcome(4) == "ok", "articles.add from the page did not end ok")
    run("articles.like id=1")
    until(lambda: outcome(5) == "ok", "articles.like did not end ok")
    box.send_keys(Keys.ARROW_UP)
    until(lambda: box.get_attribute("value") == "articles.like id=1", "the box's history did not bring the last line back")
    box.clear()
    # A refusal stays until the next line is being typed; the placeholder is one of the cluster's commands.
    assert "counter.increment" in box.get_attribute("placeholder"), box.get_attribute("placeholder")
    box.send_keys(":quit" + Keys.ENTER)
    until(lambda: "the page cannot end the session" in text("#box .said"), "the page's :quit was not refused")
    box.send_keys("c")
    until(lambda: text("#box .said") == "", "the refusal stayed while another line was typed")
    box.clear()

    step("the timeline filters by target, kind, outcome and text")
    run("counter.nosuch")
    until(lambda: outcome(6) == "error", "a bad command did not fail")
    driver.execute_script("const s = document.getElementById('outcome-filter'); s.value = 'error'; s.dispatchEvent(new Event('input'));")
    visible = lambda: [r.get_attribute("data-seq") for r in driver.find_elements(By.CSS_SELECTOR, "#timeline li.command") if r.is_displayed()]
    until(lambda: visible() == ["6"], "the outcome filter did not leave the failed command alone")
    driver.execute_script("const s = document.getElementById('outcome-filter'); s.value = ''; s.dispatchEvent(new Event('input'));")
    driver.execute_script("const s = document.getElementById('target-filter'); s.value = 'articles'; s.dispatchEvent(new Event('input'));")
    until(lambda: visible() == ["2", "3", "4", "5"], f"the target filter shows {visible()}")
    driver.execute_script("const s = document.getElementById('target-filter'); s.value = ''; s.dispatchEvent(new Event('input'));")
    driver.execute_script("const s = document.getElementById('kind-filter'); s.value = 'redirect'; s.dispatchEvent(new Event('input'));")
    until(lambda: visible() == ["2"], f"the kind filter shows {visible()}")
    driver.execute_script("const s = document.getElementById('kind-filter'); s.value = ''; s.dispatchEvent(new Event('input'));")
    find("#filter").send_keys("like id=1")
    until(lambda: visible() == ["5"], f"the text filter shows {visible()}")
    find("#filter").clear()
    find("#filter").send_keys("(")
    until(lambda: driver.execute_script("return document.getElementById('filter').validationMessage") != "", "a bad expression is not said")
    find("#filter").clear()
    driver.execute_script("document.getElementById('filter').dispatchEvent(new Event('input'));")

    step("the state tree after the add: the changed parts marked")
    find(row(4)).click()
    until(lambda: "After #4" in text("#selected"), "selecting command 4 did not show its states")
    articles = 'details.target[data-target="articles"]'
    until(lambda: find(articles).get_attribute("open") is not None, "the target the command changed is not open")
    items = f'{articles} details[data-path="items"]'
    until(lambda: driver.find_elements(By.CSS_SELECTOR, items), "no items in the articles tree")
    until(lambda: "changed" in find(items).find_element(By.XPATH, "..").get_attribute("class"), "items is not marked changed")
    find(items + " > summary").click()
    first = f'{articles} details[data-path="items[0]"]'
    until(lambda: driver.find_elements(By.CSS_SELECTOR, first), "items did not open")
    find(first + " > summary").click()
    title = f'{articles} li.leaf[data-path="items[0].title"]'
    until(lambda: driver.find_elements(By.CSS_SELECTOR, title), "the article did not open")
    assert find(title).text == 'title: "Hello, karc"', find(title).text
    assert "changed" in find(title).get_attribute("class"), "the new title is not marked changed: " + find(title).get_attribute("class")
    likes = f'{articles} li.leaf[data-path="items[0].likes"]'
    assert find(likes).text == "likes: 0", "after #4 the article has no like yet: " + find(likes).text
    assert "Hello, karc" in text("#state .diffs"), "the command's diff is not shown"
    find("#state .diff-mode button:nth-child(2)").click()
    until(lambda: '"op": "add"' in text("#state .diffs pre.patch"), "the JSON Patch is not shown: " + text("#state .diffs"))
    find("#state .diff-mode button:nth-child(1)").click()
    driver.execute_script("const s = document.querySelector('#state form.search select'); s.value = 'articles';")
    find("#state form.search input").send_keys("hello" + Keys.ENTER)
    until(lambda: "articles items[0].title" in text("#state .found"), "the search did not find the title: " + text("#state .found"))
    if screenshot:
        driver.execute_script("document.querySelector('#state .found').replaceChildren()")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)

    step("why: the login's causal tree and sequence diagram")
    find(row(3)).click()
    find("#tab-why").click()
    until(lambda: driver.find_elements(By.CSS_SELECTOR, "#why svg.sequence"), "no sequence diagram")
    lifelines = [g.get_attribute("data-name") for g in driver.find_elements(By.CSS_SELECTOR, "#why svg g.lifeline")]
    assert lifelines == ["shell", "identity", "articles", "account"], lifelines
    arrows = [(g.get_attribute("data-from"), g.get_attribute("data-to"), g.get_attribute("class"))
              for g in driver.find_elements(By.CSS_SELECTOR, "#why svg g.message")]
    assert arrows[0] == ("shell", "identity", "message send"), arrows
    assert ("identity", "articles", "message send") in arrows, arrows
    assert ("account", "identity", "message reply") in arrows, arrows
    tree = text("#why ol.trace")
    assert "identity.login" in tree and "articles.load" in tree and "account.register" in tree, tree
    find("#why .tools button:nth-child(1)").click()
    drawing = downloaded("karc-3.svg")
    assert drawing.startswith("<svg") and 'data-name="account"' in drawing, drawing[:200]
    find("#why .tools button:nth-child(2)").click()
    mermaid = downloaded("karc-3.md")
    assert "sequenceDiagram" in mermaid and "identity" in mermaid, mermaid[:200]

    step("time travel: the states after the login, then back to them")
    find("#tab-state").click()
    until(lambda: "After #3" in text("#selected"), "the state tab did not show command 3")
    count = f'{articles} details[data-path="items"] .type'
    find(articles + " > summary").click() if find(articles).get_attribute("open") is None else None
    until(lambda: driver.find_elements(By.CSS_SELECTOR, count), "articles after #2 did not load")
    assert find(count).text.endswith("(0)"), "after the login there is no article yet: " + find(count).text
    find("#selected button.back").click()
    until(lambda: "went back to after #3" in text("#box .said"), "going back did not say so: " + text("#box .said"))
    until(lambda: ":undo 2" in text(row(7)) and outcome(7) == "ok", "going back did not run :undo 2")
    until(lambda: "States now" in text("#selected"), "after going back the page does not show the states now")
    until(lambda: driver.find_elements(By.CSS_SELECTOR, count) and find(count).text.endswith("(0)"),
          lambda: "the article is still there now: articles.items is " + (text(count) or "not shown"))

    step("a watch from the page, told of each change with who made it")
    find("#tab-tools").click()
    watch = find("#tools form.tool input")
    watch.send_keys("counter.count")
    find('#tools button[data-action="watch"]').click()
    until(lambda: "counter.count" in text("#tools ul.watches"), "the watch is not listed")
    run("counter.increment")
    until(lambda: "counter.count: 3 → 4 by #" in text("#tools ol.watched"), "the watched change is not listed: " + text("#tools ol.watched"))


    step("snapshots from the page: taken, listed, restored")
    snapshot = driver.find_elements(By.CSS_SELECTOR, "#tools form.tool input")[1]
    snapshot.send_keys("before-more")
    find('#tools button[data-action="take"]').click()
    until(lambda: "before-more" in text("#tools ul.snapshots"), "the snapshot is not listed: " + text("#tools ul.snapshots"))
    run("counter.increment")
    find("#tools ul.snapshots button").click()
    until(lambda: any(":restore before-more" in text(row(n)) and outcome(n) == "ok" for n in range(8, 14)), "restoring from the page did not run")

    step("a user's text is rarely ASCII: through the box, the session, the timeline and the tree as typed")
    run('articles.add title="Grüße, Zoë — ça va?"')
    added = lambda: [n for n in range(10, 20) if "Grüße, Zoë — ça va?" in text(row(n))]
    until(lambda: added() and outcome(added()[0]) == "ok", "the add with non-ASCII text did not end ok")
    find(row(added()[0])).click()
    find("#tab-state").click()
    until(lambda: f"After #{added()[0]}" in text("#selected"), "selecting the add did not show its states")
    until(lambda: "Grüße, Zoë — ça va?" in text("#state .diffs"), "the diff does not show the text as typed: " + text("#state .diffs"))
    driver.execute_script("const s = document.querySelector('#state form.search select'); s.value = 'articles';")
    find("#state form.search input").send_keys("ZOË" + Keys.ENTER)
    until(lambda: "articles items[0].title" in text("#state .found"), "the search did not find the title: " + text("#state .found"))

    step("refused: the page without its token")
    driver.get(origin + "/")
    assert "open the URL karc printed" in find("body").text, find("body").text

    step("refused: the events from another site's page")
    # Another site, here on another port of this machine (a page on the web is kept from loopback by the browser itself).
    elsewhere = http.server.HTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    driver.get(f"http://127.0.0.1:{elsewhere.server_address[1]}/")
    token = urlsplit(url).query.split("token=")[1]
    closed = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const socket = new WebSocket(arguments[0]);
        socket.onmessage = (m) => done("a message came: " + m.data);
        socket.onclose = (e) => done(e.code + " " + e.reason);""",
        origin.replace("http", "ws") + "/events?token=" + token)
    assert closed == "1008 karc inspector: the events are for pages of this inspector only", closed
    print("ok", flush=True)
except AssertionError as failure:
    print(f"failed: {failure}", flush=True)
    sys.exit(1)
finally:
    driver.quit()
    shutil.rmtree(downloads, ignore_errors=True)
