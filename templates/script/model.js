// The player's model, pure (no DOM): it traces a batch (where every row and
// section of the new state came from), lays a state out from measured
// heights, and turns both into a timeline: for every row, header and footer,
// keyframes of where it is and what it shows at any moment of the batch.

function byNumber(a, b) { return a - b; }

// ---- Model: one batch, as uikit-rules.md's reference replay ------------
// A state is [{id, header, footer, items: [{id, fields}]}].
function shiftByDeletesAndInserts(index, deletes, inserts) {
  let shifted = index - deletes.filter(d => d < index).length;
  inserts.slice().sort(byNumber).forEach(function (i) { if (i <= shifted) shifted += 1; });
  return shifted;
}

// Replays `batch` on `state` and says where everything came from:
//   sections[a] = {how: 'stay'|'move'|'insert'|'reload', from: old index or null}
//   rows[a][i]  = {how: 'stay'|'move'|'insert'|'reload'|'section', from: [s, r] or null}
//   leftSections = [{how: 'delete'|'reload', from}], leftRows likewise for
//   rows whose own section survives (a deleted section takes its rows along).
export function trace(state, batch) {
  let s = batch.sections, r = batch.rows;
  const removedSections = new Set(s.delete.concat(s.reload, s.move.map(m => m[0])));
  const reloadLanding = new Map();
  s.reload.forEach(function (old) { reloadLanding.set(shiftByDeletesAndInserts(old, s.delete, s.insert), old); });
  const placed = new Map();
  s.insert.concat(Array.from(reloadLanding.keys())).sort(byNumber).forEach(function (index, k) {
    const reloaded = reloadLanding.has(index);
    placed.set(index, { how: reloaded ? 'reload' : 'insert', from: reloaded ? reloadLanding.get(index) : null, fresh: batch.newSections[k] });
  });
  s.move.forEach(function (m) { placed.set(m[1], { how: 'move', from: m[0] }); });
  const untouched = state.map((_, i) => i).filter(i => !removedSections.has(i));
  const count = state.length - s.delete.length + s.insert.length;

  const inserted = new Map();
  r.insert.forEach(function (path, k) { inserted.set(path[0] + ':' + path[1], batch.insertedRows[k]); });
  const movedTo = new Map();
  r.move.forEach(function (m) { movedTo.set(m[1][0] + ':' + m[1][1], m[0]); });
  // A reloaded row's new cell goes where deletes and inserts alone put it,
  // in both coordinates: section moves are ignored for its section as row
  // moves are for its row (uikit-rules.md). Its content is the batch's
  // reloadedRows entry of the same index.
  const reloadLandings = r.reload.map(function (p, k) {
    const section = shiftByDeletesAndInserts(p[0], s.delete, s.insert);
    const row = shiftByDeletesAndInserts(p[1],
      r.delete.filter(d => d[0] === p[0]).map(d => d[1]),
      r.insert.filter(i => i[0] === section).map(i => i[1]));
    return { from: p, to: [section, row], row: (batch.reloadedRows || [])[k] };
  });

  let sections = [], rows = [], result = [];
  for (let a = 0; a < count; a++) {
    const slot = placed.get(a) || { how: 'stay', from: untouched.shift() };
    sections.push({ how: slot.how, from: slot.from });
    if (slot.fresh) {
      result.push(slot.fresh);
      rows.push(slot.fresh.items.map(function () { return { how: 'section', from: null }; }));
      continue;
    }
    let o = slot.from, old = state[o];
    const removed = new Set(r.delete.concat(r.reload, r.move.map(m => m[0]))
      .filter(p => p[0] === o).map(p => p[1]));
    const here = new Map();
    r.insert.forEach(function (p) { if (p[0] === a) here.set(p[1], { row: inserted.get(p[0] + ':' + p[1]), how: 'insert', from: null }); });
    movedTo.forEach(function (from, key) {
      const to = key.split(':').map(Number);
      if (to[0] === a) here.set(to[1], { row: state[from[0]].items[from[1]], how: 'move', from: from });
    });
    reloadLandings.forEach(function (landing) {
      if (landing.to[0] !== a) return;
      const previous = state[landing.from[0]].items[landing.from[1]];
      here.set(landing.to[1], { row: landing.row || previous, how: 'reload', from: landing.from });
    });
    const rest = [];
    old.items.forEach(function (row, i) { if (!removed.has(i)) rest.push({ row: row, how: 'stay', from: [o, i] }); });
    let items = [], provenance = [], total = rest.length + here.size;
    for (let i = 0; i < total; i++) {
      const entry = here.has(i) ? here.get(i) : rest.shift();
      items.push(entry.row);
      provenance.push({ how: entry.how, from: entry.from });
    }
    result.push({ id: old.id, header: old.header, footer: old.footer, items: items });
    rows.push(provenance);
  }
  const gone = new Set(s.delete.concat(s.reload));
  const leftSections = s.delete.map(function (i) { return { how: 'delete', from: i }; })
    .concat(s.reload.map(function (i) { return { how: 'reload', from: i }; }))
    .sort((x, y) => x.from - y.from);
  const leftRows = r.delete.map(function (p) { return { how: 'delete', from: p }; })
    .concat(r.reload.map(function (p) { return { how: 'reload', from: p }; }))
    .filter(left => !gone.has(left.from[0]))
    .sort((x, y) => x.from[0] - y.from[0] || x.from[1] - y.from[1]);
  return { state: result, sections: sections, rows: rows, leftSections: leftSections, leftRows: leftRows };
}

