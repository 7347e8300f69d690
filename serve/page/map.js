// anvilrt serve: the map at the centre of the editor (docs/serve.md, The map). Every placed instance of
// the input comes once from /api/map, packed (x and y as float32, its object as u32: serve/map_view.hpp),
// and is drawn into one canvas as pixels, so that a pan or a zoom redraws 600,000 marks from memory. The
// pending patch's changes come after each edit and are drawn on top: moved instances at their new place
// with an arrow from the old one, added ones, removed ones crossed out.
//
// The mouse: a click on a mark opens its object, a drag on a mark of the object shown moves that instance,
// a drag elsewhere pans, the wheel zooms around the pointer, and a drag with Shift held selects the
// objects in its box.
// Top-down as `anvilrt map` draws it (view/map_scene.hpp): x to the right, y up; z is not drawn.
'use strict';

const MAP_COLOURS = {  // as 0xAABBGGRR, the canvas's bytes read as one little-endian u32
  background: 0xfffbf9f8, plain: 0xff8a6a4e, selected: 0xff1f8ef2, shown: 0xff1414d0,
  moved: 0xffc06000, added: 0xff40a040,
};
const MAP_PICK_RADIUS = 7;  // CSS pixels from a mark that still pick it
const MAP_MOST_ARROWS = 20000;  // more pending moves are drawn as marks only (a bulk transform of all)

// Base64 to bytes: the browser's own decoder where it has one, else by a table (atob() of a 10 MB text
// and a copy out of it take longer).
function mapBytes(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const table = new Uint8Array(128);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; ++i) table[alphabet.charCodeAt(i)] = i;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array(text.length / 4 * 3 - pad);
  for (let i = 0, j = 0; i < text.length; i += 4) {
    const v = (table[text.charCodeAt(i)] << 18) | (table[text.charCodeAt(i + 1)] << 12) |
      (table[text.charCodeAt(i + 2)] << 6) | table[text.charCodeAt(i + 3)];
    out[j++] = v >> 16;
    if (j < out.length) out[j++] = (v >> 8) & 255;
    if (j < out.length) out[j++] = v & 255;
  }
  return out;
}

class MapCanvas {
  // `on`: {open(mark), move(mark, x, y), select(marks)}; a mark is {datafile, key, index, x, y}.
  constructor(canvas, on) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.on = on;
    this.base = null;        // per instance: x, y as read (Float32Array, 2 a mark)
    this.now = null;         // the same after the pending patch (NaN: removed)
    this.changes = {changed: [], removed: [], added: []};
    this.index = new Map();  // instance -> its N after the patch, where it differs
    this.view = {x: 0, y: 0, k: 1};  // the level point at the canvas's centre, and pixels per unit
    this.shown = -1;         // the run (object) of the object shown
    this.shownKey = null;
    this.shownDatafile = null;
    this.selected = new Uint8Array(0);
    this.gesture = null;
    // Read by the tests and the bench: when the first map was drawn, when its marks came (both from the
    // page's start, performance.now()), their decoding's and each draw's time (ms).
    this.timing = {first: null, received: null, decode: null, frames: []};
    this.bind();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  // The answer's "marks" (serve/map_view.hpp).
  setMarks(marks) {
    const t0 = performance.now();
    this.timing.received = t0;
    this.base = new Float32Array(mapBytes(marks.xy).buffer);
    this.object = new Uint32Array(mapBytes(marks.object).buffer);
    this.datafile = new Uint32Array(mapBytes(marks.datafile).buffer);
    // The keys stay one text, each found by where its line starts: 600,000 strings of their own cost a
    // second to make (split) and more to collect.
    const objects = this.datafile.length;
    this.keyText = marks.keys;
    this.keyStart = new Uint32Array(objects + 1);
    for (let run = 1, at = 0; run < objects; ++run) this.keyStart[run] = at = this.keyText.indexOf('\n', at) + 1;
    this.keyStart[objects] = this.keyText.length + 1;
    this.first = new Uint32Array(objects + 1);  // each object's first instance (they are consecutive)
    for (let i = this.object.length - 1; i >= 0; --i) this.first[this.object[i]] = i;
    this.first[objects] = this.object.length;
    this.selected = new Uint8Array(objects);
    this.bounds = marks.bounds;
    this.timing.decode = performance.now() - t0;
    this.setChanges(this.changes);
    this.fit();
  }

  // The answer's "changed", "removed" and "added": what the pending patch changes.
  setChanges(changes) {
    this.changes = changes;
    if (!this.base) return;
    this.now = this.base.slice();
    this.index = new Map();
    for (const [i, n, x, y] of changes.changed) {
      this.now[2 * i] = x === null ? NaN : x;
      this.now[2 * i + 1] = y === null ? NaN : y;
      this.index.set(i, n);
    }
    for (const i of changes.removed) this.now[2 * i] = this.now[2 * i + 1] = NaN;
    this.highlight(this.shownDatafile, this.shownKey);
  }

