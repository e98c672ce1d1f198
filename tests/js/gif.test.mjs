// gif.js writes a GIF89a that a decoder reads back: the frames, their delays and their pixels
// (a few flat colours, as the pictures are, come back exactly). Decoded here by a small reader.
import assert from "node:assert/strict";
import { test } from "node:test";

import { encodeGIF } from "../../src/attnlab/static/gif.js";

/** A minimal GIF reader: the global palette, and each frame's delay and palette indices. */
function readGIF(bytes) {
  let p = 0;
  const u8 = () => bytes[p++];
  const u16 = () => bytes[p++] | (bytes[p++] << 8);
  assert.equal(String.fromCharCode(...bytes.slice(0, 6)), "GIF89a");
  p = 6;
  const width = u16(), height = u16(), flags = u8();
  p += 2;
  const size = 1 << ((flags & 7) + 1);
  const colors = [];
  for (let i = 0; i < size; i++) colors.push([u8(), u8(), u8()]);
  const frames = [];
  let delay = 0;
  for (;;) {
    const block = u8();
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = u8();
      if (label === 0xf9) {
        u8(); // its size, 4
        u8(); // the disposal flags
        delay = u16();
        u8(); // the transparent colour, unused
      }
      for (let n = u8(); n; n = u8()) if (label !== 0xf9) p += n;
      continue;
    }
    assert.equal(block, 0x2c);
    p += 9;
    const min = u8();
    const data = [];
    for (let n = u8(); n; n = u8()) for (let k = 0; k < n; k++) data.push(u8());
    frames.push({ delay, indices: unLZW(data, min, width * height) });
  }
  return { width, height, colors, frames };
}

function unLZW(data, min, count) {
  const clear = 1 << min, end = clear + 1;
  let size = min + 1, bit = 0, table = [], prev = null;
  const out = [];
  const reset = () => {
    table = Array.from({ length: clear }, (_, i) => [i]);
    table.push(null, null);
    size = min + 1;
    prev = null;
  };
  reset();
  while (out.length < count) {
    let code = 0;
    for (let k = 0; k < size; k++, bit++) code |= ((data[bit >> 3] >> (bit & 7)) & 1) << k;
    if (code === clear) {
      reset();
      continue;
    }
    if (code === end) break;
    const entry = code < table.length ? table[code] : [...table[prev], table[prev][0]];
    out.push(...entry);
    if (prev !== null) table.push([...table[prev], entry[0]]);
    prev = code;
    if (table.length === 1 << size && size < 12) size++;
  }
  return out;
}

const COLORS = [[255, 255, 255], [123, 47, 190], [29, 29, 43], [200, 230, 120]];
function frame(width, height, f) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let q = 0; q < width * height; q++) data.set([...COLORS[(q * (f + 3) + Math.floor(q / 97)) % 4], 255], 4 * q);
  return { width, height, data };
}

test("six frames come back with their delays and their exact pixels", () => {
  const frames = Array.from({ length: 6 }, (_, f) => frame(211, 157, f)); // 33k pixels: the LZW table fills and resets
  const gif = readGIF(encodeGIF(frames, { delayMs: 2500, lastMs: 5000 }));
  assert.equal(gif.width, 211);
  assert.equal(gif.height, 157);
  assert.equal(gif.frames.length, 6);
  assert.deepEqual(gif.frames.map((f) => f.delay), [250, 250, 250, 250, 250, 500]);
  gif.frames.forEach((f, k) => {
    const rgb = f.indices.map((i) => gif.colors[i]);
    const want = [];
    for (let p = 0; p < frames[k].data.length; p += 4) want.push([...frames[k].data.slice(p, p + 3)]);
    assert.deepEqual(rgb, want, `frame ${k}`);
  });
});

test("frames of different sizes, or none, are refused", () => {
  assert.throws(() => encodeGIF([]), /at least one frame/);
  assert.throws(() => encodeGIF([frame(4, 4, 0), frame(5, 4, 0)]), /same size/);
});