export function applyBatch(state, batch) { return trace(state, batch).state; }

// ---- Model: layout ---------------------------------------------------------
// heights[s] = {header, rows: [h], footer} (a missing header or footer is
// not laid out; the rows of a grid or orthogonal section need none: their
// size follows from the width). Every rectangle is {x, y, w, h} in the
// list's content. `geometry` (optional) is {width, spacing, top, sections: [kind]}
// (top: what comes before the first section, a data table's column titles)
// where kind is null for a list section (a table view's rows, a data
// table's rows) or {layout: 'grid'|'orthogonal', columns, scrollX}.
export function hasText(text) { return text !== null && text !== undefined; }

// A tile's height per point of width: a grid's are square (a photo grid),
// an orthogonal line's cards are wider than tall. rowmotion.css says the same.
export const TILE_ASPECT = { grid: 1, orthogonal: 0.75 };

// A grid section as a flow layout lays it out: items left to right in
// lines of `columns`, `spacing` between items, between lines and as the
// section's insets; its header and footer span the width, the insets
// between them and the items (rowmotion.css's grid is the same).
// An orthogonal section is one line of items, `columns` to a width, that
// scrolls sideways (scrollX: how far), the next item peeking in.
function tileSection(kind, width, s, y, parts, count) {
  const columns = Math.max(1, kind.columns), orthogonal = kind.layout === 'orthogonal';
  const w = Math.max(0, (width - 2 * s - (columns - 1) * s) / (columns + (orthogonal ? 0.25 : 0)));
  const h = w * TILE_ASPECT[kind.layout];
  const lines = count === 0 ? 0 : orthogonal ? 1 : Math.ceil(count / columns);
  let top = y, header = null, footer = null, rows = [];
  if (parts.hasHeader) {
    header = { x: 0, y: y, w: width, h: parts.header };
    y += parts.header + (lines || parts.hasFooter ? s : 0);
  } else y += s;
  for (let k = 0; k < count; k++) {
    const line = orthogonal ? 0 : Math.floor(k / columns), column = orthogonal ? k : k % columns;
    rows.push({ x: s + column * (w + s) - (kind.scrollX || 0), y: y + line * (h + s), w: w, h: h });
  }
  if (lines) y += lines * h + (lines - 1) * s;
  if (parts.hasFooter) {
    footer = { x: 0, y: y + (lines ? s : 0), w: width, h: parts.footer };
    y = footer.y + parts.footer;
  } else y += s;
  return { x: 0, y: top, w: width, h: y - top, header: header, rows: rows, footer: footer, scrollX: kind.scrollX || 0 };
}

// An orthogonal line's sideways scroll for a batch: kept where it is when a
// change is in sight (or nothing in the line changes), else moved so that
// the first change is at the line's start; each layout clamps it to its
// own content (the line's content shrinks or grows under it).
//   kind: {columns}; count0/count1: items before/after; scrollX: where it
//   is; changed0: indexes of old items that leave or move, changed1 of new
//   items that arrive, move or reload. Returns {before, after}.
export function sidewaysScroll(kind, width, spacing, count0, count1, scrollX, changed0, changed1) {
  const w = Math.max(0, (width - 2 * spacing - (kind.columns - 1) * spacing) / (kind.columns + 0.25));
  const most = function (count) { return Math.max(0, 2 * spacing + count * w + Math.max(0, count - 1) * spacing - width); };
  const clamp = function (x, count) { return Math.max(0, Math.min(most(count), x)); };
  const start = function (k) { return spacing + k * (w + spacing); };
  const inSight = function (k, x) { return start(k) >= x - 0.5 && start(k) + w <= x + width + 0.5; };
  let target = scrollX;
  const before = clamp(scrollX, count0);
  const seen = changed0.some(k => inSight(k, before)) || changed1.some(k => inSight(k, clamp(scrollX, count1)));
  if (!seen && (changed0.length || changed1.length)) {
    const first = changed1.length ? Math.min.apply(null, changed1) : Math.min.apply(null, changed0);
    target = start(first) - spacing;
  }
  return { before: clamp(target, count0), after: clamp(target, count1) };
}

