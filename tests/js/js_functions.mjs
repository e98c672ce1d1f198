// Every function of a JavaScript module with its first and last line, found by a tokenizer
// (there is no JavaScript parser offline here: no acorn, no esprima, and Node exposes none).
// The tokenizer skips what may hold a brace that is not code: strings, template literals
// (whose ${…} holes are code again, nested to any depth), regular-expression literals (told
// from a division by the token before them, as the language's grammar tells them) and
// comments. A function is a body `{` after `=>`, or after a parameter list `( … )` opened
// by `function`, `function name`, `function*` or a method's name (`name(…) {`, `get x() {`),
// never after `if`, `for`, `while`, `switch`, `catch` or `with`. Its lines run from its
// header (the name, `function`, or the arrow's parameters) to its closing brace.

const REGEX_AFTER = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "with", "function", "return", "typeof", "await", "new", "in", "of", "delete", "void", "throw", "case", "yield"]);

/**
 * The module's tokens: {type: "name" | "punct" | "string" | "template" | "regex" | "number",
 * value, line}. Template holes' `${` and `}` are not "{" / "}" tokens, so braces balance as code.
 * @param {string} src
 */
export function tokenize(src) {
  const out = [];
  const braces = []; // true: a template's ${ hole, false: a code brace
  let i = 0;
  let line = 1;
  const n = src.length;
  const last = () => out[out.length - 1];
  const regexAllowed = () => {
    const t = last();
    if (!t) return true;
    if (t.type === "name") return REGEX_AFTER.has(t.value);
    if (t.type === "punct") return !(t.value === ")" || t.value === "]" || t.value === "}");
    return false; // after a string, number, template or regex: a division
  };
  const advance = (to) => {
    for (let k = i; k < to; k++) if (src[k] === "\n") line++;
    i = to;
  };
  /** A template's characters from i up to its end or a hole; true when a hole opened. */
  const templatePart = (startLine) => {
    let j = i;
    while (j < n && src[j] !== "`" && !(src[j] === "$" && src[j + 1] === "{")) j += src[j] === "\\" ? 2 : 1;
    if (j >= n) throw new SyntaxError(`template literal from line ${startLine} is never closed`);
    const hole = src[j] === "$";
    advance(j + (hole ? 2 : 1));
    out.push({ type: "template", value: hole ? "${" : "`", line: startLine });
    if (hole) braces.push(true);
    return hole;
  };
  while (i < n) {
    const c = src[i];
    const startLine = line;
    if (c === "\n" || c === " " || c === "\t" || c === "\r") advance(i + 1);
    else if (c === "/" && src[i + 1] === "/") advance(src.indexOf("\n", i) < 0 ? n : src.indexOf("\n", i));
    else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new SyntaxError(`comment from line ${startLine} is never closed`);
      advance(end + 2);
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      if (src[j] !== c) throw new SyntaxError(`string on line ${startLine} is never closed`);
      out.push({ type: "string", value: src.slice(i, j + 1), line: startLine });
      advance(j + 1);
    } else if (c === "`") {
      advance(i + 1);
      templatePart(startLine);
    } else if (c === "}" && braces[braces.length - 1] === true) {
      braces.pop(); // a template's hole closes: the template goes on
      advance(i + 1);
      templatePart(startLine);
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && (inClass || src[j] !== "/")) {
        if (src[j] === "\n") throw new SyntaxError(`regular expression on line ${startLine} is never closed`);
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      j++;
      while (j < n && /[a-z]/i.test(src[j])) j++; // its flags
      out.push({ type: "regex", value: src.slice(i, j), line: startLine });
      advance(j);
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$\u0080-\uffff]/.test(src[j])) j++;
      out.push({ type: "name", value: src.slice(i, j), line: startLine });
      advance(j);
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(src[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < n && (/[\w.]/.test(src[j]) || (/[eE]/.test(src[j - 1]) && /[+-]/.test(src[j])))) j++;
      out.push({ type: "number", value: src.slice(i, j), line: startLine });
      advance(j);
    } else {
      const value = c === "=" && src[i + 1] === ">" ? "=>" : c;
      if (value === "{") braces.push(false);
      else if (value === "}") braces.pop();
      out.push({ type: "punct", value, line: startLine });
      advance(i + value.length);
    }
  }
  return out;
}

/** The name an arrow or function expression is given: `const name = …`, `name: …`, `name = …`. */
function givenName(tokens, k) {
  const before = tokens[k - 1];
  const name = tokens[k - 2];
  if (before?.type === "punct" && (before.value === "=" || before.value === ":") && name?.type === "name") return name.value;
  return null;
}

/**
 * Every function of `src`: {name, start, end, lines}, in the order their bodies open.
 * @param {string} src
 */
export function functions(src) {
  const tokens = tokenize(src);
  const found = [];
  const parens = []; // the index of each open "("
  const bodies = []; // for each open "{": the function it opens, or null
  const closed = new Map(); // the index of a ")" → the index of its "("
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.type !== "punct") continue;
    if (t.value === "(") parens.push(k);
    else if (t.value === ")") closed.set(k, parens.pop());
    else if (t.value === "{") bodies.push(bodyAt(tokens, k, closed));
    else if (t.value === "}") {
      const fn = bodies.pop();
      if (fn) found.push({ ...fn, end: t.line, lines: t.line - fn.start + 1 });
    }
  }
  if (bodies.length) throw new SyntaxError(`${bodies.length} brace(s) never closed`);
  return found.sort((a, b) => a.start - b.start);
}

/** The function whose body the "{" at index k opens, or null (a block, an object, a class). */
function bodyAt(tokens, k, closed) {
  const prev = tokens[k - 1];
  if (prev?.value === "=>") {
    let head = k - 2; // the arrow's parameters: a name, or ( … )
    if (tokens[head]?.value === ")") head = closed.get(head);
    if (tokens[head - 1]?.value === "async") head--;
    return { name: givenName(tokens, head) ?? `arrow@${tokens[head].line}`, start: tokens[head].line };
  }
  if (prev?.value !== ")" || !closed.has(k - 1)) return null;
  const open = closed.get(k - 1);
  const before = tokens[open - 1];
  const two = tokens[open - 2];
  if (before?.value === "function" || (before?.value === "*" && two?.value === "function")) {
    const at = before.value === "*" ? open - 2 : open - 1;
    return { name: givenName(tokens, at) ?? `function@${tokens[at].line}`, start: tokens[at].line };
  }
  if (before?.type !== "name" || NOT_METHODS.has(before.value)) return null;
  if (two?.value === "function" || (two?.value === "*" && tokens[open - 3]?.value === "function")) {
    return { name: before.value, start: tokens[two.value === "*" ? open - 3 : open - 2].line };
  }
  return { name: before.value, start: before.line }; // a method: name( … ) {
}