  fit() {
    const [x0, y0, x1, y1] = this.bounds;
    const width = Math.max(x1 - x0, 1e-6), height = Math.max(y1 - y0, 1e-6);
    this.view = {x: (x0 + x1) / 2, y: (y0 + y1) / 2,
      k: 0.85 * Math.min(this.canvas.clientWidth / width, this.canvas.clientHeight / height)};
    if (!Number.isFinite(this.view.k) || this.view.k <= 0) this.view.k = 1;
    this.redraw();
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    this.canvas.height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (this.base && this.timing.first === null) this.fit();
    else this.draw();
  }

  // Level to CSS pixels of the canvas, and back.
  toScreen(x, y) {
    const v = this.view;
    return [this.canvas.clientWidth / 2 + (x - v.x) * v.k, this.canvas.clientHeight / 2 - (y - v.y) * v.k];
  }
  toLevel(px, py) {
    const v = this.view;
    return [v.x + (px - this.canvas.clientWidth / 2) / v.k, v.y - (py - this.canvas.clientHeight / 2) / v.k];
  }

  // The object shown (its marks drawn red); a null key for none.
  highlight(datafile, key) {
    this.shownDatafile = datafile;
    this.shownKey = key;
    this.shown = -1;
    if (this.keyText !== undefined && key !== null) this.shown = this.runOf(datafile, key);
    this.redraw();
  }

  key(run) { return this.keyText.slice(this.keyStart[run], this.keyStart[run + 1] - 1); }