export function layout(state, heights, geometry) {
  let y = geometry && geometry.top || 0, width = geometry ? geometry.width : 0, spacing = geometry && isFinite(geometry.spacing) ? geometry.spacing : 8;
  const sections = state.map(function (section, s) {
    let h = heights[s], top = y, header = null, footer = null;
    const kind = geometry && geometry.sections ? geometry.sections[s] : null;
    if (kind) {
      const laid = tileSection(kind, width, spacing, y, { hasHeader: hasText(section.header), header: h.header,
        hasFooter: hasText(section.footer), footer: h.footer }, section.items.length);
      y = laid.y + laid.h;
      laid.kind = kind.layout;
      return laid;
    }
    if (hasText(section.header)) { header = { x: 0, y: y, w: width, h: h.header }; y += h.header; }
    let rows = section.items.map(function (_, r) { const rect = { x: 0, y: y, w: width, h: h.rows[r] }; y += h.rows[r]; return rect; });
    if (hasText(section.footer)) { footer = { x: 0, y: y, w: width, h: h.footer }; y += h.footer; }
    return { x: 0, y: top, w: width, h: y - top, header: header, rows: rows, footer: footer };
  });
  return { height: y, sections: sections };
}

// The parts of a laid-out section, top to bottom.
function blockParts(section) {
  const parts = [];
  if (section.header) parts.push({ type: 'header', r: -1, rect: section.header });
  section.rows.forEach(function (rect, r) { parts.push({ type: 'row', r: r, rect: rect }); });
  if (section.footer) parts.push({ type: 'footer', r: -1, rect: section.footer });
  return parts;
}

// ---- Model: easing -----------------------------------------------------------
// UIKit's usual curve (ease-in-out, CSS's cubic-bezier(.42, 0, .58, 1)) or
// UXKit's linear one: eased progress p from time fraction t.
function cubicBezier(x1, y1, x2, y2) {
  function coordinate(a1, a2, u) { return 3 * a1 * u * (1 - u) * (1 - u) + 3 * a2 * u * u * (1 - u) + u * u * u; }
  return function (t) {
    if (t <= 0) return 0;
    if (t >= 1) return 1;
    let low = 0, high = 1, u = t;
    for (let i = 0; i < 60; i++) {
      const x = coordinate(x1, x2, u);
      if (Math.abs(x - t) < 1e-7) break;
      if (x < t) low = u; else high = u;
      u = (low + high) / 2;
    }
    return coordinate(y1, y2, u);
  };
}
const EASINGS = { 'ease-in-out': cubicBezier(0.42, 0, 0.58, 1), linear: t => Math.max(0, Math.min(1, t)) };
function ease(name, t) { return (typeof name === 'function' ? name : EASINGS[name] || EASINGS.linear)(t); }

// A spring as UIView.animate(withDuration:delay:usingSpringWithDamping:
// initialSpringVelocity:) runs it, as progress from 0 to 1 over the
// duration: a damped oscillator whose damping ratio is `damping` (1: no
// overshoot) and whose initial velocity is `velocity` distances per second
// (Apple: "a magnitude of 1 corresponds to an initial velocity that would
// cover the total animation distance in one second"). UIKit ends the
// animation at its duration, so the spring's swing has died down to 0.1 %
// of the distance by then.
export function spring(damping, velocity, seconds) {
  const zeta = Math.max(0.05, Math.min(1, damping));
  const omega = Math.log(1000) / (zeta * seconds);
  return function (p) {
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    const s = p * seconds;
    if (zeta >= 1) return 1 - Math.exp(-omega * s) * (1 + (omega - velocity) * s);
    const wd = omega * Math.sqrt(1 - zeta * zeta);
    return 1 - Math.exp(-zeta * omega * s) * (Math.cos(wd * s) + (zeta * omega - velocity) / wd * Math.sin(wd * s));
  };
}

// The curve as a CSS easing: linear() through 101 samples (overshoot kept).
export function cssEasing(curve) {
  const values = [];
  for (let k = 0; k <= 100; k++) values.push(Number(curve(k / 100).toFixed(4)));
  return 'linear(' + values.join(', ') + ')';
}

// ---- Model: row animation styles (uikit-rules.md) ------------------------------
// Where a part of an arriving block is at "arrival" q (0: not yet there,
// 1: in its slot); a leaving block runs the same backwards. `block` and
// `rect` are in the same layout; width is the list's.
function styleAt(style, q, block, rect, width) {
  const at = { x: 0, dy: 0, opacity: 1, clipTop: 0, clipBottom: 0 };
  switch (style) {
    case 'fade': at.opacity = q; break;
    case 'right': at.x = (1 - q) * width; break;
    case 'left': at.x = -(1 - q) * width; break;
    case 'top': at.dy = -(1 - q) * block.h; break;      // from behind the row above
    case 'bottom': at.dy = (1 - q) * block.h; break;    // from behind the row below
    case 'middle': {                                    // revealed from the middle of its growing slot
      let shift = (1 - q) * block.h / 2, local = rect.y - block.y;
      at.dy = -shift;
      at.clipTop = Math.max(0, Math.min(rect.h, shift - local));
      at.clipBottom = Math.max(0, Math.min(rect.h, local + rect.h - (block.h - shift)));
      break;
    }
    default: break;                                      // none: in place at once
  }
  return at;
}

