"""Debian's chromium, headless, driven by selenium through its chromedriver:
what every page test in this folder opens (make test installs both)."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


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
