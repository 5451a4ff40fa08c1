#!/usr/bin/python3
"""Runs one line through the inspector page's command box, in headless
chromium, and prints what the box says once the session answered
(`#N LINE: OUTCOME`, or why not). With EXPECT, first waits until the
timeline shows it.

    /usr/bin/python3 Tests/Browser/run_from_page.py URL LINE [EXPECT]

Run by InspectorAtThePromptTests (a session at a prompt in tmux) and
ServeInspectTests (an app's inspector, `karc serve --inspect`)."""
import sys

from headless import chromium, patient
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

url, line = sys.argv[1], sys.argv[2]
expect = sys.argv[3] if len(sys.argv) > 3 else None
driver = chromium()
try:
    driver.get(url)
    wait = patient(driver, 20)
    wait.until(lambda d: d.find_element(By.ID, "status").text == "live")
    if expect:
        try:
            wait.until(lambda d: expect in d.find_element(By.ID, "timeline").text)
        except Exception:
            print("the timeline never showed " + expect + ":\n" + driver.find_element(By.ID, "timeline").text, flush=True)
            sys.exit(1)
    driver.find_element(By.ID, "command").send_keys(line + Keys.ENTER)
    said = driver.find_element(By.CSS_SELECTOR, "#box .said")
    wait.until(lambda d: said.text and not said.text.startswith("running"))
    print(said.text, flush=True)
finally:
    driver.quit()
