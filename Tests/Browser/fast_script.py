#!/usr/bin/python3
"""The inspector's page while its session runs a piped script at full speed,
in headless chromium: it prints "live" once the page is, then waits for the
session to end (the script's last line), and checks that the page kept up
and says what it left out: one notice that counted on (not a row each
time), every command counted, the failure shown though the budget left
most commands out, and a page that answers at once. Then, in the page, the
timeline's row limit: the oldest rows go, counted in one row at the top.

    /usr/bin/python3 Tests/Browser/fast_script.py URL COMMANDS FAILING_SEQ

Prints one line a step; exits 1 with the step that failed. Run by
InspectorFastScriptTests (make test)."""
import sys

from headless import chromium, patient, text_of
from selenium.webdriver.common.by import By

url, commands, failing = sys.argv[1], int(sys.argv[2]), sys.argv[3]
driver = chromium("1400,1000")
# Every wait below is for the page to catch up, never for time to pass: a page that froze fails it (within
# 100 s: under ThreadSanitizer, with the end-to-end suite beside it, the script alone takes most of a minute).
wait = patient(driver, 100)


def text(css):
    return text_of(driver, css)


def until(condition, what):
    try:
        return wait.until(lambda _: condition())
    except Exception:
        raise AssertionError(f"{what}; counts: {text('#counts')!r}, status: {text('#status')!r}")


