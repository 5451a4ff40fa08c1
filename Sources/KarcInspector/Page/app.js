// The inspector's page: one WebSocket of the session's messages, the same
// JSON objects `karc --json` prints (docs/shell.md), plus `begin` (a command
// line starts), `hello` and `skipped` (messages this page fell behind on).
// Every value is shown as text (textContent), never as markup.

const timeline = document.getElementById("timeline");
const status = document.getElementById("status");
const counts = document.getElementById("counts");
const filter = document.getElementById("filter");
const failuresOnly = document.getElementById("failures");
const commands = new Map();
let total = 0;
let failed = 0;
let skipped = 0;

const token = new URLSearchParams(location.search).get("token") ?? "";
const socket = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`);
socket.onopen = () => setStatus("live", "live");
socket.onclose = (event) => setStatus("ended", `ended: ${event.reason || "the connection closed"}`);
socket.onmessage = (message) => show(JSON.parse(message.data));

function setStatus(kind, text) {
  status.className = `status ${kind}`;
  status.textContent = text;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/// What a message says, in one line (and a block for a diff).
function describe(message) {
  switch (message.kind) {
    case "reply": return [message.late ? "late reply" : "reply", `${message.type} ${JSON.stringify(message.value)}`];
    case "event": return [message.late ? "late event" : "event", `${message.source}: ${message.type} ${JSON.stringify(message.value)}`];
    case "state": return ["state", `${message.target}${message.by ? ` (by ${message.by})` : ""}`, message.diff];
    case "redirect": return ["redirect", `${message.type} ${JSON.stringify(message.value)} by ${message.by} → ${JSON.stringify(message.to)}`];
    case "error": return ["error", message.message];
    case "timeout": return ["timeout", message.message];
    case "timing": return ["time", `${message.milliseconds.toFixed(3)} ms`];
    default: return [message.kind, message.message ?? JSON.stringify(message)];
  }
}

function commandRow(seq) {
  let row = commands.get(seq);
  if (!row) {
    row = element("li", "command");
    const head = element("div", "head");
    head.append(element("span", "seq", `#${seq}`), element("span", "text", ""), element("span", "outcome", "running"));
    row.append(head);
    commands.set(seq, row);
    timeline.append(row);
  }
  return row;
}

function show(message) {
  switch (message.kind) {
    case "hello":
      return;
    case "skipped":
      skipped += message.count;
      timeline.append(element("li", "notice", `${message.count} messages skipped: this page fell behind the session`));
      break;
    case "begin": {
      const row = commandRow(message.seq);
      row.querySelector(".text").textContent = message.text;
      total += 1;
      break;
    }
    case "done": {
      const row = commandRow(message.seq);
      row.classList.add(message.outcome);
      const outcome = row.querySelector(".outcome");
      outcome.textContent = message.outcome;
      outcome.className = `outcome ${message.outcome}`;
      if (message.outcome !== "ok") failed += 1;
      apply(row);
      break;
    }
    default: {
      const [kind, text, block] = describe(message);
      const line = element("div", "line");
      line.append(element("span", `kind ${message.kind === "error" ? "error" : ""}`, kind));
      const body = element("span", message.late ? "late" : "", text);
      line.append(body);
      if (message.seq !== undefined) {
        const row = commandRow(message.seq);
        row.append(line);
        if (block) row.append(element("pre", "", block));
        apply(row);
      } else {
        const row = element("li", "between");
        row.append(line);
        if (block) row.append(element("pre", "", block));
        timeline.append(row);
        apply(row);
      }
    }
  }
  counts.textContent = `${total} commands, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}

let atBottom = true;
window.addEventListener("scroll", () => {
  atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
});

function matcher() {
  try {
    return filter.value ? new RegExp(filter.value, "i") : null;
  } catch {
    filter.setCustomValidity("not a regular expression");
    return null;
  }
}

/// Hides a row the filter does not match (its whole text) or that did not fail, when only failures are shown.
function apply(row, pattern = matcher()) {
  filter.setCustomValidity("");
  const hidden = (pattern && !pattern.test(row.textContent)) ||
    (failuresOnly.checked && !(row.classList.contains("error") || row.classList.contains("interrupted")));
  row.classList.toggle("hidden", Boolean(hidden));
}

function applyAll() {
  const pattern = matcher();
  for (const row of timeline.children) apply(row, pattern);
}
filter.addEventListener("input", applyAll);
failuresOnly.addEventListener("change", applyAll);
