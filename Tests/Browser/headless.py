"""Debian's chromium, headless, driven by selenium through its chromedriver:
what every page test in this folder opens (make test installs both)."""
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def chromium(window_size=None):
    """A new headless chromium; `window_size` ("1400,1000") sets its window."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    if window_size:
        arguments.append(f"--window-size={window_size}")
    for argument in arguments:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def patient(driver, seconds):
    """A wait of up to `seconds` for the page to catch up. The page redraws a
    panel when the session's states change, so an element read while it is
    replaced is asked for again, not a failure."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,))


def text_of(driver, css):
    """The text of the first element `css` finds; "" when there is none, or
    when the page replaced it while it was read."""
    try:
        found = driver.find_elements(By.CSS_SELECTOR, css)
        return found[0].text if found else ""
    except StaleElementReferenceException:
        return ""
