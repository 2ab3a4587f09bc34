// Shrinks a screenshot for the site: reduces it to at most 256 colours (median cut, no dithering,
// which keeps flat UI colours flat) and writes an indexed PNG. A 1280×800 screenshot of the
// calculator drops to a fraction of Chromium's truecolour PNG, which keeps the landing page under
// its 100 KB budget. No image library is installed, so this is the little that is needed.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

// The palette: first the image's flat colours (any colour covering at least 1/2000 of the pixels:
// backgrounds, fills, text, chart lines), kept exact; then, for the anti-aliased edges in
// between, a variance-based median cut of the remaining colours: split the box with the largest
// weighted squared error along its widest channel at its weighted mean, until the palette is full.
function palette(histogram, max, total) {
  const colors = [...histogram.keys()];
  if (colors.length <= max) return colors;
  const fixed = colors.filter((c) => histogram.get(c) * 2000 >= total).sort((a, b) => histogram.get(b) - histogram.get(a)).slice(0, max / 2);
  const isFixed = new Set(fixed);
  const channel = (c, ch) => (c >> (16 - 8 * ch)) & 255;
  const describe = (list) => {
    const sum = [0, 0, 0], sq = [0, 0, 0];
    let weight = 0;
    for (const c of list) {
      const n = histogram.get(c);
      weight += n;
      for (let ch = 0; ch < 3; ch++) { const v = channel(c, ch); sum[ch] += v * n; sq[ch] += v * v * n; }
    }
    const mean = sum.map((s) => s / weight);
    const sse = sq.map((q, ch) => q - weight * mean[ch] * mean[ch]);
    const ch = sse.indexOf(Math.max(...sse));
    return { list, ch, mean, error: sse[0] + sse[1] + sse[2] };
  };
  const rest = colors.filter((c) => !isFixed.has(c));
  const boxes = rest.length ? [describe(rest)] : [];
  while (boxes.length && boxes.length < max - fixed.length) {
    let k = 0;
    for (let i = 1; i < boxes.length; i++) if (boxes[i].error > boxes[k].error) k = i;
    const box = boxes[k];
    if (box.list.length < 2 || box.error <= 0) break;
    const cut = box.mean[box.ch];
    const low = box.list.filter((c) => channel(c, box.ch) <= cut), high = box.list.filter((c) => channel(c, box.ch) > cut);
    if (!low.length || !high.length) { box.error = 0; continue; }
    boxes.splice(k, 1, describe(low), describe(high));
  }
  const round = (m) => (Math.round(m[0]) << 16) | (Math.round(m[1]) << 8) | Math.round(m[2]);
  return fixed.concat(boxes.map((b) => round(b.mean)));
}

// `png` as decodePng (tests/browser/lib/png.mjs) returns it; alpha is dropped (screenshots are opaque).
export function encodeIndexedPng({ width, height, channels, pixels }, maxColors = 256) {
  const rgb = new Uint32Array(width * height);
  const histogram = new Map();
  for (let i = 0; i < rgb.length; i++) {
    const p = i * channels;
    const c = (pixels[p] << 16) | (pixels[p + 1] << 8) | pixels[p + 2];
    rgb[i] = c;
    histogram.set(c, (histogram.get(c) || 0) + 1);
  }
  const colors = palette(histogram, maxColors, rgb.length);
  const nearest = new Map();
  const indexOf = (c) => {
    let found = nearest.get(c);
    if (found !== undefined) return found;
    let bestD = Infinity;
    for (let k = 0; k < colors.length; k++) {
      const p = colors[k];
      const dr = (c >> 16) - (p >> 16), dg = ((c >> 8) & 255) - ((p >> 8) & 255), db = (c & 255) - (p & 255);
      const d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;  // rough perceptual weights
      if (d < bestD) { bestD = d; found = k; }
    }
    nearest.set(c, found);
    return found;
  };
  const raw = Buffer.alloc(height * (width + 1));  // filter byte 0 (none) per row: best for palettes
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = indexOf(rgb[y * width + x]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;  // bit depth
  ihdr[9] = 3;  // indexed colour
  const plte = Buffer.alloc(colors.length * 3);
  colors.forEach((c, k) => { plte[3 * k] = c >> 16; plte[3 * k + 1] = (c >> 8) & 255; plte[3 * k + 2] = c & 255; });
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr), chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
