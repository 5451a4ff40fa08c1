// The timeline: a row a command (number, text, outcome, time), its replies,
// events, redirects and changes of state under it; what no command of this
// page's session did (a timer, another shell, the app) between them, with its
// origin. Every value is shown as text (textContent), never as markup.
//
// Messages are drawn in batches, one a frame (`add`), so a page keeps up
// with a session that runs a script at full speed; it keeps the newest
// `limit` rows (a failed command's row stays longer: the newest `failures`
// of them are never trimmed), and what the session left out for it is one
// notice that counts on, not a row each time.
import { element } from "./wire.js";

const kinds = ["reply", "event", "state", "redirect", "error", "timeout", "watch", "note", "log"];

export class Timeline {
  constructor(list, { onSelect, onCount, limit = 5000, failures = 500 }) {
    this.list = list;
    this.onSelect = onSelect;
    this.onCount = onCount;
    this.limit = limit;
    this.keptFailures = failures;
    this.commands = new Map();
    this.messages = new Map();
    this.total = 0;
    this.failed = 0;
    this.skipped = { messages: 0, commands: 0 };
    this.notice = null;
    this.dropped = 0;
    this.earlier = null;
    this.queue = [];
    this.due = false;
    this.filter = { text: null, target: "", kind: "", outcome: "" };
    this.atBottom = true;
    window.addEventListener("scroll", () => {
      this.atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
    });
  }

  static get kinds() { return kinds; }

