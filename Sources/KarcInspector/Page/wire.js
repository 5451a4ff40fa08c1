// The page's one WebSocket: the session's messages in, and questions out
// (`{"id":N,"ask":…}`), each answered by `{"kind":"answer","id":N,"answer":{…}}`
// among the messages. An answer that does not come in `timeout` ms says so.

export function connect({ onMessage, onStatus, timeout = 15000 }) {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  const socket = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`);
  const waiting = new Map();
  let lastID = 0;
  let open = false;
  socket.onopen = () => {
    open = true;
    onStatus("live", "live");
  };
  socket.onclose = (event) => {
    open = false;
    onStatus("ended", `ended: ${event.reason || "the connection closed"}`);
    for (const { resolve } of waiting.values()) resolve({ error: "the session ended" });
    waiting.clear();
  };
  socket.onmessage = (message) => {
    const object = JSON.parse(message.data);
    if (object.kind === "answer") {
      const asked = waiting.get(object.id);
      if (asked) {
        waiting.delete(object.id);
        clearTimeout(asked.timer);
        asked.resolve(object.answer);
      } else if (object.id === null && object.answer?.error) {
        onStatus("live", `the session refused a question: ${object.answer.error}`);
      }
      return;
    }
    onMessage(object);
  };

  /// The session's answer to `question` (an object; `error` when it could not answer).
  function ask(question) {
    if (!open) return Promise.resolve({ error: "not connected to the session" });
    lastID += 1;
    const id = lastID;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve({ error: `no answer in ${timeout / 1000} s: the session is busy with a long command` });
      }, timeout);
      waiting.set(id, { resolve, timer });
      socket.send(JSON.stringify({ id, ...question }));
    });
  }
  return { ask };
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