// The arrivals q at which a style's motion bends (middle's clipping edges).
function styleKinks(style, block, rect) {
  if (style !== 'middle' || !block.h) return [];
  let local = rect.y - block.y;
  return [1 - 2 * local / block.h, 1 - 2 * (block.h - local - rect.h) / block.h]
    .filter(q => q > 0 && q < 1);
}

function resolveStyle(style, atEnd, reload) {
  if (style !== 'automatic') return style;
  if (reload) return 'fade';
  return atEnd ? 'top' : 'bottom'; // "bottom at a section's start, top at its end"
}

function styledFrames(style, arriving, block, rect, width) {
  let offsets = [0, 1].concat(styleKinks(style, block, rect).map(q => arriving ? q : 1 - q));
  offsets = Array.from(new Set(offsets)).sort(byNumber);
  return offsets.map(function (p) {
    const at = styleAt(style, arriving ? p : 1 - p, block, rect, width);
    if (style === 'none') at.opacity = arriving ? 1 : (p === 0 ? 1 : 0);
    return { offset: p, x: (rect.x || 0) + at.x, y: rect.y + at.dy, w: rect.w || 0, h: rect.h, opacity: at.opacity, clipTop: at.clipTop, clipBottom: at.clipBottom };
  });
}

// A part that stays or moves glides from frame to frame in a straight
// line, in both axes, drawn at its new size.
function glideFrames(from, to) {
  return [
    { offset: 0, x: from.x || 0, y: from.y, w: to.w || 0, h: to.h, opacity: 1, clipTop: 0, clipBottom: 0 },
    { offset: 1, x: to.x || 0, y: to.y, w: to.w || 0, h: to.h, opacity: 1, clipTop: 0, clipBottom: 0 }
  ];
}

// A block that arrives or leaves has a place in the other layout too: the
// gap it opens or leaves, where the nearest part above it that stays ends
// there (UIKit's update support gives a deleted cell a target rect in the
// new row data, "the start of the row after" its neighbour, and an inserted
// cell a start in the old). Its style plays around a slot that glides
// between the two, so it moves with its neighbours, as UIKit's cells do.
function gaps(t, before, after) {
  let sectionTo = new Map(), rowTo = new Map();
  t.sections.forEach(function (section, a) {
    if (section.from !== null && section.from !== undefined) sectionTo.set(section.from, { a: a, how: section.how });
  });
  t.rows.forEach(function (list, a) {
    list.forEach(function (row, r) { if (row.from) rowTo.set(row.from[0] + ':' + row.from[1], { a: a, r: r, how: row.how }); });
  });
  function end(rect) { return rect.y + rect.h; }
  function top(section) { return section.header ? end(section.header) : section.y; }
  return {
    // Where old section s's slot is in the new layout.
    section: function (s) {
      const to = sectionTo.get(s);
      if (to && to.how === 'reload') return after.sections[to.a].y;
      for (let k = s - 1; k >= 0; k--) {
        const kept = sectionTo.get(k);
        if (kept && kept.how === 'stay') return end(after.sections[kept.a]);
      }
      return 0;
    },
    // Where old row [s, r] (its section survives) is in the new layout.
    row: function (s, r) {
      const to = rowTo.get(s + ':' + r);
      if (to && to.how === 'reload') return after.sections[to.a].rows[to.r].y;
      let home = sectionTo.get(s);
      for (let i = r - 1; i >= 0; i--) {
        const kept = rowTo.get(s + ':' + i);
        if (kept && kept.how === 'stay' && kept.a === home.a) return end(after.sections[kept.a].rows[kept.r]);
      }
      return top(after.sections[home.a]);
    },
    // Where new section a's slot was in the old layout.
    arrivingSection: function (a) {
      const section = t.sections[a];
      if (section.how === 'reload') return before.sections[section.from].y;
      for (let k = a - 1; k >= 0; k--) {
        if (t.sections[k].how === 'stay') return end(before.sections[t.sections[k].from]);
      }
      return 0;
    },
    // Where new row [a, r] (its section stays or moves) was in the old layout.
    arrivingRow: function (a, r) {
      let row = t.rows[a][r], home = t.sections[a].from;
      if (row.how === 'reload') return before.sections[row.from[0]].rows[row.from[1]].y;
      for (let i = r - 1; i >= 0; i--) {
        const kept = t.rows[a][i];
        if (kept.how === 'stay' && kept.from[0] === home) return end(before.sections[home].rows[kept.from[1]]);
      }
      return top(before.sections[home]);
    }
  };
}

// Frames that also glide sideways by `dx`, as `shifted` does down.
function shiftedX(frames, dx, arriving) {
  if (!dx) return frames;
  return frames.map(function (frame) {
    return Object.assign({}, frame, { x: frame.x + dx * (arriving ? 1 - frame.offset : frame.offset) });
  });
}

