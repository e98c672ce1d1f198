// What both hosts of a self-contained HTML file share (standalone_lesson.js, standalone_model.js):
// reading the numbers the file carries, showing its note, and the message for anything it does
// not hold. The file was written by attnlab.export.standalone; it makes no request.

/** The data written into the file's <script type="application/json" id="attnlab-data">. */
export function fileData(doc = document) {
  const node = doc.getElementById("attnlab-data");
  return JSON.parse(node?.textContent ?? "null");
}

/** Put the file's note (what it holds, in the page's words) above the view. */
export function showNote(doc, data) {
  const note = doc.getElementById("attnlab-note");
  if (note) note.textContent = data.note ?? "";
}

/** The error a view shows when asked for what the file does not hold. */
export function notHeld(data, field) {
  const template = data.words?.["standalone.not_in_file"] ?? "";
  return { message: template.replace("{held}", data.held ?? ""), field };
}
