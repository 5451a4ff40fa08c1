// The State panel: each target's state as a tree, as it was after the
// selected command (or now), fetched a part at a time (a 10,000-element
// list costs what is opened); the parts that command changed are marked,
// and its diff is shown readable and as a JSON Patch.
import { element } from "./wire.js";

const page = 200;

/// Whether `path` is a changed part, holds one, or is inside one (a new element's fields).
function holdsChange(path, changed) {
  const within = (inner, outer) => outer === "" || inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return changed.some((c) => within(c, path) || within(path, c));
}

export class StatePanel {
  constructor(root, ask) {
    this.root = root;
    this.ask = ask;
    /// The targets the user opened: open again when another command is selected.
    this.opened = new Set();
  }

  /// Shows every target's state after command `seq` (null: now); `changed` names the targets it changed, `messages` its state lines.
  show(seq, targets, changed, messages) {
    this.root.replaceChildren();
    const states = messages.filter((m) => m.kind === "state" && m.diff !== undefined);
    if (states.length) this.root.append(this.diffs(states));
    const search = element("form", "search");
    const which = element("select");
    for (const t of targets) which.append(new Option(t.name, t.name));
    const text = element("input");
    text.type = "search";
    text.placeholder = "find a field or a value";
    const found = element("div", "found");
    search.append(which, text, element("button", "", "find"), found);
    search.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = await this.ask({ ask: "search", target: which.value, text: text.value, after: seq ?? undefined });
      found.replaceChildren();
      if (answer.error) return found.append(element("div", "error", answer.error));
      if (!answer.paths.length) found.append(element("div", "dim", "nothing found"));
      for (const path of answer.paths) {
        const item = element("details", "part");
        item.append(element("summary", "", `${which.value} ${path}`));
        item.addEventListener("toggle", () => { if (item.open && !item.dataset.loaded) this.load(item, which.value, path, seq, []); });
        found.append(item);
      }
      if (!answer.complete) found.append(element("div", "dim", "more may match: only the first are listed"));
    });
    this.root.append(search);
    for (const target of targets) {
      const box = element("details", "target");
      box.dataset.target = target.name;
      const summary = element("summary", "", `${target.name}: ${target.type ?? "no state"}`);
      if (changed.includes(target.name)) summary.append(element("span", "changed-mark", " changed"));
      box.open = changed.includes(target.name) || this.opened.has(target.name);
      box.append(summary);
      box.addEventListener("toggle", () => {
        if (box.open) this.opened.add(target.name);
        else this.opened.delete(target.name);
        if (box.open && !box.dataset.loaded) this.load(box, target.name, "", seq, null);
      });
      this.root.append(box);
      if (box.open) this.load(box, target.name, "", seq, null);
    }
  }

  diffs(states) {
    const box = element("section", "diffs");
    const form = element("div", "diff-mode");
    const readable = element("button", "on", "readable");
    const patch = element("button", "", "JSON Patch");
    form.append(readable, patch);
    box.append(form);
    const blocks = states.map((m) => {
      const part = element("div", "diff");
      part.append(element("div", "kind", `${m.target}${m.by ? ` (by ${m.by})` : ""}`));
      const diff = element("pre", "readable", m.diff);
      const json = element("pre", "patch hidden", JSON.stringify(m.patch, null, 1));
      part.append(diff, json);
      box.append(part);
      return [diff, json];
    });
    const choose = (showPatch) => {
      readable.classList.toggle("on", !showPatch);
      patch.classList.toggle("on", showPatch);
      for (const [diff, json] of blocks) {
        diff.classList.toggle("hidden", showPatch);
        json.classList.toggle("hidden", !showPatch);
      }
    };
    readable.addEventListener("click", () => choose(false));
    patch.addEventListener("click", () => choose(true));
    return box;
  }

  /// Fills `box` with the part of `target` at `path` and its children, from `offset`.
  async load(box, target, path, seq, changed, offset = 0) {
    box.dataset.loaded = "yes";
    const answer = await this.ask({ ask: "state", target, path, after: seq ?? undefined, offset, limit: page });
    if (answer.error) return box.append(element("div", "error", answer.error));
    const known = changed ?? answer.changed ?? [];
    let list = box.querySelector(":scope > ul");
    if (!list) {
      if (answer.part.kind === "value") return box.append(element("div", "value", answer.part.text));
      list = element("ul", "tree");
      box.append(list);
    }
    box.querySelector(":scope > button.more")?.remove();
    for (const child of answer.children) list.append(this.node(target, child, seq, known));
    const shown = offset + answer.children.length;
    if (shown < answer.part.count) {
      const more = element("button", "more", `show ${Math.min(page, answer.part.count - shown)} more of ${answer.part.count}`);
      more.addEventListener("click", () => this.load(box, target, path, seq, known, shown));
      box.append(more);
    }
  }

  node(target, child, seq, changed) {
    const mark = holdsChange(child.path, changed) && changed.length ? " changed" : "";
    if (child.kind === "value") {
      const item = element("li", `leaf${mark}`);
      item.dataset.path = child.path;
      item.append(element("span", "key", child.step), element("span", "", ": "), element("span", "value", child.text));
      return item;
    }
    const item = element("li", `branch${mark}`);
    const box = element("details");
    box.dataset.path = child.path;
    const summary = element("summary");
    const size = child.kind === "fields" ? "" : ` (${child.count})`;
    summary.append(element("span", "key", child.step), element("span", "type", ` ${child.type}${size}`));
    box.append(summary);
    box.addEventListener("toggle", () => { if (box.open && !box.dataset.loaded) this.load(box, target, child.path, seq, changed); });
    item.append(box);
    return item;
  }
}