// Frames that also glide by `shift` pixels: from 0 to shift for a leaving
// part, from shift to 0 for an arriving one (keyframes stay linear).
function shifted(frames, shift, arriving) {
  if (!shift) return frames;
  return frames.map(function (frame) {
    return Object.assign({}, frame, { y: frame.y + shift * (arriving ? 1 - frame.offset : frame.offset) });
  });
}

const FIELDS = ['x', 'y', 'w', 'h', 'opacity', 'clipTop', 'clipBottom'];
// A part's frame at eased progress p (keyframes are linear between them).
function sample(frames, p) {
  if (p <= frames[0].offset) return Object.assign({}, frames[0], { offset: p });
  for (let k = 1; k < frames.length; k++) {
    let a = frames[k - 1], b = frames[k];
    if (p <= b.offset) {
      const f = b.offset === a.offset ? 1 : (p - a.offset) / (b.offset - a.offset);
      const frame = { offset: p };
      FIELDS.forEach(function (name) { frame[name] = a[name] + (b[name] - a[name]) * f; });
      return frame;
    }
  }
  return Object.assign({}, frames[frames.length - 1], { offset: p });
}

// Z-order, as UIKit draws a batch: leaving cells lowest, arriving cells
// above them, cells that stay above those, cells that an explicit move
// carries above every cell they pass; and the headers and footers of the
// sections that stay or move above all cells, moving ones included:
// UITableView keeps its header and footer views above its cells, so a
// cell moving into another section passes under that section's header
// (FZAccordionTableView #7 and #43, STCollapseTableView #11: "this is just
// how UITableView's default animations work"; FSQCollectionViewAlignedLayout
// #13: "headers are generally above cells in UITableView").
const LAYER = { leaving: 1, arriving: 2, still: 3, moving: 4, header: 5 };
const LAYER_SIZE = 100000;

