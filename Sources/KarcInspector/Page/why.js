// The Why panel: the selected command's causal tree (`:trace N`) and its
// sequence diagram (`:seq N`), drawn here as SVG with the terminal's rules:
// a lifeline a participant in the order they appear, a send an arrow, a
// reply or failure a dashed arrow back, an event, change or redirect a mark
// on its lifeline, late work marked. Downloads as SVG or Mermaid.
import { element } from "./wire.js";

const svgNS = "http://www.w3.org/2000/svg";
const colors = { send: "#36c", reply: "#2a7", failure: "#d33", event: "#a0a", state: "#888", redirect: "#a70" };

function svg(tag, attributes, text) {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function download(name, type, text) {
  const link = element("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

export async function showWhy(root, ask, seq) {
  root.replaceChildren(element("div", "dim", "…"));
  const [trace, diagram] = await Promise.all([ask({ ask: "trace", seq }), ask({ ask: "diagram", seq })]);
  root.replaceChildren();
  if (trace.error) return root.append(element("div", "error", trace.error));
  root.append(element("h3", "", `#${seq} ${trace.name ?? ""}: what it caused`));
  const tree = element("ol", "trace");
  for (const line of trace.lines) {
    const item = element("li", `hop ${line.kind}${line.late ? " late" : ""}`);
    item.style.paddingLeft = `${line.depth * 1.4}em`;
    item.append(element("span", "", line.text));
    tree.append(item);
  }
  root.append(tree);
  if (diagram.error) return root.append(element("div", "error", diagram.error));
  const drawn = draw(diagram);
  const tools = element("div", "tools");
  const asSVG = element("button", "", "download SVG");
  asSVG.addEventListener("click", () =>
    download(`karc-${seq}.svg`, "image/svg+xml", new XMLSerializer().serializeToString(drawn)));
  const asMermaid = element("button", "", "download Mermaid");
  asMermaid.addEventListener("click", () => download(`karc-${seq}.md`, "text/markdown", diagram.mermaid));
  tools.append(asSVG, asMermaid);
  root.append(element("h3", "", "sequence"), tools, drawn);
}

/// The diagram as SVG, styled inline so a downloaded copy looks the same.
export function draw(diagram) {
  const width = Math.max(150, ...diagram.participants.map((p) => p.length * 8 + 30));
  const labelWidth = Math.max(0, ...diagram.messages.map((m) => m.text.length * 7 + 40));
  const column = Math.max(width, Math.min(labelWidth, 420));
  // Each label's extent (a 12px monospace character is about 7.2px): one past the lifelines
  // (a state change on the last, a long label between the first two) widens the picture, never cut.
  const characterWidth = 7.2;
  const label = (message) => (message.late ? `${message.text} (late)` : message.text);
  const centre = (i) => 20 + column / 2 + i * column;
  const extents = diagram.messages.map((message) => {
    const length = label(message).length * characterWidth;
    if (message.from === message.to) return [centre(message.from), centre(message.from) + 10 + length];
    const middle = (centre(message.from) + centre(message.to)) / 2;
    return [middle - length / 2, middle + length / 2];
  });
  const shift = Math.max(0, 10 - Math.min(10, ...extents.map(([left]) => left)));
  const x = (i) => shift + centre(i);
  const top = 40;
  const row = 34;
  const height = top + 20 + diagram.messages.length * row;
  const right = Math.max(40 + column * diagram.participants.length, ...extents.map(([, end]) => end + 10)) + shift;
  const root = svg("svg", {
    xmlns: svgNS, class: "sequence", width: Math.ceil(right), height,
    "font-family": "ui-monospace, Menlo, monospace", "font-size": "12",
  });
  root.append(svg("defs", {}));
  for (const [style, color] of Object.entries(colors)) {
    const marker = svg("marker", { id: `arrow-${style}`, viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
    root.firstChild.append(marker);
  }
  diagram.participants.forEach((name, i) => {
    const lifeline = svg("g", { class: "lifeline", "data-name": name });
    lifeline.append(svg("rect", { x: x(i) - width / 2 + 10, y: 4, width: width - 20, height: 24, rx: 4, fill: "none", stroke: "#888" }));
    lifeline.append(svg("text", { x: x(i), y: 21, "text-anchor": "middle", fill: "currentColor" }, name));
    lifeline.append(svg("line", { x1: x(i), y1: 28, x2: x(i), y2: height - 6, stroke: "#888", "stroke-dasharray": "2 3" }));
    root.append(lifeline);
  });
  diagram.messages.forEach((message, index) => {
    const y = top + 14 + index * row;
    const color = colors[message.style] ?? "#888";
    const group = svg("g", { class: `message ${message.style}${message.late ? " late" : ""}`, "data-from": diagram.participants[message.from], "data-to": diagram.participants[message.to] });
    const text = label(message);
    if (message.from === message.to) {
      group.append(svg("circle", { cx: x(message.from), cy: y, r: 5, fill: color }));
      group.append(svg("text", { x: x(message.from) + 10, y: y + 4, fill: color }, text));
    } else {
      const dashed = message.style === "reply" || message.style === "failure";
      group.append(svg("line", {
        x1: x(message.from), y1: y, x2: x(message.to), y2: y, stroke: color, "stroke-width": 1.5,
        "marker-end": `url(#arrow-${message.style})`, ...(dashed ? { "stroke-dasharray": "5 4" } : {}),
      }));
      group.append(svg("text", { x: (x(message.from) + x(message.to)) / 2, y: y - 5, "text-anchor": "middle", fill: color }, text));
    }
    root.append(group);
  });
  return root;
}
