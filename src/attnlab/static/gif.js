// An animated GIF (GIF89a) from RGBA frames, written here so nothing is fetched: one shared
// palette of at most 256 colours, each frame LZW-compressed, looping forever.
//
// The palette: every pixel's colour is cut to 5 bits a channel; the 255 most common of those
// become the palette (each the mean of the pixels it stands for), and a rarer colour is drawn
// as its nearest. The pictures are flat colours on white, so few colours stay apart.
// Pure: Uint8Array out, no DOM; Node's tests decode what it writes.

/** @typedef {{width: number, height: number, data: Uint8ClampedArray | Uint8Array}} Frame */

const BINS = 1 << 15;
const key15 = (r, g, b) => ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);

/** The shared palette: [r, g, b] × ≤ 256, and each 15-bit colour's index in it. @param {Frame[]} frames */
export function palette(frames) {
  const count = new Uint32Array(BINS);
  const sum = new Float64Array(BINS * 3);
  for (const { data } of frames) {
    for (let p = 0; p < data.length; p += 4) {
      const k = key15(data[p], data[p + 1], data[p + 2]);
      count[k]++;
      sum[3 * k] += data[p];
      sum[3 * k + 1] += data[p + 1];
      sum[3 * k + 2] += data[p + 2];
    }
  }
  const used = [];
  for (let k = 0; k < BINS; k++) if (count[k]) used.push(k);
  used.sort((a, b) => count[b] - count[a]);
  const kept = used.slice(0, 256);
  const colors = kept.map((k) => [0, 1, 2].map((c) => Math.round(sum[3 * k + c] / count[k])));
  const index = new Int16Array(BINS).fill(-1);
  kept.forEach((k, i) => (index[k] = i));
  for (const k of used.slice(256)) {
    const r = (k >> 10) << 3, g = ((k >> 5) & 31) << 3, b = (k & 31) << 3;
    let best = 0, bestD = Infinity;
    colors.forEach(([cr, cg, cb], i) => {
      const d = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
      if (d < bestD) [best, bestD] = [i, d];
    });
    index[k] = best;
  }
  while (colors.length < 2) colors.push([0, 0, 0]);
  return { colors, index };
}

/** GIF's variable-width LZW of one frame's palette indices, as the data sub-blocks' bytes. */
export function lzw(indices, minCodeSize) {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out = [];
  let bits = 0, nbits = 0;
  let size = minCodeSize + 1;
  const emit = (code) => {
    bits |= code << nbits;
    nbits += size;
    while (nbits >= 8) {
      out.push(bits & 255);
      bits >>>= 8;
      nbits -= 8;
    }
  };
  let table = new Map();
  let next = end + 1;
  emit(clear);
  let prefix = indices[0];
  for (let p = 1; p < indices.length; p++) {
    const c = indices[p];
    const k = prefix * 4096 + c;
    const found = table.get(k);
    if (found !== undefined) {
      prefix = found;
      continue;
    }
    emit(prefix);
    if (next < 4096) {
      table.set(k, next++);
      if (next > 1 << size && size < 12) size++;
    } else {
      emit(clear);
      table = new Map();
      next = end + 1;
      size = minCodeSize + 1;
    }
    prefix = c;
  }
  emit(prefix);
  emit(end);
  if (nbits > 0) out.push(bits & 255);
  return out;
}

/**
 * The frames as one looping GIF, each shown `delayMs` (the last `lastMs`).
 * @param {Frame[]} frames all the same size
 * @param {{delayMs?: number, lastMs?: number}} [options]
 * @returns {Uint8Array}
 */
export function encodeGIF(frames, { delayMs = 2500, lastMs = delayMs } = {}) {
  if (!frames.length) throw new RangeError("a GIF needs at least one frame");
  const { width, height } = frames[0];
  if (frames.some((f) => f.width !== width || f.height !== height)) throw new RangeError("every frame must have the same size");
  const { colors, index } = palette(frames);
  const depth = Math.max(1, Math.ceil(Math.log2(colors.length))); // colour table of 2^depth entries
  const bytes = [];
  const u16 = (v) => bytes.push(v & 255, (v >> 8) & 255);
  const ascii = (s) => [...s].forEach((ch) => bytes.push(ch.charCodeAt(0)));
  ascii("GIF89a");
  u16(width);
  u16(height);
  bytes.push(0xf0 | (depth - 1), 0, 0); // a global colour table, 2^depth entries
  for (let i = 0; i < 1 << depth; i++) bytes.push(...(colors[i] ?? [0, 0, 0]));
  bytes.push(0x21, 0xff, 11);
  ascii("NETSCAPE2.0");
  bytes.push(3, 1, 0, 0, 0); // loop forever
  const minCode = Math.max(2, depth);
  frames.forEach((frame, f) => {
    const delay = Math.round((f === frames.length - 1 ? lastMs : delayMs) / 10);
    bytes.push(0x21, 0xf9, 4, 0x04, delay & 255, (delay >> 8) & 255, 0, 0); // keep the frame, no transparency
    bytes.push(0x2c);
    u16(0);
    u16(0);
    u16(width);
    u16(height);
    bytes.push(0);
    const { data } = frame;
    const indices = new Uint8Array(width * height);
    for (let p = 0, q = 0; q < indices.length; p += 4, q++) indices[q] = index[key15(data[p], data[p + 1], data[p + 2])];
    bytes.push(minCode);
    const packed = lzw(indices, minCode);
    for (let k = 0; k < packed.length; k += 255) {
      const block = packed.slice(k, k + 255);
      bytes.push(block.length, ...block);
    }
    bytes.push(0);
  });
  bytes.push(0x3b);
  return Uint8Array.from(bytes);
}
