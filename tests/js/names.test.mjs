// names.js names repeated tokens exactly as words/grammar.py's token_names does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { tokenNames } from "../../src/attnlab/static/names.js";

const CASES = JSON.parse(readFileSync(new URL("./names_cases.json", import.meta.url), "utf8"));

test("tokenNames matches Python's token_names on every shared case", () => {
  assert.ok(CASES.length >= 5);
  for (const { tokens, names } of CASES) assert.deepEqual(tokenNames(tokens), names, tokens.join(" "));
});

test("a repeated token gets its place, a single one stays itself", () => {
  assert.deepEqual(tokenNames(["a", "b", "b"]), ["a", "b₁", "b₂"]);
  assert.deepEqual(tokenNames(Array(12).fill("b")).slice(-1), ["b₁₂"]);
});
