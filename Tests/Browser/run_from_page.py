#!/usr/bin/python3
"""Runs one line through the inspector page's command box, in headless
chromium, and prints `#N LINE: OUTCOME` once the session answered.

    /usr/bin/python3 Tests/Browser/run_from_page.py URL LINE

Run by InspectorAtThePromptTests, whose session is at a prompt in tmux."""
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

url, line = sys.argv[1], sys.argv[2]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(url)
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_element(By.ID, "status").text == "live")
    driver.find_element(By.ID, "command").send_keys(line + Keys.ENTER)
    said = driver.find_element(By.CSS_SELECTOR, "#box .said")
    wait.until(lambda d: said.text.startswith("#"))
    print(said.text, flush=True)
finally:
    driver.quit()
