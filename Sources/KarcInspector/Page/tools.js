// Watches, blame and snapshots, from the page: each button runs the meta
// command the prompt would (`:watch`, `:blame`, `:snapshot`, `:restore`), so
// the terminal and the timeline show it too; what comes back is listed here.
import { element } from "./wire.js";

export class Tools {
  constructor(root, run) {
    this.root = root;
    this.run = run;
    this.changes = element("ol", "watched");
    this.blame = element("div", "blame");
    this.watchList = element("ul", "watches");
    this.snapshotList = element("ul", "snapshots");
    const watch = this.form("path, like articles.items[0].likes", [
      ["watch", (path) => `:watch ${path}`],
      ["blame", (path) => `:blame ${path}`],
      ["unwatch", (path) => `:unwatch ${path}`],
    ]);
    const snapshot = this.form("snapshot name, or a file to load", [
      ["take", (name) => `:snapshot ${name}`],
      ["restore", (name) => `:restore ${name}`],
      ["save", (name) => `:snapshot save ${name} ${name}.json`],
      ["load", (file) => `:snapshot load ${file}`],
    ]);
    root.append(element("h3", "", "Watches"), watch, this.watchList, this.blame, element("h3", "", "Changes of watched parts"), this.changes,
      element("h3", "", "Snapshots"), snapshot, this.snapshotList);
  }

  form(placeholder, actions) {
    const form = element("form", "tool");
    const input = element("input");
    input.placeholder = placeholder;
    form.append(input);
    for (const [name, line] of actions) {
      const button = element("button", "", name);
      button.type = "button";
      button.dataset.action = name;
      button.addEventListener("click", () => { if (input.value.trim()) this.run(line(input.value.trim())); });
      form.append(button);
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      form.querySelector("button").click();
    });
    return form;
  }

  /// The session's watches and snapshots, from an overview.
  update(overview) {
    this.watchList.replaceChildren(...overview.watches.map((path) => element("li", "", path)));
    this.snapshotList.replaceChildren(...overview.snapshots.map((snapshot) => {
      const item = element("li", "", `${snapshot.name}${snapshot.after ? ` (after #${snapshot.after})` : ""} `);
      const restore = element("button", "", "restore");
      restore.addEventListener("click", () => this.run(`:restore ${snapshot.name}`));
      item.append(restore);
      return item;
    }));
  }

  /// A message of the session's: a watched part changed, or a blame came.
  show(message) {
    const text = (v) => (v === undefined ? "(absent)" : JSON.stringify(v));
    if (message.kind === "watch") {
      this.changes.append(element("li", "", `${message.target}.${message.path}: ${text(message.old)} → ${text(message.new)} by ${message.by}`));
      // The newest 500: a watched counter in a fast script changes thousands of times.
      if (this.changes.children.length > 500) this.changes.firstElementChild.remove();
    } else if (message.kind === "blame") {
      this.blame.replaceChildren(element("div", "kind", `who changed ${message.path}`));
      const list = element("ol");
      for (const change of message.changes) {
        list.append(element("li", "", `${change.by}: ${change.path} ${text(change.old)} → ${text(change.new)}`));
      }
      if (!message.changes.length) list.append(element("li", "dim", "no change seen this session"));
      this.blame.append(list);
    }
  }
}
