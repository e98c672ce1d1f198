// names.js names repeated tokens exactly as words/grammar.py's token_names does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { tokenNames, visibleToken } from "../../src/attnlab/static/names.js";

const CASES = JSON.parse(readFileSync(new URL("./names_cases.json", import.meta.url), "utf8"));

test("tokenNames matches Python's token_names on every shared case", () => {
  assert.ok(CASES.length >= 5);
  for (const { tokens, names } of CASES) assert.deepEqual(tokenNames(tokens), names, tokens.join(" "));
});

test("a repeated token gets its place, a single one stays itself", () => {
  assert.deepEqual(tokenNames(["a", "b", "b"]), ["a", "b₁", "b₂"]);
  assert.deepEqual(tokenNames(Array(12).fill("b")).slice(-1), ["b₁₂"]);
});

test("a token that shows nothing is written as the next-token table writes it, never blank", () => {
  // bug: a newline or space token was an empty chip under Follow the token and a bare "#1911"
  // row label, while the next-token table wrote "\n"
  for (const tok of ["\n", " ", "\n\n", "\t", ""]) {
    const shown = visibleToken(tok);
    assert.equal(shown, JSON.stringify(tok));
    assert.notEqual(shown.trim(), "");
  }
  for (const tok of [" all", "bank", "Ċ", ".", "[CLS]"]) assert.equal(visibleToken(tok), tok);
});