  /// What a message says, in one line (and a block for a diff or a state).
  static describe(message) {
    // A part that is not there (before it appeared, after it went) has no value in the message.
    const value = (v) => (v === undefined ? "(absent)" : JSON.stringify(v));
    const left = (targets, how) => (targets?.length ? `; ${how}, they cannot be restored: ${targets.join(", ")}` : "");
    // Who made a change or set off an event no command of this session did.
    const by = message.by ? ` (by ${message.by})` : "";
    switch (message.kind) {
      case "reply": return [message.late ? "late reply" : "reply", `${message.type} ${value(message.value)}`];
      case "event": return [message.late ? "late event" : "event", `${message.source}${by}: ${message.type} ${value(message.value)}`];
      case "state": return ["state", `${message.target}${by}`, message.diff];
      case "redirect": return ["redirect", `${message.type} ${value(message.value)} by ${message.by} → ${value(message.to)}`];
      case "error": return ["error", message.message];
      case "timeout": return ["timeout", message.message];
      case "timing": return ["time", `${message.milliseconds.toFixed(3)} ms`];
      case "watch": return ["watch", `${message.target}.${message.path} by ${message.by}: ${value(message.old)} → ${value(message.new)}`];
      case "blame":
        return ["blame", `${message.path}: ${message.changes.length} change${message.changes.length === 1 ? "" : "s"}${message.more ? " (the latest)" : ""}`,
          message.changes.map((c) => `${c.number !== undefined ? `#${c.number} ${c.line ?? ""}` : c.by}  ${c.target}.${c.path}: ` +
            `${value(c.old)} → ${value(c.new)}`).join("\n") || undefined];
      case "snapshot":
        return ["state", `${message.target}${message.path ? ` ${message.path}` : ""}: ${message.type}`, JSON.stringify(message.value, null, 2)];
      case "snapshot-kept":
        return ["snapshot", `'${message.name}' keeps ${message.targets.join(", ")}${left(message.left, "left out")}`];
      case "snapshots":
        return ["snapshots", message.snapshots.length ? message.snapshots.map((s) => `'${s.name}'${s.after !== undefined ? ` after #${s.after}` : ""}`).join(", ") : "none"];
      case "snapshot-restored":
        return [message.name ? "restored" : "undone",
          (message.name ? `'${message.name}'` : message.undone.map((c) => `#${c.number} ${c.line}`).join(", ")) +
          `: ${message.targets.join(", ") || "no target"}${left(message.left, "left as they are")}`];
      case "reset": return ["reset", `${message.changed.join(", ") || "nothing changed"}${message.left.length ? `; left as they are, they cannot be reset: ${message.left.join(", ")}` : ""}`];
      case "setting": return ["setting", `${message.name} ${message.value}`];
      case "watches": return ["watches", message.paths.join(", ") || "none"];
      case "history": return ["history", `${message.number} ${message.line}${message.outcome ? ` (${message.outcome})` : ""}`];
      case "sequence":
        return ["sequence", `${message.participants.join(" · ")}: ${message.messages.length} arrow${message.messages.length === 1 ? "" : "s"}`,
          message.messages.map((m) => `${m.from} → ${m.to}: ${m.text}${m.late ? " (late)" : ""}`).join("\n") || undefined];
      case "trace":
        return ["trace", `${message.command}: ${message.hops.length} hop${message.hops.length === 1 ? "" : "s"}`,
          message.hops.map((h) => `${"  ".repeat(h.depth)}${h.text}${h.late ? " (late)" : ""}`).join("\n")];
      case "help": return Timeline.help(message);
      default: return [message.kind, message.message ?? JSON.stringify(message)];
    }
  }

  /// What `:help` said, as the terminal says it: a headline, and the lines under it.
  static help(message) {
    if (message.cluster !== undefined) {
      const targets = (message.targets ?? []).map((t) => `${t.name} (${t.targetKind}): ${t.commands.join(", ")}`);
      const metas = (message.meta ?? []).map((m) => `:${m.name}${m.arguments ? ` ${m.arguments}` : ""}  — ${m.summary}`);
      return ["help", `${message.cluster}: ${targets.length} target${targets.length === 1 ? "" : "s"}, ${metas.length} meta commands`,
        [...targets, "", ...metas].join("\n")];
    }
    if (typeof message.meta === "string") {
      return ["help", `:${message.meta}${message.arguments ? ` ${message.arguments}` : ""}  — ${message.summary ?? ""}`,
        (message.details ?? []).join("\n") || undefined];
    }
    if (message.command !== undefined) {
      const fields = (message.fields ?? []).map((f) =>
        `${f.name}: ${f.type}${f.required ? "" : f.default !== undefined ? `, default ${f.default}` : ", optional"}${f.help ? `  — ${f.help}` : ""}`);
      return ["help", `${message.target}.${message.command}${message.summary ? `  — ${message.summary}` : ""}`,
        fields.length ? fields.join("\n") : "it takes no fields"];
    }
    if (message.target !== undefined) {
      return ["help", `${message.target}${message.targetKind ? ` (${message.targetKind})` : ""}`,
        (message.commands ?? []).map((c) => `${c.synopsis}${c.summary ? `  — ${c.summary}` : ""}`).join("\n") || undefined];
    }
    return ["help", message.summary ?? ""];
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

  /// Queues `message`, drawn with the others that came before the next frame.
  add(message) {
    this.queue.push(message);
    if (this.due) return;
    this.due = true;
    // A timer, not an animation frame: a tab in the background still empties its queue (once a second).
    setTimeout(() => this.flush(), 16);
  }

  /// Draws every queued message, then the counts and the scroll, once.
  flush() {
    this.due = false;
    const messages = this.queue;
    this.queue = [];
    for (const message of messages) this.show(message);
    this.trim();
    const notShown = this.skipped.commands + this.skipped.messages;
    this.onCount(`${this.total} commands, ${this.failed} failed` +
      (notShown ? `, ${this.skipped.commands} commands and ${this.skipped.messages} messages not shown` : ""));
    if (this.atBottom) window.scrollTo(0, document.body.scrollHeight);
  }

  /// The newest `limit` rows stay; the oldest go, counted in one row at the
  /// top. A failed command's row is passed over (what a user looks for after
  /// a fast script), unless more than `keptFailures` of them are on the page.
  trim() {
    let extra = this.list.children.length - (this.earlier ? 1 : 0) - (this.notice ? 1 : 0) - this.limit;
    if (extra <= 0) return;
    let failures = this.list.querySelectorAll("li.command[data-failed]").length;
    let row = this.earlier ? this.earlier.nextElementSibling : this.list.firstElementChild;
    while (extra > 0 && row) {
      const next = row.nextElementSibling;
      const failed = row.dataset.failed !== undefined;
      if (row === this.notice || (failed && failures <= this.keptFailures)) {
        row = next;
        continue;
      }
      if (failed) failures -= 1;
      if (row.dataset.seq !== undefined) {
        this.commands.delete(Number(row.dataset.seq));
        this.messages.delete(Number(row.dataset.seq));
      }
      row.remove();
      this.dropped += 1;
      extra -= 1;
      row = next;
    }
    if (this.dropped === 0) return;
    if (!this.earlier) {
      this.earlier = element("li", "notice earlier", "");
      this.list.prepend(this.earlier);
    }
    this.earlier.textContent = `${this.dropped} earlier rows are no longer on this page (:history lists every command)`;
  }

  show(message) {
    switch (message.kind) {
      case "hello": return;
      case "skipped": {
        this.skipped.messages += message.count;
        this.skipped.commands += message.commands ?? 0;
        this.total += message.commands ?? 0;
        if (!this.notice) {
          this.notice = element("li", "notice skipped");
          this.notice.append(element("span", "", ""));
          const catchUp = element("button", "", "catch up");
          catchUp.title = "load the page again: it is sent the last 2,000 messages";
          catchUp.addEventListener("click", () => location.reload());
          this.notice.append(catchUp);
        }
        const { commands, messages } = this.skipped;
        this.notice.firstChild.textContent = `${commands} command${commands === 1 ? "" : "s"} and ${messages} message${messages === 1 ? "" : "s"} ` +
          "not shown: the session ran faster than this page can show (it was not slowed) ";
        // One notice, moved to the newest place: the last time the page fell behind.
        this.list.append(this.notice);
        break;
      }
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
        if (message.outcome !== "ok") {
          this.failed += 1;
          row.dataset.failed = "";
        }
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
    for (const row of this.list.children) if (row.dataset.seq !== undefined || row.classList.contains("between")) this.apply(row);
  }

  select(seq) {
    for (const row of this.list.querySelectorAll(".selected")) row.classList.remove("selected");
    this.commands.get(seq)?.classList.add("selected");
  }
}
