#!/usr/bin/python3
"""`inspect.bigstate.drawn`: in headless chromium, what a person waits for
when they select a command on a 10,000-element state: from the click on the
command to its changed target's top level drawn, then from the click on that
list to its first 200 elements drawn (each measured in the page: until the
elements are there and laid out; painting is not in it). Two commands are selected in turn, `rounds`
times; prints the median of each and of their sum, in milliseconds.

    /usr/bin/python3 Benchmarks/browser/bigstate_draw.py URL FIRST_SEQ SECOND_SEQ [ROUNDS]

Run by karc-bench (`make bench`), which starts `karc --inspect` on a script
that fills the demo's articles with 10,000 and likes two of them."""
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

url, first, second = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_script_timeout(30)

# Clicks what `click` names, then returns the milliseconds until `drawn` holds and what it shows is laid out.
TIMED = """
const [click, drawn, done] = arguments;
// What the last selection drew is marked, so that only what this one draws counts.
document.querySelectorAll("[data-path]").forEach((e) => { e.dataset.stale = "yes"; });
const started = performance.now();
document.querySelector(click).click();
const holds = new Function("return " + drawn);
// Checked as the page changes (a headless page may draw no animation frames);
// reading a layout figure makes the browser lay out what was added before the time is taken.
const check = () => {
  if (!holds()) return setTimeout(check, 1);
  void document.body.offsetHeight;
  done(performance.now() - started);
};
setTimeout(check, 0);
"""
ITEMS = 'details.target[data-target="articles"] details[data-path="items"]'
TOP_DRAWN = f'document.querySelector(\'{ITEMS}:not([data-stale])\') !== null && document.getElementById("selected").textContent.includes("After #%s")'
ROWS_DRAWN = (f'Array.from(document.querySelectorAll(\'{ITEMS} [data-path^="items["]:not([data-stale])\'))'
              '.filter(e => /^items\\[\\d+\\]$/.test(e.dataset.path)).length >= 200')

try:
    driver.get(url)
    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script(f'return document.querySelector(\'#timeline li.command[data-seq="{second}"] .outcome\')?.textContent === "ok"'))
    selected, opened = [], []
    for round in range(rounds + 1):
        for seq in (first, second):
            top = driver.execute_async_script(TIMED, f'#timeline li.command[data-seq="{seq}"]', TOP_DRAWN % seq)
            rows = driver.execute_async_script(TIMED, f"{ITEMS} > summary", ROWS_DRAWN)
            if round > 0:  # the first round warms the page up
                selected.append(top)
                opened.append(rows)
    total = [a + b for a, b in zip(selected, opened)]
    print(f"selected {statistics.median(selected):.1f} opened {statistics.median(opened):.1f} total {statistics.median(total):.1f}"
          f" max {max(total):.1f}", flush=True)
finally:
    driver.quit()