  // The object (run) of that key in that data file, -1 if none: the key's whole lines in the text.
  runOf(datafile, key) {
    const text = this.keyText;
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
      const end = at + key.length;
      if ((at > 0 && text.charCodeAt(at - 1) !== 10) || (end < text.length && text.charCodeAt(end) !== 10)) continue;
      let low = 0, high = this.keyStart.length - 1;  // the last line start at or before `at`
      while (high - low > 1) {
        const middle = (low + high) >> 1;
        if (this.keyStart[middle] <= at) low = middle; else high = middle;
      }
      if (this.datafile[low] === datafile) return low;
    }
    return -1;
  }

  // The objects ticked for the bulk operations: a list of {datafile, key} (and its run, from boxed()).
  select(objects) {
    if (this.keyText === undefined) return;
    this.selected.fill(0);
    for (const o of objects) {
      const run = o.run !== undefined ? o.run : this.runOf(o.datafile, o.key);
      if (run >= 0) this.selected[run] = 1;
    }
    this.redraw();
  }

  redraw() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  // Every mark as pixels into one image, then what lies on top of it as paths.
  draw() {
    if (!this.now) return;
    const t0 = performance.now();
    const width = this.canvas.width, height = this.canvas.height;
    if (!this.image || this.image.width !== width || this.image.height !== height) {
      this.image = this.context.createImageData(width, height);
      this.pixels = new Uint32Array(this.image.data.buffer);
    }
    const pixels = this.pixels;
    pixels.fill(MAP_COLOURS.background);
    const ratio = width / Math.max(1, this.canvas.clientWidth), k = this.view.k * ratio;
    const ox = width / 2 - this.view.x * k, oy = height / 2 + this.view.y * k;
    const now = this.now, count = now.length / 2, plain = MAP_COLOURS.plain;
    const square = (x, y, size, colour) => {
      const fx = ox + x * k, fy = oy - y * k;
      if (!(fx > -size && fy > -size && fx < width + size && fy < height + size)) return;
      const px = fx | 0, py = fy | 0;
      for (let dy = -size; dy <= size; ++dy) {
        const row = py + dy;
        if (row < 0 || row >= height) continue;
        for (let dx = -size; dx <= size; ++dx)
          if (px + dx >= 0 && px + dx < width) pixels[row * width + px + dx] = colour;
      }
    };
    if (count > 5000) {  // 2 by 2 pixels each, written straight
      for (let i = 0; i < count; ++i) {
        const fx = ox + now[2 * i] * k, fy = oy - now[2 * i + 1] * k;
        if (!(fx >= 1 && fy >= 1 && fx < width - 1 && fy < height - 1)) continue;  // outside, or NaN (removed)
        const at = (fy | 0) * width + (fx | 0);
        pixels[at] = pixels[at + 1] = pixels[at + width] = pixels[at + width + 1] = plain;
      }
    } else {  // few: larger, to be seen and clicked
      for (let i = 0; i < count; ++i) square(now[2 * i], now[2 * i + 1], 2, plain);
    }
    for (let run = 0; run < this.selected.length; ++run) {
      if (!this.selected[run]) continue;
      for (let i = this.first[run]; i < this.first[run + 1]; ++i) square(now[2 * i], now[2 * i + 1], 3, MAP_COLOURS.selected);
    }
    for (const [i] of this.changes.changed) square(now[2 * i], now[2 * i + 1], 3, MAP_COLOURS.moved);
    for (const a of this.changes.added) square(a.x, a.y, 3, MAP_COLOURS.added);
    if (this.shown >= 0)
      for (let i = this.first[this.shown]; i < this.first[this.shown + 1]; ++i) square(now[2 * i], now[2 * i + 1], 3, MAP_COLOURS.shown);
    for (const a of this.changes.added) if (a.key === this.shownKey && a.datafile === this.shownDatafile) square(a.x, a.y, 3, MAP_COLOURS.shown);
    this.context.putImageData(this.image, 0, 0);
    this.context.save();
    this.context.scale(ratio, ratio);
    this.overlay();
    this.context.restore();
    this.timing.frames.push(performance.now() - t0);
    if (this.timing.frames.length > 200) this.timing.frames.shift();
    if (this.timing.first === null) this.timing.first = performance.now();
  }

  // The pending moves as arrows, the removed instances crossed, the scale, and the gesture under way.
  overlay() {
    const c = this.context, base = this.base;
    c.lineWidth = 1.2;
    c.strokeStyle = '#0060c0';
    c.beginPath();
    for (const [i] of this.changes.changed.slice(0, MAP_MOST_ARROWS)) {
      const [x0, y0] = this.toScreen(base[2 * i], base[2 * i + 1]);
      const [x1, y1] = this.toScreen(this.now[2 * i], this.now[2 * i + 1]);
      const length = Math.hypot(x1 - x0, y1 - y0);
      if (!(length > 2)) continue;
      const ux = (x1 - x0) / length, uy = (y1 - y0) / length;
      c.moveTo(x0, y0);
      c.lineTo(x1, y1);
      c.moveTo(x1 - 8 * ux - 4 * uy, y1 - 8 * uy + 4 * ux);
      c.lineTo(x1, y1);
      c.lineTo(x1 - 8 * ux + 4 * uy, y1 - 8 * uy - 4 * ux);
    }
    c.stroke();
    c.strokeStyle = '#888';
    c.beginPath();
    for (const i of this.changes.removed.slice(0, MAP_MOST_ARROWS)) {
      const [x, y] = this.toScreen(base[2 * i], base[2 * i + 1]);
      c.moveTo(x - 4, y - 4); c.lineTo(x + 4, y + 4); c.moveTo(x + 4, y - 4); c.lineTo(x - 4, y + 4);
    }
    c.stroke();
    this.scaleBar();
    const g = this.gesture;
    if (g && g.kind === 'box') {
      c.strokeStyle = '#f28e1f';
      c.setLineDash([4, 3]);
      c.strokeRect(g.x0, g.y0, g.x - g.x0, g.y - g.y0);
      c.setLineDash([]);
    } else if (g && g.kind === 'mark' && g.dragging) {
      const [x0, y0] = this.toScreen(g.mark.x, g.mark.y);
      c.strokeStyle = '#d01414';
      c.beginPath();
      c.moveTo(x0, y0);
      c.lineTo(x0 + g.x - g.x0, y0 + g.y - g.y0);
      c.stroke();
      c.fillStyle = '#d01414';
      c.fillRect(x0 + g.x - g.x0 - 4, y0 + g.y - g.y0 - 4, 8, 8);
    }
  }

  // A bar of a round length (1, 2 or 5 times a power of ten) in the lower left corner.
  scaleBar() {
    const rough = 120 / this.view.k, power = Math.pow(10, Math.floor(Math.log10(rough)));
    const length = [5, 2, 1].map((m) => m * power).find((l) => l <= rough) || power;
    const c = this.context, y = this.canvas.clientHeight - 12, w = length * this.view.k;
    c.strokeStyle = '#333';
    c.fillStyle = '#333';
    c.beginPath();
    c.moveTo(10, y - 4); c.lineTo(10, y); c.lineTo(10 + w, y); c.lineTo(10 + w, y - 4);
    c.stroke();
    c.font = '11px system-ui, sans-serif';
    c.fillText(`${length} units`, 14 + w, y);
  }

  // The mark nearest the point (CSS pixels of the canvas), within MAP_PICK_RADIUS, the shown object's
  // first; null if none.
  pick(px, py) {
    if (!this.now) return null;
    const [lx, ly] = this.toLevel(px, py);
    const reach = MAP_PICK_RADIUS / this.view.k;
    let best = reach * reach, found = null;
    if (this.shown >= 0) {
      for (let i = this.first[this.shown]; i < this.first[this.shown + 1]; ++i) {
        const d = (this.now[2 * i] - lx) ** 2 + (this.now[2 * i + 1] - ly) ** 2;
        if (d <= best) { best = d; found = this.mark(i); }
      }
      if (found) return found;
    }
    for (const a of this.changes.added) {
      const d = (a.x - lx) ** 2 + (a.y - ly) ** 2;
      if (d <= best) { best = d; found = {datafile: a.datafile, key: a.key, index: a.index, x: a.x, y: a.y}; }
    }
    const now = this.now, count = now.length / 2;
    let nearest = -1;
    for (let i = 0; i < count; ++i) {
      const dx = now[2 * i] - lx, dy = now[2 * i + 1] - ly, d = dx * dx + dy * dy;
      if (d < best) { best = d; nearest = i; }
    }
    return nearest >= 0 ? this.mark(nearest) : found;
  }

  isShown(mark) { return mark.key === this.shownKey && mark.datafile === this.shownDatafile; }

  mark(i) {
    const run = this.object[i];
    const index = this.index.has(i) ? this.index.get(i) : i - this.first[run];
    return {datafile: this.datafile[run], key: this.key(run), index, x: this.now[2 * i], y: this.now[2 * i + 1]};
  }

  // Where instance N of an object is drawn (CSS pixels of the canvas), for the tests; null if nowhere.
  where(datafile, key, index) {
    const run = this.runOf(datafile, key);
    if (run >= 0) {
      for (let i = this.first[run]; i < this.first[run + 1]; ++i) {
        const m = this.mark(i);
        if (m.index === index && Number.isFinite(m.x)) return this.toScreen(m.x, m.y);
      }
    }
    const a = this.changes.added.find((o) => o.key === key && o.datafile === datafile && o.index === index);
    return a ? this.toScreen(a.x, a.y) : null;
  }

  // The objects with a mark in the box (CSS pixels of the canvas).
  boxed(x0, y0, x1, y1) {
    const [lx0, ly1] = this.toLevel(Math.min(x0, x1), Math.min(y0, y1));
    const [lx1, ly0] = this.toLevel(Math.max(x0, x1), Math.max(y0, y1));
    const inside = (x, y) => x >= lx0 && x <= lx1 && y >= ly0 && y <= ly1;
    const runs = new Set(), out = [];
    for (let i = 0; i < this.now.length / 2; ++i) {
      if (!inside(this.now[2 * i], this.now[2 * i + 1]) || runs.has(this.object[i])) continue;
      runs.add(this.object[i]);
      const run = this.object[i];
      out.push({datafile: this.datafile[run], key: this.key(run), run});
    }
    for (const a of this.changes.added)
      if (inside(a.x, a.y) && !out.some((o) => o.key === a.key && o.datafile === a.datafile))
        out.push({datafile: a.datafile, key: a.key});
    return out;
  }

  bind() {
    const c = this.canvas;
    const point = (e) => { const r = c.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    c.addEventListener('mousedown', (e) => {
      if (e.button !== 0 || !this.now) return;
      e.preventDefault();
      const [x, y] = point(e);
      // A drag moves a mark of the object shown only (a click opens an object first): on a dense map
      // every drag starts near some mark, and a pan must not move one.
      const mark = e.shiftKey ? null : this.pick(x, y);
      const kind = e.shiftKey ? 'box' : mark && this.isShown(mark) ? 'mark' : 'pan';
      this.gesture = {kind, mark, x0: x, y0: y, x, y, view: {...this.view}, dragging: false};
    });
    window.addEventListener('mousemove', (e) => {
      const g = this.gesture;
      if (!g) return;
      [g.x, g.y] = point(e);
      g.dragging = g.dragging || Math.hypot(g.x - g.x0, g.y - g.y0) > 3;
      if (g.kind === 'pan') this.view = {...g.view, x: g.view.x - (g.x - g.x0) / g.view.k, y: g.view.y + (g.y - g.y0) / g.view.k};
      this.redraw();
    });
    window.addEventListener('mouseup', (e) => {
      const g = this.gesture;
      if (!g) return;
      this.gesture = null;
      [g.x, g.y] = point(e);
      if (g.kind === 'box') this.on.select(this.boxed(g.x0, g.y0, g.x, g.y));
      else if (g.mark && !g.dragging) this.on.open(g.mark);
      else if (g.kind === 'mark') this.on.move(g.mark, g.mark.x + (g.x - g.x0) / this.view.k, g.mark.y - (g.y - g.y0) / this.view.k);
      this.redraw();
    });
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [x, y] = point(e);
      this.zoom(Math.exp(-e.deltaY / 500), x, y);
    }, {passive: false});
  }

  // Zooms by `factor` keeping the level point under (x, y) where it is.
  zoom(factor, x, y) {
    const [lx, ly] = this.toLevel(x, y);
    this.view.k *= factor;
    const [nx, ny] = this.toLevel(x, y);
    this.view.x += lx - nx;
    this.view.y += ly - ny;
    this.redraw();
  }
}
