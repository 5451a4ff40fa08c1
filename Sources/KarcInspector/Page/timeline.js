// The timeline: a row a command (number, text, outcome, time), its replies,
// events, redirects and changes of state under it; what no command of this
// page's session did (a timer, another shell, the app) between them, with its
// origin. Every value is shown as text (textContent), never as markup.
import { element } from "./wire.js";

const kinds = ["reply", "event", "state", "redirect", "error", "timeout", "watch", "note", "log"];

export class Timeline {
  constructor(list, { onSelect, onCount }) {
    this.list = list;
    this.onSelect = onSelect;
    this.onCount = onCount;
    this.commands = new Map();
    this.messages = new Map();
    this.total = 0;
    this.failed = 0;
    this.skipped = 0;
    this.filter = { text: null, target: "", kind: "", outcome: "" };
    this.atBottom = true;
    window.addEventListener("scroll", () => {
      this.atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
    });
  }

  static get kinds() { return kinds; }

  /// What a message says, in one line (and a block for a diff).
  static describe(message) {
    const value = (v) => JSON.stringify(v);
    switch (message.kind) {
      case "reply": return [message.late ? "late reply" : "reply", `${message.type} ${value(message.value)}`];
      case "event": return [message.late ? "late event" : "event", `${message.source}: ${message.type} ${value(message.value)}`];
      case "state": return ["state", `${message.target}${message.by ? ` (by ${message.by})` : ""}`, message.diff];
      case "redirect": return ["redirect", `${message.type} ${value(message.value)} by ${message.by} → ${value(message.to)}`];
      case "error": return ["error", message.message];
      case "timeout": return ["timeout", message.message];
      case "timing": return ["time", `${message.milliseconds.toFixed(3)} ms`];
      case "watch": return ["watch", `${message.target}.${message.path} by ${message.by}: ${value(message.old)} → ${value(message.new)}`];
      case "blame": return ["blame", `${message.path}: ${message.changes.length} change${message.changes.length === 1 ? "" : "s"}`];
      default: return [message.kind, message.message ?? JSON.stringify(message)];
    }
  }

  row(seq) {
    let row = this.commands.get(seq);
    if (!row) {
      row = element("li", "command");
      row.dataset.seq = seq;
      row.dataset.kinds = "";
      row.dataset.targets = "";
      row.dataset.outcome = "running";
      const head = element("div", "head");
      head.append(element("span", "seq", `#${seq}`), element("span", "text", ""), element("span", "duration", ""),
        element("span", "outcome", "running"));
      row.append(head);
      row.addEventListener("click", () => this.onSelect(seq));
      this.commands.set(seq, row);
      this.messages.set(seq, []);
      this.list.append(row);
    }
    return row;
  }

  /// The messages the session sent about command `seq`, in order.
  messagesOf(seq) { return this.messages.get(seq) ?? []; }

  /// The command's text, as typed.
  textOf(seq) { return this.commands.get(seq)?.querySelector(".text").textContent ?? ""; }

  static mark(row, key, value) {
    if (value === undefined || value === null) return;
    const set = new Set(row.dataset[key].split(" ").filter(Boolean));
    set.add(String(value));
    row.dataset[key] = [...set].join(" ");
  }

  show(message) {
    switch (message.kind) {
      case "hello": return;
      case "skipped":
        this.skipped += message.count;
        const notice = element("li", "notice", `${message.count} messages skipped: this page fell behind the session `);
        const catchUp = element("button", "", "catch up");
        catchUp.title = "load the page again: it is sent the last 2,000 messages";
        catchUp.addEventListener("click", () => location.reload());
        notice.append(catchUp);
        this.list.append(notice);
        break;
      case "begin": {
        const row = this.row(message.seq);
        row.querySelector(".text").textContent = message.text;
        const target = /^([A-Za-z_][\w-]*)\./.exec(message.text);
        if (target) Timeline.mark(row, "targets", target[1]);
        this.total += 1;
        this.apply(row);
        break;
      }
      case "done": {
        const row = this.row(message.seq);
        row.classList.add(message.outcome);
        row.dataset.outcome = message.outcome;
        const outcome = row.querySelector(".outcome");
        outcome.textContent = message.outcome;
        outcome.className = `outcome ${message.outcome}`;
        if (message.outcome !== "ok") this.failed += 1;
        if (message.milliseconds !== undefined) row.querySelector(".duration").textContent = `${message.milliseconds.toFixed(3)} ms`;
        this.apply(row);
        break;
      }
      case "timing":
        if (message.seq !== undefined) {
          this.row(message.seq).querySelector(".duration").textContent = `${message.milliseconds.toFixed(3)} ms`;
          break;
        }
      // falls through: a timing of no command is a line of its own
      default: {
        const [kind, text, block] = Timeline.describe(message);
        const line = element("div", "line");
        line.append(element("span", `kind ${message.kind === "error" ? "error" : ""}`, kind));
        line.append(element("span", message.late ? "late" : "", text));
        let row;
        if (message.seq !== undefined) {
          row = this.row(message.seq);
          this.messages.get(message.seq).push(message);
        } else {
          row = element("li", "between");
          row.dataset.kinds = "";
          row.dataset.targets = "";
          row.dataset.outcome = "";
          this.list.append(row);
        }
        row.append(line);
        if (block) row.append(element("pre", "", block));
        Timeline.mark(row, "kinds", message.kind);
        Timeline.mark(row, "targets", message.target ?? message.source);
        this.apply(row);
      }
    }
    this.onCount(`${this.total} commands, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ""}`);
    if (this.atBottom) window.scrollTo(0, document.body.scrollHeight);
  }

  /// Hides a row the filters do not let through: its target, the kind of
  /// something it printed, its outcome, and a regular expression over its text.
  apply(row) {
    if (!row.dataset) return;
    const { text, target, kind, outcome } = this.filter;
    const has = (key, value) => row.dataset[key]?.split(" ").includes(value);
    const hidden = (text && !text.test(row.textContent)) || (target && !has("targets", target)) ||
      (kind && !has("kinds", kind)) || (outcome && row.dataset.outcome !== outcome);
    row.classList.toggle("hidden", Boolean(hidden));
  }

  setFilter(filter) {
    this.filter = filter;
    for (const row of this.list.children) this.apply(row);
  }

  select(seq) {
    for (const row of this.list.querySelectorAll(".selected")) row.classList.remove("selected");
    this.commands.get(seq)?.classList.add("selected");
  }
}
