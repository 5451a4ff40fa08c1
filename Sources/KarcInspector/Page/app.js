// The inspector's page: the session's messages (the JSON objects `karc
// --json` prints, docs/shell.md, plus `begin`, `hello` and `skipped`) on the
// timeline; the selected command's states, why and tools beside it, asked
// of the session when shown; a command box at the bottom.
import { connect, element } from "./wire.js";
import { Timeline } from "./timeline.js";
import { StatePanel } from "./state.js";
import { showWhy } from "./why.js";
import { CommandBox } from "./box.js";
import { Tools } from "./tools.js";

const byID = (id) => document.getElementById(id);
const status = byID("status");
let overview = { cluster: "", targets: [], watches: [], snapshots: [], last: 0 };
let selected = null;
let tab = "state";

const wire = connect({
  onMessage: (message) => {
    timeline.add(message);
    tools.show(message);
    if (message.kind === "done" || message.kind === "skipped") soon();
  },
  onStatus: (kind, text) => {
    status.className = `status ${kind}`;
    status.textContent = text;
    if (kind === "live") refresh();
  },
});
const timeline = new Timeline(byID("timeline"), { onSelect: select, onCount: (text) => { byID("counts").textContent = text; } });
const statePanel = new StatePanel(byID("state"), wire.ask);
const box = new CommandBox(byID("box"), wire.ask, { onRan: () => soon() });
const tools = new Tools(byID("tools"), (line) => box.run(line));

/// The overview again, at most once a second (a script runs thousands of commands a second).
let due = null;
function soon() {
  if (due) return;
  due = setTimeout(() => {
    due = null;
    refresh();
  }, 1000);
}

async function refresh() {
  const answer = await wire.ask({ ask: "overview" });
  if (answer.error) return;
  const first = overview.targets.length === 0;
  overview = answer;
  byID("cluster").textContent = answer.cluster;
  tools.update(answer);
  document.body.classList.toggle("read-only", Boolean(answer.readOnly));
  if (answer.readOnly) {
    byID("command").placeholder = "read-only: :state, :watch, :blame, :trace, :seq and :history work; sends are off";
  } else {
    // A command of this cluster's (the app's own, not the demo's), as the session's errors show one.
    byID("command").placeholder = `a command, as at the prompt: ${answer.example} (Tab completes, ↑ ↓ history)`;
  }
  if (first) {
    const target = byID("target-filter");
    for (const t of answer.targets) target.append(new Option(t.name, t.name));
    details();
  } else if (selected === null && tab === "state") {
    // The states now changed: drawn again, unless someone opened a part (a redraw would close it); then offered.
    if (!document.querySelector("#state details[data-path][open]")) details();
    else if (!document.querySelector("#selected .stale")) {
      const stale = element("button", "stale", "states changed: show them");
      stale.addEventListener("click", () => details());
      byID("selected").append(stale);
    }
  }
}

function select(seq) {
  selected = seq;
  timeline.select(seq);
  details();
}

function details() {
  const head = byID("selected");
  head.replaceChildren();
  if (selected === null) {
    head.append(element("span", "", "States now"));
  } else {
    head.append(element("span", "", `After #${selected} `), element("code", "", timeline.textOf(selected)));
    const now = element("button", "", "now");
    now.addEventListener("click", () => select(null));
    const back = element("button", "back", "go back to here");
    back.title = "put every state that can be restored back as it was after this command (:undo)";
    back.addEventListener("click", async () => {
      const answer = await wire.ask({ ask: "back", seq: selected });
      box.said.className = `said ${answer.error ? "error" : answer.outcome}`;
      const left = answer.left?.length ? `; left as they are, they cannot be restored: ${answer.left.join(", ")}` : "";
      box.said.textContent = answer.error ?? `#${answer.seq}: went back to after #${selected} (${answer.outcome})${left}`;
      // The states now are the ones after that command; those after the commands undone are gone.
      if (!answer.error) select(null);
      soon();
    });
    head.append(now, back);
  }
  for (const name of ["state", "why", "tools"]) {
    byID(name).classList.toggle("hidden", name !== tab);
    byID(`tab-${name}`).classList.toggle("on", name === tab);
  }
  const messages = selected === null ? [] : timeline.messagesOf(selected);
  if (tab === "state") {
    const changed = [...new Set(messages.filter((m) => m.kind === "state").map((m) => m.target))];
    statePanel.show(selected, overview.targets, changed, messages);
  } else if (tab === "why") {
    if (selected === null) byID("why").replaceChildren(element("div", "dim", "select a command on the timeline to see what it caused"));
    else showWhy(byID("why"), wire.ask, selected);
  }
}

for (const name of ["state", "why", "tools"]) {
  byID(`tab-${name}`).addEventListener("click", () => {
    tab = name;
    details();
  });
}

function filters() {
  const text = byID("filter");
  let pattern = null;
  text.setCustomValidity("");
  try {
    pattern = text.value ? new RegExp(text.value, "i") : null;
  } catch {
    text.setCustomValidity("not a regular expression");
  }
  timeline.setFilter({ text: pattern, target: byID("target-filter").value, kind: byID("kind-filter").value, outcome: byID("outcome-filter").value });
}
for (const kind of Timeline.kinds) byID("kind-filter").append(new Option(kind, kind));
for (const id of ["filter", "target-filter", "kind-filter", "outcome-filter"]) byID(id).addEventListener("input", filters);
