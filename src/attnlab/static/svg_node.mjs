// The SVG of one beat without a browser: `attnlab export ... -o picture.svg` runs this under
// Node.js with the lesson's (or a real head's) JSON on stdin, and it writes the SVG the page's
// Export menu would: the same layout (layout.js, model_layout.js) and the same drawer
// (draw_svg.js). With no canvas to measure text, a text the canvas would squeeze into its
// maxWidth is measured by layout_text.js's rough width instead.
//
// stdin: {"kind": "lesson" | "model", "trace": <the API's answer>, "words": {...},
//         "beat": 0..5, "width": CSS px, "height": CSS px (a lesson; a model's comes from its rows)}

import { drawSVG } from "./draw_svg.js";
import { decodeLesson } from "./format.js";
import { layout } from "./layout.js";
import { textWidth } from "./layout_text.js";
import { beatLayout, pictureHeight } from "./model_layout.js";
import { decodeModelTrace } from "./packed.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const ask = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// a real head crosses packed (encode/packed.py): decoded as the page decodes it (model.js)
const trace = ask.kind === "model" ? decodeModelTrace(ask.trace) : decodeLesson(ask.trace);
const keys = trace.narration.map((b) => b.key);
const beat = keys[ask.beat] ?? keys[0];
const width = ask.width;
const height = ask.kind === "model" ? Math.max(240, pictureHeight(trace.tokens.length, width, beat)) : ask.height;
const size = { width, height };
const laid = ask.kind === "model" ? beatLayout(trace, size, beat, trace.focus, ask.words) : layout(trace, size, beat, trace.focus, ask.words);
const measure = (text, font) => textWidth(text, Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 12), font.includes("mono"));
const title = ask.words[ask.kind === "model" ? "model.canvas.name" : "canvas.lesson"] ?? "";
process.stdout.write(drawSVG(laid.shapes, size, { title, description: laid.description, measure }));