// The timeline of one batch.
//   o.trace: trace(before, batch); o.before, o.after: layouts of both states;
//   o.styles: {insert, delete, reload}; o.width: the list's width;
//   o.collection: a collection view draws the list, and animates as
//   UICollectionView's layout does by default: an item that appears fades
//   in at its final frame, one that disappears fades out at its initial
//   frame (initialLayoutAttributesForAppearingItem(at:) and
//   finalLayoutAttributesForDisappearingItem(at:) return the item's own
//   attributes with alpha 0), nothing slides to open a gap; a reloaded
//   item is reconfigured (reconfigureItems(at:)): it keeps its cell, which
//   glides like any other, its content updated in place;
//   o.viewport: {top, maxHeight} in content pixels, or null for no culling:
//   a part off-screen both before and after does not animate (UIKit has no
//   cell for it), it is at its new place from the start.
// Returns {from, to, height: [{offset, h}], parts: [{type, unit, side, s, r, from,
//   role, layer, z, style, shown, animated, frames}]} (shown: on screen before
//   or after, so drawn at its z; from: the old [section, row]
//   a new part came from, row -1 for a header or footer, null if fresh) (unit: 'section' when the part goes
//   with its whole section, 'row' when with its own row): side 'old' parts are copies of old cells
//   that leave; side 'new' parts are the new state's elements.
export function timeline(o) {
  let t = o.trace, before = o.before, after = o.after, width = o.width || 0;
  let H0 = before.height, H1 = after.height;
  let view0 = null, view1 = null;
  if (o.viewport) {
    let frame0 = Math.min(o.viewport.maxHeight, H0), frame1 = Math.min(o.viewport.maxHeight, H1);
    const top1 = Math.max(0, Math.min(o.viewport.top, H1 - frame1));
    view0 = { top: o.viewport.top, bottom: o.viewport.top + frame0 };
    view1 = { top: top1, bottom: top1 + frame1 };
  }
  function seen(rect, view) { return !view || (rect.y + rect.h > view.top && rect.y < view.bottom); }
  // Whether a part's path (keyframes are straight lines) is on screen at
  // any moment: a long section that leaves copies only what can be seen.
  function crosses(frames) {
    let top = Infinity, bottom = -Infinity;
    frames.forEach(function (f) { top = Math.min(top, f.y); bottom = Math.max(bottom, f.y + f.h); });
    const span = { y: top, h: bottom - top };
    return seen(span, view0) || seen(span, view1);
  }
  let parts = [], gap = gaps(t, before, after);
  function add(part) { part.order = parts.length; parts.push(part); }

  // Blocks that leave: whole sections (header, rows, footer), then rows.
  const removedRows = new Set();
  t.leftRows.forEach(function (left) { removedRows.add(left.from[0] + ':' + left.from[1]); });
  t.rows.forEach(function (list) { list.forEach(function (row) { if (row.how === 'move') removedRows.add(row.from[0] + ':' + row.from[1]); }); });
  const leavingSections = new Set(t.leftSections.map(l => l.from));
  t.sections.forEach(function (section) { if (section.how === 'move') leavingSections.add(section.from); });
  const collection = !!o.collection;
  // An orthogonal line that scrolls sideways in the batch (to show its
  // change, or because it got shorter) carries the items that appear and
  // disappear in it, as a scroll view carries its cells: how far, for the
  // line at old index s, and for the line at new index a.
  const newIndexOf = new Map();
  t.sections.forEach(function (section, a) { if (section.how === 'stay' || section.how === 'move') newIndexOf.set(section.from, a); });
  function lineScroll(s, a) {
    const old = before.sections[s], now = after.sections[a];
    return old && now && old.kind === 'orthogonal' && now.kind === 'orthogonal' ? (old.scrollX || 0) - (now.scrollX || 0) : 0;
  }
  // The style a part arrives or leaves with: a collection view fades.
  function styleFor(kind, atEnd, reload) { return collection ? 'fade' : resolveStyle(kind, atEnd, reload); }
  t.leftSections.forEach(function (left) {
    const block = before.sections[left.from];
    if (!seen(block, view0)) return;
    const reload = left.how === 'reload';
    let later = before.sections.some((_, i) => i > left.from && !leavingSections.has(i));
    const style = styleFor(reload ? o.styles.reload : o.styles.delete, !later, reload);
    if (style === 'none') return;
    let shift = collection ? 0 : gap.section(left.from) - block.y;
    blockParts(block).forEach(function (part) {
      const frames = shifted(styledFrames(style, false, block, part.rect, width), shift, false);
      if (!crosses(frames)) return;
      add({ type: part.type, unit: 'section', side: 'old', s: left.from, r: part.r, role: reload ? 'reload-old' : 'delete', layer: 'leaving',
        style: style, shown: true, animated: true, frames: frames });
    });
  });
  t.leftRows.forEach(function (left) {
    const rect = before.sections[left.from[0]].rows[left.from[1]];
    if (!seen(rect, view0)) return;
    const reload = left.how === 'reload';
    if (reload && collection) return; // reconfigured: the cell stays
    const count = before.sections[left.from[0]].rows.length;
    let later = false;
    for (let i = left.from[1] + 1; i < count; i++) if (!removedRows.has(left.from[0] + ':' + i)) later = true;
    const style = styleFor(reload ? o.styles.reload : o.styles.delete, !later, reload);
    if (style === 'none') return;
    add({ type: 'row', unit: 'row', side: 'old', s: left.from[0], r: left.from[1], role: reload ? 'reload-old' : 'delete', layer: 'leaving',
      style: style, shown: true, animated: true,
      frames: shiftedX(shifted(styledFrames(style, false, rect, rect, width), collection ? 0 : gap.row(left.from[0], left.from[1]) - rect.y, false),
        newIndexOf.has(left.from[0]) ? lineScroll(left.from[0], newIndexOf.get(left.from[0])) : 0, false) });
  });

  // Everything in the new state: arriving blocks, rows that glide.
  t.sections.forEach(function (section, a) {
    const block = after.sections[a];
    if (section.how === 'insert' || section.how === 'reload') {
      const reload = section.how === 'reload';
      let later = t.sections.some((other, i) => i > a && other.how !== 'insert');
      const style = styleFor(reload ? o.styles.reload : o.styles.insert, !later, reload);
      let shown = seen(block, view1), shift = collection ? 0 : gap.arrivingSection(a) - block.y;
      blockParts(block).forEach(function (part) {
        add({ type: part.type, unit: 'section', side: 'new', s: a, r: part.r, from: reload && part.type !== 'row' ? [section.from, -1] : null,
          role: reload ? 'reload-new' : 'insert', layer: 'arriving',
          style: style, shown: shown, animated: shown,
          frames: shown ? shifted(styledFrames(style, true, block, part.rect, width), shift, true) : glideFrames(part.rect, part.rect) });
      });
      return;
    }
    let old = before.sections[section.from];
    const sectionMoves = section.how === 'move';
    // `rest`: where the part's element sits in the new layout, when its
    // frames end elsewhere (a pinned header); its keyframes are offsets from there.
    function glide(type, from, to, r, moving, role, rest) {
      const shown = seen(from, view0) || seen(to, view1);
      // (Not seen, it stays where it sits.)
      const away = shown && !!rest && (rest.y !== to.y || (rest.x || 0) !== (to.x || 0));
      add({ type: type, unit: type === 'row' ? 'row' : 'section', side: 'new', s: a, r: r,
        from: type === 'row' ? t.rows[a][r].from : [section.from, -1], role: role || (moving ? 'move' : 'stay'),
        layer: type !== 'row' ? 'header' : moving ? 'moving' : 'still', rest: away ? { x: rest.x || 0, y: rest.y } : null,
        style: null, shown: shown, animated: shown && (away || from.y !== to.y || (from.x || 0) !== (to.x || 0)),
        frames: shown ? glideFrames(from, to) : glideFrames(rest || to, rest || to) });
    }
    // In plain style a header scrolled past stays pinned at the list's top,
    // until its section's end pushes it up (o.pinHeaders), through the
    // batch as before and after it, as UIKit keeps it.
    function pinned(header, sectionRect, view) {
      if (!o.pinHeaders || !view || !header) return header;
      const y = Math.max(header.y, Math.min(view.top, sectionRect.y + sectionRect.h - header.h));
      return y === header.y ? header : Object.assign({}, header, { y: y });
    }
    if (block.header) {
      glide('header', pinned(old.header || block.header, old.header ? old : block, view0), pinned(block.header, block, view1), -1, sectionMoves,
        null, block.header);
    }
    t.rows[a].forEach(function (row, r) {
      const rect = block.rows[r];
      if (row.how === 'reload' && collection) {
        glide('row', before.sections[row.from[0]].rows[row.from[1]], rect, r, sectionMoves, 'reload-new');
        return;
      }
      if (row.how === 'insert' || row.how === 'reload') {
        const reload = row.how === 'reload';
        let later = false;
        for (let i = r + 1; i < t.rows[a].length; i++) if (t.rows[a][i].how !== 'insert') later = true;
        const style = styleFor(reload ? o.styles.reload : o.styles.insert, !later, reload);
        const shown = seen(rect, view1);
        add({ type: 'row', unit: 'row', side: 'new', s: a, r: r, from: row.from, role: reload ? 'reload-new' : 'insert', layer: 'arriving',
          style: style, shown: shown, animated: shown,
          frames: shown ? shiftedX(shifted(styledFrames(style, true, rect, rect, width), collection ? 0 : gap.arrivingRow(a, r) - rect.y, true),
            -lineScroll(section.from, a), true) : glideFrames(rect, rect) });
        return;
      }
      const from = before.sections[row.from[0]].rows[row.from[1]];
      glide('row', from, rect, r, sectionMoves || row.how === 'move');
    });
    if (block.footer) glide('footer', old.footer || block.footer, block.footer, -1, sectionMoves);
  });

  // Z: the layer, then within it list order; a block sliding from behind
  // its upper neighbour ('top') draws the upper of two such rows on top.
  parts.forEach(function (part) {
    const rank = Math.min(part.order, LAYER_SIZE - 1);
    part.z = LAYER[part.layer] * LAYER_SIZE + (part.style === 'top' ? LAYER_SIZE - 1 - rank : rank);
  });

  // The list's height: the two layouts interpolated, but never cutting off
  // a leaving cell while it can still be seen.
  let offsets = new Set([0, 1]);
  for (let k = 1; k < 20; k++) offsets.add(k / 20);
  parts.forEach(function (part) { part.frames.forEach(function (frame) { offsets.add(frame.offset); }); });
  const ceiling = Math.max(H0, H1);
  // The height is drawn straight between these offsets. Between two of
  // them, where no leaving cell's bottom crosses the taller layout's edge,
  // the straight line never falls below what it must show (the highest of
  // straight lines, or that edge); so where a bottom crosses it, that
  // moment is an offset too (without it, a cell reaching past the edge
  // and coming back was cut off by a pixel or two in between).
  parts.forEach(function (part) {
    if (part.side !== 'old') return;
    for (let k = 1; k < part.frames.length; k++) {
      const a = part.frames[k - 1], b = part.frames[k];
      const bottomA = a.y + a.h - a.clipBottom - ceiling, bottomB = b.y + b.h - b.clipBottom - ceiling;
      if (bottomA * bottomB < 0) offsets.add(a.offset + (b.offset - a.offset) * bottomA / (bottomA - bottomB));
    }
  });
  const height = Array.from(offsets).sort(byNumber).map(function (p) {
    let h = H0 + (H1 - H0) * p;
    parts.forEach(function (part) {
      if (part.side !== 'old') return;
      const at = sample(part.frames, p);
      if (at.opacity > 0 && at.h - at.clipTop - at.clipBottom > 0) h = Math.max(h, at.y + at.h - at.clipBottom);
    });
    return { offset: p, h: Math.min(ceiling, h) };
  });
  return { from: H0, to: H1, height: height, parts: parts };
}