try:
    driver.get(url)
    until(lambda: text("#status") == "live", "the page never went live")
    print("live", flush=True)

    print("step: the page keeps up with the script and is told the session ended", flush=True)
    until(lambda: text("#status").startswith("ended"), "the page never heard the session end")
    until(lambda: text("#counts").startswith(f"{commands} commands, 1 failed"), "the page did not count every command")

    print("step: what it left out is one notice, counting on", flush=True)
    notices = driver.find_elements(By.CSS_SELECTOR, "#timeline li.notice.skipped")
    assert len(notices) == 1, f"{len(notices)} notices of what was left out, not one"
    assert "not shown: the session ran faster than this page can show" in notices[0].text, notices[0].text
    assert "not shown" in text("#counts"), text("#counts")

    print("step: the failure is on the timeline though most commands were left out", flush=True)
    row = f'#timeline li.command[data-seq="{failing}"]'
    assert text(f"{row} .outcome") == "error", f"command {failing} is not shown failed: {text(row)!r}"
    assert "counter.nosuch" in text(row), text(row)
    rows = len(driver.find_elements(By.CSS_SELECTOR, "#timeline li.command"))
    assert 0 < rows < commands, f"{rows} command rows for {commands} commands"

    print("step: the oldest rows go past the page's limit, counted at the top", flush=True)
    kept = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("./timeline.js").then(({ Timeline }) => {
          const list = document.createElement("ul");
          const counts = [];
          const timeline = new Timeline(list, { onSelect() {}, onCount: (text) => counts.push(text), limit: 3 });
          for (let seq = 1; seq <= 5; seq += 1) {
            timeline.add({ kind: "begin", seq, text: "counter.increment" });
            timeline.add({ kind: "done", seq, outcome: "ok" });
            timeline.add({ kind: "skipped", count: 1, commands: 1 });
          }
          timeline.flush();
          done({ rows: [...list.children].map((row) => row.dataset.seq ?? row.textContent), counts,
                 selectable: timeline.textOf(1) === "" && timeline.textOf(5) === "counter.increment" });
        }, (error) => done({ error: String(error) }));
    """)
    assert "error" not in kept, kept
    assert kept["rows"] == [
        "2 earlier rows are no longer on this page (:history lists every command)", "3", "4", "5",
        "5 commands and 5 messages not shown: the session ran faster than this page can show (it was not slowed) catch up",
    ], kept["rows"]
    assert kept["counts"] == ["10 commands, 0 failed, 5 commands and 5 messages not shown"], kept["counts"]
    assert kept["selectable"], "a row that went is still selectable, or a kept one is not"

    print("step: a failed command's row outlives the limit, the newest failures first", flush=True)
    failures = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("./timeline.js").then(({ Timeline }) => {
          const list = document.createElement("ul");
          const timeline = new Timeline(list, { onSelect() {}, onCount() {}, limit: 3, failures: 1 });
          for (let seq = 1; seq <= 6; seq += 1) {
            timeline.add({ kind: "begin", seq, text: seq === 1 || seq === 2 ? "counter.nosuch" : "counter.increment" });
            timeline.add({ kind: "done", seq, outcome: seq === 1 || seq === 2 ? "error" : "ok" });
          }
          timeline.flush();
          done([...list.children].map((row) => row.dataset.seq ?? row.textContent));
        }, (error) => done([String(error)]));
    """)
    assert failures == ["3 earlier rows are no longer on this page (:history lists every command)", "2", "5", "6"], failures

    print("step: a snapshot, a restore, an undo, a reset and a trace read as text, not JSON", flush=True)
    described = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("./timeline.js").then(({ Timeline }) => done([
          { kind: "snapshot-kept", name: "signed-in", targets: ["account", "counter"], left: ["auth"], time: "12:00:00", bytes: 10 },
          { kind: "snapshot-restored", name: "signed-in", targets: ["account", "counter"], left: ["auth"] },
          { kind: "snapshot-restored", undone: [{ number: 3, line: "counter.increment" }], targets: ["counter"], left: [] },
          { kind: "reset", changed: ["counter"], left: ["keys"] },
          { kind: "snapshot", target: "counter", type: "CounterState", value: { count: 1 } },
          { kind: "trace", command: "identity.login", hops: [{ depth: 0, text: "identity.login" }, { depth: 1, text: "articles.load", late: true }] },
          { kind: "watch", target: "cart", path: 'items["x"]', by: "#20 :undo", old: 5 },
          { kind: "blame", path: "counter.count", more: false, changes: [
            { number: 5, line: "counter.increment", by: "#5 counter.increment", target: "counter", path: "count", old: 0, new: 1 },
            { by: "the app: counter.reset", target: "counter", path: "count", old: 1, new: 0 }] },
          { kind: "sequence", participants: ["shell", "counter"], messages: [
            { from: "shell", to: "counter", text: "counter.increment", style: "send", late: false },
            { from: "counter", to: "counter", text: "state changed", style: "state", late: true }] },
          { kind: "help", cluster: "demo", targets: [{ name: "counter", targetKind: "store", commands: ["increment", "reset"] }],
            meta: [{ name: "help", arguments: "[topic]", summary: "targets and commands" }] },
          { kind: "help", target: "counter", targetKind: "store", commands: [{ name: "increment", synopsis: "counter.increment [value=Int, default 1]", summary: "Adds." }] },
          { kind: "help", target: "counter", command: "increment", summary: "Adds.", fields: [{ name: "value", type: "Int", required: false, default: "1", help: "How much." }] },
          { kind: "help", meta: "state", arguments: "[target [path]]", summary: "the current state", details: [":state counter   one target's"] },
          { kind: "event", source: "account", by: "the app: account.tick", type: "Ticked", value: 1 },
        ].map((message) => Timeline.describe(message))));
    """)
    assert described == [
        ["snapshot", "'signed-in' keeps account, counter; left out, they cannot be restored: auth"],
        ["restored", "'signed-in': account, counter; left as they are, they cannot be restored: auth"],
        ["undone", "#3 counter.increment: counter"],
        ["reset", "counter; left as they are, they cannot be reset: keys"],
        ["state", "counter: CounterState", '{\n  "count": 1\n}'],
        ["trace", "identity.login: 2 hops", "identity.login\n  articles.load (late)"],
        ["watch", 'cart.items["x"] by #20 :undo: 5 → (absent)'],
        ["blame", "counter.count: 2 changes", "#5 counter.increment  counter.count: 0 → 1\nthe app: counter.reset  counter.count: 1 → 0"],
        ["sequence", "shell · counter: 2 arrows", "shell → counter: counter.increment\ncounter → counter: state changed (late)"],
        ["help", "demo: 1 target, 1 meta commands", "counter (store): increment, reset\n\n:help [topic]  — targets and commands"],
        ["help", "counter (store)", "counter.increment [value=Int, default 1]  — Adds."],
        ["help", "counter.increment  — Adds.", "value: Int, default 1  — How much."],
        ["help", ":state [target [path]]  — the current state", ":state counter   one target's"],
        ["event", "account (by the app: account.tick): Ticked 1"],
    ], described

    print("step: a sequence diagram is as wide as its labels: one on the last lifeline is not cut", flush=True)
    cut = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("./why.js").then(({ draw }) => {
          const drawn = draw({ participants: ["shell", "cart"], messages: [
            { from: 0, to: 1, text: "cart.add name=apple", style: "send" },
            { from: 1, to: 1, text: 'event ItemAdded(name: "a very long name of an item", quantity: 1)', style: "event" },
            { from: 1, to: 0, text: "reply", style: "reply", late: true }] });
          document.body.append(drawn);
          const width = drawn.width.baseVal.value;
          const overflow = [...drawn.querySelectorAll("text")].map((t) => t.getBBox()).filter((b) => b.x < 0 || b.x + b.width > width);
          drawn.remove();
          done(overflow.length);
        }, (error) => done(String(error)));
    """)
    assert cut == 0, f"{cut} labels outside the diagram"
    print("ok", flush=True)
except AssertionError as failure:
    print(f"failed: {failure}", flush=True)
    sys.exit(1)
finally:
    driver.quit()
