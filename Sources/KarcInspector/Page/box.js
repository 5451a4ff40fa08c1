// The command box: a line runs in the session as one typed at its prompt
// (the terminal prints it too); Tab completes as the prompt does (targets,
// commands, fields, state paths), ↑ and ↓ walk this page's history.
import { element } from "./wire.js";

export class CommandBox {
  constructor(form, ask, { onRan }) {
    this.form = form;
    this.ask = ask;
    this.onRan = onRan;
    this.input = form.querySelector("input");
    this.said = form.querySelector(".said");
    this.choices = form.querySelector(".choices");
    this.history = [];
    this.back = 0;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.run(this.input.value);
    });
    this.input.addEventListener("keydown", (event) => this.key(event));
    // A refusal is about the line that was sent: it goes once the next one is being typed.
    this.input.addEventListener("input", () => {
      if (!this.said.classList.contains("error")) return;
      this.said.className = "said";
      this.said.textContent = "";
    });
  }

  async run(line) {
    if (!line.trim()) return;
    this.history.push(line);
    this.back = 0;
    this.input.value = "";
    this.choices.replaceChildren();
    this.said.className = "said";
    this.said.textContent = `running ${line}…`;
    const answer = await this.ask({ ask: "run", line });
    if (answer.error) {
      this.said.className = "said error";
      this.said.textContent = answer.error;
      return;
    }
    this.said.className = `said ${answer.outcome}`;
    this.said.textContent = `#${answer.seq} ${line}: ${answer.outcome}`;
    this.onRan(answer.seq);
  }

  async key(event) {
    if (event.key === "Tab") {
      event.preventDefault();
      const typed = this.input.value.slice(0, this.input.selectionStart);
      const rest = this.input.value.slice(this.input.selectionStart);
      const answer = await this.ask({ ask: "complete", line: typed });
      if (answer.error) return;
      this.input.value = typed + answer.insert + rest;
      const cursor = typed.length + answer.insert.length;
      this.input.setSelectionRange(cursor, cursor);
      this.choices.replaceChildren();
      for (const candidate of answer.candidates) {
        const choice = element("button", "choice", candidate);
        choice.type = "button";
        choice.addEventListener("click", () => {
          const words = typed.split(" ");
          words[words.length - 1] = candidate;
          this.input.value = words.join(" ") + (candidate.endsWith("=") || candidate.endsWith(".") ? "" : " ");
          this.choices.replaceChildren();
          this.input.focus();
        });
        this.choices.append(choice);
      }
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      if (!this.history.length) return;
      event.preventDefault();
      this.back = Math.max(0, Math.min(this.history.length, this.back + (event.key === "ArrowUp" ? 1 : -1)));
      this.input.value = this.back === 0 ? "" : this.history[this.history.length - this.back];
    } else if (event.key === "Escape") {
      this.choices.replaceChildren();
    }
  }
}