// Where the list should be scrolled for a batch's changes to be seen:
// null when one of them is already in sight (or the list does not scroll),
// otherwise a scroll position that puts the first change a quarter down
// the list. A reviewer who presses Next must see something move; UIKit
// itself never scrolls for a batch, so this happens before it starts.
//   t: trace(before, batch); before, after: layouts; viewport: {top,
//   maxHeight, cover: what covers its top}.
export function scrollForChanges(t, before, after, viewport) {
  let frame0 = Math.min(viewport.maxHeight, before.height), frame1 = Math.min(viewport.maxHeight, after.height);
  if (before.height <= viewport.maxHeight && after.height <= viewport.maxHeight) return null;
  const top1 = Math.max(0, Math.min(viewport.top, after.height - frame1));
  let old = [], fresh = [];
  t.leftSections.forEach(function (left) { old.push(before.sections[left.from]); });
  t.leftRows.forEach(function (left) { old.push(before.sections[left.from[0]].rows[left.from[1]]); });
  t.sections.forEach(function (section, a) {
    if (section.how === 'insert' || section.how === 'reload') fresh.push(after.sections[a]);
    else if (section.how === 'move') { old.push(before.sections[section.from]); fresh.push(after.sections[a]); }
  });
  t.rows.forEach(function (list, a) {
    list.forEach(function (row, r) {
      if (row.how === 'insert' || row.how === 'reload') fresh.push(after.sections[a].rows[r]);
      else if (row.how === 'move') { old.push(before.sections[row.from[0]].rows[row.from[1]]); fresh.push(after.sections[a].rows[r]); }
    });
  });
  if (!old.length && !fresh.length) return null;
  // In sight: half of it, or 24 px of a tall one, below what covers the
  // list's top (a pinned header, in plain style).
  const cover = viewport.cover || 0;
  function visible(rect, top, frame) {
    const shown = Math.min(rect.y + rect.h, top + frame) - Math.max(rect.y, top + cover);
    return shown >= Math.min(rect.h / 2, 24);
  }
  if (old.some(rect => visible(rect, viewport.top, frame0))
    || fresh.some(rect => visible(rect, top1, frame1))) return null;
  const first = Math.min.apply(null, old.concat(fresh).map(rect => rect.y));
  // The list is as tall as the old state when the batch starts.
  return Math.round(Math.max(0, Math.min(before.height - frame0, first - frame0 / 4)));
}

// `scroll: anchor`: how far the content above what is seen grows (+) or
// shrinks (-) in a batch, measured at the anchor: the first item in sight
// below what covers the list's top that survives the batch, or, when the
// items in sight all leave, the surviving item nearest to the first of them
// (below it first). 0 when nothing is in sight or nothing survives. The
// list's offset moves by as much, so what is seen stays where it was
// (what a UICollectionView layout's targetContentOffset(forProposedContentOffset:)
// or a table that keeps its place, as SwiftDataTables does, returns).
//   t: trace(before, batch); before, after: layouts; top: the list's
//   scroll offset; cover: what covers its top (pinned titles, headers).
// At the top of the list (offset 0) nothing is above what is seen, and
// nothing is compensated: a row inserted first is seen arriving (as a
// browser's scroll anchoring leaves a scroller at offset 0 alone).
export function anchorShift(t, before, after, top, cover) {
  if (top <= 0) return 0;
  const landing = new Map();
  t.rows.forEach(function (list, a) {
    list.forEach(function (row, r) { if (row.from && row.how !== 'section') landing.set(row.from[0] + ':' + row.from[1], after.sections[a].rows[r]); });
  });
  const old = [];
  before.sections.forEach(function (section, s) { section.rows.forEach(function (rect, r) { old.push({ key: s + ':' + r, rect: rect }); }); });
  // The first item in sight (in the order a reader meets them: by top, then left).
  let first = -1;
  for (let k = 0; k < old.length; k++) {
    const rect = old[k].rect;
    if (rect.y + rect.h > top + (cover || 0) + 0.5) {
      if (first < 0 || rect.y < old[first].rect.y - 0.5) first = k;
      else if (Math.abs(rect.y - old[first].rect.y) <= 0.5 && (rect.x || 0) < (old[first].rect.x || 0)) first = k;
      if (rect.y > top + (cover || 0) + 1e6) break;
    }
  }
  if (first < 0) return 0;
  for (let distance = 0; distance < old.length; distance++) {
    for (const k of distance ? [first + distance, first - distance] : [first]) {
      if (k < 0 || k >= old.length) continue;
      const to = landing.get(old[k].key);
      if (to) return to.y - old[k].rect.y;
    }
  }
  return 0;
}

// A layout moved down by `delta` (the old layout seen from an offset that
// anchoring moved): every rectangle, and the content's height.
export function shiftLayout(laid, delta) {
  if (!delta) return laid;
  const move = function (rect) { return rect ? Object.assign({}, rect, { y: rect.y + delta }) : rect; };
  return { height: laid.height + delta, sections: laid.sections.map(function (section) {
    return Object.assign({}, move(section), { header: move(section.header), footer: move(section.footer), rows: section.rows.map(move) });
  }) };
}

function sampleHeight(height, p) {
  const frames = height.map(function (f) { return { offset: f.offset, x: 0, y: 0, h: f.h, opacity: 1, clipTop: 0, clipBottom: 0 }; });
  return sample(frames, p).h;
}

export const model = Object.freeze({ trace: trace, applyBatch: applyBatch, layout: layout, timeline: timeline, anchorShift: anchorShift, shiftLayout: shiftLayout, sidewaysScroll: sidewaysScroll,
  sample: sample, sampleHeight: sampleHeight, ease: ease, spring: spring, scrollForChanges: scrollForChanges });
