/* Rowmotion's player: replays each step's batches the way UIKit applies
   them. One classic script (ES modules do not load from file://), exposing
   only window.Rowmotion. The model half is pure (no DOM): it traces a batch
   (where every row and section of the new state came from), lays a state
   out from measured heights, and turns both into a timeline: for every row,
   header and footer, keyframes of where it is and what it shows at any
   moment of the batch. The DOM half renders that timeline and decides
   nothing about geometry itself. */
(function () {
  'use strict';

  // ---- Read data --------------------------------------------------------
  function readData(element) {
    var script = element.querySelector('script.rowmotion-data');
    return JSON.parse(script.textContent);
  }

  function byNumber(a, b) { return a - b; }

  // ---- Model: one batch, as uikit-rules.md's reference replay ------------
  // A state is [{id, header, footer, items: [{id, fields}]}].
  function shiftByDeletesAndInserts(index, deletes, inserts) {
    var shifted = index - deletes.filter(function (d) { return d < index; }).length;
    inserts.slice().sort(byNumber).forEach(function (i) { if (i <= shifted) shifted += 1; });
    return shifted;
  }

  // Replays `batch` on `state` and says where everything came from:
  //   sections[a] = {how: 'stay'|'move'|'insert'|'reload', from: old index or null}
  //   rows[a][i]  = {how: 'stay'|'move'|'insert'|'reload'|'section', from: [s, r] or null}
  //   leftSections = [{how: 'delete'|'reload', from}], leftRows likewise for
  //   rows whose own section survives (a deleted section takes its rows along).
  function trace(state, batch) {
    var s = batch.sections, r = batch.rows;
    var removedSections = new Set(s.delete.concat(s.reload, s.move.map(function (m) { return m[0]; })));
    var reloadLanding = new Map();
    s.reload.forEach(function (old) { reloadLanding.set(shiftByDeletesAndInserts(old, s.delete, s.insert), old); });
    var placed = new Map();
    s.insert.concat(Array.from(reloadLanding.keys())).sort(byNumber).forEach(function (index, k) {
      var reloaded = reloadLanding.has(index);
      placed.set(index, { how: reloaded ? 'reload' : 'insert', from: reloaded ? reloadLanding.get(index) : null, fresh: batch.newSections[k] });
    });
    s.move.forEach(function (m) { placed.set(m[1], { how: 'move', from: m[0] }); });
    var untouched = state.map(function (_, i) { return i; }).filter(function (i) { return !removedSections.has(i); });
    var count = state.length - s.delete.length + s.insert.length;

    var inserted = new Map();
    r.insert.forEach(function (path, k) { inserted.set(path[0] + ':' + path[1], batch.insertedRows[k]); });
    var movedTo = new Map();
    r.move.forEach(function (m) { movedTo.set(m[1][0] + ':' + m[1][1], m[0]); });
    // A reloaded row's new cell goes where deletes and inserts alone put it,
    // in both coordinates: section moves are ignored for its section as row
    // moves are for its row (uikit-rules.md). Its content is the batch's
    // reloadedRows entry of the same index.
    var reloadLandings = r.reload.map(function (p, k) {
      var section = shiftByDeletesAndInserts(p[0], s.delete, s.insert);
      var row = shiftByDeletesAndInserts(p[1],
        r.delete.filter(function (d) { return d[0] === p[0]; }).map(function (d) { return d[1]; }),
        r.insert.filter(function (i) { return i[0] === section; }).map(function (i) { return i[1]; }));
      return { from: p, to: [section, row], row: (batch.reloadedRows || [])[k] };
    });

    var sections = [], rows = [], result = [];
    for (var a = 0; a < count; a++) {
      var slot = placed.get(a) || { how: 'stay', from: untouched.shift() };
      sections.push({ how: slot.how, from: slot.from });
      if (slot.fresh) {
        result.push(slot.fresh);
        rows.push(slot.fresh.items.map(function () { return { how: 'section', from: null }; }));
        continue;
      }
      var o = slot.from, old = state[o];
      var removed = new Set(r.delete.concat(r.reload, r.move.map(function (m) { return m[0]; }))
        .filter(function (p) { return p[0] === o; }).map(function (p) { return p[1]; }));
      var here = new Map();
      r.insert.forEach(function (p) { if (p[0] === a) here.set(p[1], { row: inserted.get(p[0] + ':' + p[1]), how: 'insert', from: null }); });
      movedTo.forEach(function (from, key) {
        var to = key.split(':').map(Number);
        if (to[0] === a) here.set(to[1], { row: state[from[0]].items[from[1]], how: 'move', from: from });
      });
      reloadLandings.forEach(function (landing) {
        if (landing.to[0] !== a) return;
        var previous = state[landing.from[0]].items[landing.from[1]];
        here.set(landing.to[1], { row: landing.row || previous, how: 'reload', from: landing.from });
      });
      var rest = [];
      old.items.forEach(function (row, i) { if (!removed.has(i)) rest.push({ row: row, how: 'stay', from: [o, i] }); });
      var items = [], provenance = [], total = rest.length + here.size;
      for (var i = 0; i < total; i++) {
        var entry = here.has(i) ? here.get(i) : rest.shift();
        items.push(entry.row);
        provenance.push({ how: entry.how, from: entry.from });
      }
      result.push({ id: old.id, header: old.header, footer: old.footer, items: items });
      rows.push(provenance);
    }
    var gone = new Set(s.delete.concat(s.reload));
    var leftSections = s.delete.map(function (i) { return { how: 'delete', from: i }; })
      .concat(s.reload.map(function (i) { return { how: 'reload', from: i }; }))
      .sort(function (x, y) { return x.from - y.from; });
    var leftRows = r.delete.map(function (p) { return { how: 'delete', from: p }; })
      .concat(r.reload.map(function (p) { return { how: 'reload', from: p }; }))
      .filter(function (left) { return !gone.has(left.from[0]); })
      .sort(function (x, y) { return x.from[0] - y.from[0] || x.from[1] - y.from[1]; });
    return { state: result, sections: sections, rows: rows, leftSections: leftSections, leftRows: leftRows };
  }

  function applyBatch(state, batch) { return trace(state, batch).state; }

  // ---- Model: layout ---------------------------------------------------------
  // heights[s] = {header, rows: [h], footer} (a missing header or footer is
  // not laid out). Every rectangle is {y, h} in the list's content.
  function hasText(text) { return text !== null && text !== undefined; }

  function layout(state, heights) {
    var y = 0;
    var sections = state.map(function (section, s) {
      var h = heights[s], top = y, header = null, footer = null;
      if (hasText(section.header)) { header = { y: y, h: h.header }; y += h.header; }
      var rows = section.items.map(function (_, r) { var rect = { y: y, h: h.rows[r] }; y += h.rows[r]; return rect; });
      if (hasText(section.footer)) { footer = { y: y, h: h.footer }; y += h.footer; }
      return { y: top, h: y - top, header: header, rows: rows, footer: footer };
    });
    return { height: y, sections: sections };
  }

  // The parts of a laid-out section, top to bottom.
  function blockParts(section) {
    var parts = [];
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
      var low = 0, high = 1, u = t;
      for (var i = 0; i < 60; i++) {
        var x = coordinate(x1, x2, u);
        if (Math.abs(x - t) < 1e-7) break;
        if (x < t) low = u; else high = u;
        u = (low + high) / 2;
      }
      return coordinate(y1, y2, u);
    };
  }
  var EASINGS = { 'ease-in-out': cubicBezier(0.42, 0, 0.58, 1), linear: function (t) { return Math.max(0, Math.min(1, t)); } };
  function ease(name, t) { return (typeof name === 'function' ? name : EASINGS[name] || EASINGS.linear)(t); }

  // A spring as UIView.animate(withDuration:delay:usingSpringWithDamping:
  // initialSpringVelocity:) runs it, as progress from 0 to 1 over the
  // duration: a damped oscillator whose damping ratio is `damping` (1: no
  // overshoot) and whose initial velocity is `velocity` distances per second
  // (Apple: "a magnitude of 1 corresponds to an initial velocity that would
  // cover the total animation distance in one second"). UIKit ends the
  // animation at its duration, so the spring's swing has died down to 0.1 %
  // of the distance by then.
  function spring(damping, velocity, seconds) {
    var zeta = Math.max(0.05, Math.min(1, damping));
    var omega = Math.log(1000) / (zeta * seconds);
    return function (p) {
      if (p <= 0) return 0;
      if (p >= 1) return 1;
      var s = p * seconds;
      if (zeta >= 1) return 1 - Math.exp(-omega * s) * (1 + (omega - velocity) * s);
      var wd = omega * Math.sqrt(1 - zeta * zeta);
      return 1 - Math.exp(-zeta * omega * s) * (Math.cos(wd * s) + (zeta * omega - velocity) / wd * Math.sin(wd * s));
    };
  }

  // The curve as a CSS easing: linear() through 101 samples (overshoot kept).
  function cssEasing(curve) {
    var values = [];
    for (var k = 0; k <= 100; k++) values.push(Number(curve(k / 100).toFixed(4)));
    return 'linear(' + values.join(', ') + ')';
  }

  // ---- Model: row animation styles (uikit-rules.md) ------------------------------
  // Where a part of an arriving block is at "arrival" q (0: not yet there,
  // 1: in its slot); a leaving block runs the same backwards. `block` and
  // `rect` are in the same layout; width is the list's.
  function styleAt(style, q, block, rect, width) {
    var at = { x: 0, dy: 0, opacity: 1, clipTop: 0, clipBottom: 0 };
    switch (style) {
      case 'fade': at.opacity = q; break;
      case 'right': at.x = (1 - q) * width; break;
      case 'left': at.x = -(1 - q) * width; break;
      case 'top': at.dy = -(1 - q) * block.h; break;      // from behind the row above
      case 'bottom': at.dy = (1 - q) * block.h; break;    // from behind the row below
      case 'middle': {                                    // revealed from the middle of its growing slot
        var shift = (1 - q) * block.h / 2, local = rect.y - block.y;
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
    var local = rect.y - block.y;
    return [1 - 2 * local / block.h, 1 - 2 * (block.h - local - rect.h) / block.h]
      .filter(function (q) { return q > 0 && q < 1; });
  }

  function resolveStyle(style, atEnd, reload) {
    if (style !== 'automatic') return style;
    if (reload) return 'fade';
    return atEnd ? 'top' : 'bottom'; // "bottom at a section's start, top at its end"
  }

  function styledFrames(style, arriving, block, rect, width) {
    var offsets = [0, 1].concat(styleKinks(style, block, rect).map(function (q) { return arriving ? q : 1 - q; }));
    offsets = Array.from(new Set(offsets)).sort(byNumber);
    return offsets.map(function (p) {
      var at = styleAt(style, arriving ? p : 1 - p, block, rect, width);
      if (style === 'none') at.opacity = arriving ? 1 : (p === 0 ? 1 : 0);
      return { offset: p, x: at.x, y: rect.y + at.dy, h: rect.h, opacity: at.opacity, clipTop: at.clipTop, clipBottom: at.clipBottom };
    });
  }

  function glideFrames(from, to) {
    return [
      { offset: 0, x: 0, y: from.y, h: to.h, opacity: 1, clipTop: 0, clipBottom: 0 },
      { offset: 1, x: 0, y: to.y, h: to.h, opacity: 1, clipTop: 0, clipBottom: 0 }
    ];
  }

  // A block that arrives or leaves has a place in the other layout too: the
  // gap it opens or leaves, where the nearest part above it that stays ends
  // there (UIKit's update support gives a deleted cell a target rect in the
  // new row data, "the start of the row after" its neighbour, and an inserted
  // cell a start in the old). Its style plays around a slot that glides
  // between the two, so it moves with its neighbours, as UIKit's cells do.
  function gaps(t, before, after) {
    var sectionTo = new Map(), rowTo = new Map();
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
        var to = sectionTo.get(s);
        if (to && to.how === 'reload') return after.sections[to.a].y;
        for (var k = s - 1; k >= 0; k--) {
          var kept = sectionTo.get(k);
          if (kept && kept.how === 'stay') return end(after.sections[kept.a]);
        }
        return 0;
      },
      // Where old row [s, r] (its section survives) is in the new layout.
      row: function (s, r) {
        var to = rowTo.get(s + ':' + r);
        if (to && to.how === 'reload') return after.sections[to.a].rows[to.r].y;
        var home = sectionTo.get(s);
        for (var i = r - 1; i >= 0; i--) {
          var kept = rowTo.get(s + ':' + i);
          if (kept && kept.how === 'stay' && kept.a === home.a) return end(after.sections[kept.a].rows[kept.r]);
        }
        return top(after.sections[home.a]);
      },
      // Where new section a's slot was in the old layout.
      arrivingSection: function (a) {
        var section = t.sections[a];
        if (section.how === 'reload') return before.sections[section.from].y;
        for (var k = a - 1; k >= 0; k--) {
          if (t.sections[k].how === 'stay') return end(before.sections[t.sections[k].from]);
        }
        return 0;
      },
      // Where new row [a, r] (its section stays or moves) was in the old layout.
      arrivingRow: function (a, r) {
        var row = t.rows[a][r], home = t.sections[a].from;
        if (row.how === 'reload') return before.sections[row.from[0]].rows[row.from[1]].y;
        for (var i = r - 1; i >= 0; i--) {
          var kept = t.rows[a][i];
          if (kept.how === 'stay' && kept.from[0] === home) return end(before.sections[home].rows[kept.from[1]]);
        }
        return top(before.sections[home]);
      }
    };
  }

  // Frames that also glide by `shift` pixels: from 0 to shift for a leaving
  // part, from shift to 0 for an arriving one (keyframes stay linear).
  function shifted(frames, shift, arriving) {
    if (!shift) return frames;
    return frames.map(function (frame) {
      return Object.assign({}, frame, { y: frame.y + shift * (arriving ? 1 - frame.offset : frame.offset) });
    });
  }

  var FIELDS = ['x', 'y', 'h', 'opacity', 'clipTop', 'clipBottom'];
  // A part's frame at eased progress p (keyframes are linear between them).
  function sample(frames, p) {
    if (p <= frames[0].offset) return Object.assign({}, frames[0], { offset: p });
    for (var k = 1; k < frames.length; k++) {
      var a = frames[k - 1], b = frames[k];
      if (p <= b.offset) {
        var f = b.offset === a.offset ? 1 : (p - a.offset) / (b.offset - a.offset);
        var frame = { offset: p };
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
  var LAYER = { leaving: 1, arriving: 2, still: 3, moving: 4, header: 5 };
  var LAYER_SIZE = 100000;

  // The timeline of one batch.
  //   o.trace: trace(before, batch); o.before, o.after: layouts of both states;
  //   o.styles: {insert, delete, reload}; o.width: the list's width;
  //   o.viewport: {top, maxHeight} in content pixels, or null for no culling:
  //   a part off-screen both before and after does not animate (UIKit has no
  //   cell for it), it is at its new place from the start.
  // Returns {from, to, height: [{offset, h}], parts: [{type, unit, side, s, r, from,
  //   role, layer, z, style, shown, animated, frames}]} (shown: on screen before
  //   or after, so drawn at its z; from: the old [section, row]
  //   a new part came from, row -1 for a header or footer, null if fresh) (unit: 'section' when the part goes
  //   with its whole section, 'row' when with its own row): side 'old' parts are copies of old cells
  //   that leave; side 'new' parts are the new state's elements.
  function timeline(o) {
    var t = o.trace, before = o.before, after = o.after, width = o.width || 0;
    var H0 = before.height, H1 = after.height;
    var view0 = null, view1 = null;
    if (o.viewport) {
      var frame0 = Math.min(o.viewport.maxHeight, H0), frame1 = Math.min(o.viewport.maxHeight, H1);
      var top1 = Math.max(0, Math.min(o.viewport.top, H1 - frame1));
      view0 = { top: o.viewport.top, bottom: o.viewport.top + frame0 };
      view1 = { top: top1, bottom: top1 + frame1 };
    }
    function seen(rect, view) { return !view || (rect.y + rect.h > view.top && rect.y < view.bottom); }
    // Whether a part's path (keyframes are straight lines) is on screen at
    // any moment: a long section that leaves copies only what can be seen.
    function crosses(frames) {
      var top = Infinity, bottom = -Infinity;
      frames.forEach(function (f) { top = Math.min(top, f.y); bottom = Math.max(bottom, f.y + f.h); });
      var span = { y: top, h: bottom - top };
      return seen(span, view0) || seen(span, view1);
    }
    var parts = [], gap = gaps(t, before, after);
    function add(part) { part.order = parts.length; parts.push(part); }

    // Blocks that leave: whole sections (header, rows, footer), then rows.
    var removedRows = new Set();
    t.leftRows.forEach(function (left) { removedRows.add(left.from[0] + ':' + left.from[1]); });
    t.rows.forEach(function (list) { list.forEach(function (row) { if (row.how === 'move') removedRows.add(row.from[0] + ':' + row.from[1]); }); });
    var leavingSections = new Set(t.leftSections.map(function (l) { return l.from; }));
    t.sections.forEach(function (section) { if (section.how === 'move') leavingSections.add(section.from); });
    t.leftSections.forEach(function (left) {
      var block = before.sections[left.from];
      if (!seen(block, view0)) return;
      var reload = left.how === 'reload';
      var later = before.sections.some(function (_, i) { return i > left.from && !leavingSections.has(i); });
      var style = resolveStyle(reload ? o.styles.reload : o.styles.delete, !later, reload);
      if (style === 'none') return;
      var shift = gap.section(left.from) - block.y;
      blockParts(block).forEach(function (part) {
        var frames = shifted(styledFrames(style, false, block, part.rect, width), shift, false);
        if (!crosses(frames)) return;
        add({ type: part.type, unit: 'section', side: 'old', s: left.from, r: part.r, role: reload ? 'reload-old' : 'delete', layer: 'leaving',
          style: style, shown: true, animated: true, frames: frames });
      });
    });
    t.leftRows.forEach(function (left) {
      var rect = before.sections[left.from[0]].rows[left.from[1]];
      if (!seen(rect, view0)) return;
      var reload = left.how === 'reload';
      var count = before.sections[left.from[0]].rows.length;
      var later = false;
      for (var i = left.from[1] + 1; i < count; i++) if (!removedRows.has(left.from[0] + ':' + i)) later = true;
      var style = resolveStyle(reload ? o.styles.reload : o.styles.delete, !later, reload);
      if (style === 'none') return;
      add({ type: 'row', unit: 'row', side: 'old', s: left.from[0], r: left.from[1], role: reload ? 'reload-old' : 'delete', layer: 'leaving',
        style: style, shown: true, animated: true,
        frames: shifted(styledFrames(style, false, rect, rect, width), gap.row(left.from[0], left.from[1]) - rect.y, false) });
    });

    // Everything in the new state: arriving blocks, rows that glide.
    t.sections.forEach(function (section, a) {
      var block = after.sections[a];
      if (section.how === 'insert' || section.how === 'reload') {
        var reload = section.how === 'reload';
        var later = t.sections.some(function (other, i) { return i > a && other.how !== 'insert'; });
        var style = resolveStyle(reload ? o.styles.reload : o.styles.insert, !later, reload);
        var shown = seen(block, view1), shift = gap.arrivingSection(a) - block.y;
        blockParts(block).forEach(function (part) {
          add({ type: part.type, unit: 'section', side: 'new', s: a, r: part.r, from: reload && part.type !== 'row' ? [section.from, -1] : null,
            role: reload ? 'reload-new' : 'insert', layer: 'arriving',
            style: style, shown: shown, animated: shown,
            frames: shown ? shifted(styledFrames(style, true, block, part.rect, width), shift, true) : glideFrames(part.rect, part.rect) });
        });
        return;
      }
      var old = before.sections[section.from];
      var sectionMoves = section.how === 'move';
      function glide(type, from, to, r, moving) {
        var shown = seen(from, view0) || seen(to, view1);
        add({ type: type, unit: type === 'row' ? 'row' : 'section', side: 'new', s: a, r: r,
          from: type === 'row' ? t.rows[a][r].from : [section.from, -1], role: moving ? 'move' : 'stay',
          layer: type !== 'row' ? 'header' : moving ? 'moving' : 'still',
          style: null, shown: shown, animated: shown && (from.y !== to.y), frames: shown ? glideFrames(from, to) : glideFrames(to, to) });
      }
      if (block.header) glide('header', old.header || block.header, block.header, -1, sectionMoves);
      t.rows[a].forEach(function (row, r) {
        var rect = block.rows[r];
        if (row.how === 'insert' || row.how === 'reload') {
          var reload = row.how === 'reload';
          var later = false;
          for (var i = r + 1; i < t.rows[a].length; i++) if (t.rows[a][i].how !== 'insert') later = true;
          var style = resolveStyle(reload ? o.styles.reload : o.styles.insert, !later, reload);
          var shown = seen(rect, view1);
          add({ type: 'row', unit: 'row', side: 'new', s: a, r: r, from: row.from, role: reload ? 'reload-new' : 'insert', layer: 'arriving',
            style: style, shown: shown, animated: shown,
            frames: shown ? shifted(styledFrames(style, true, rect, rect, width), gap.arrivingRow(a, r) - rect.y, true) : glideFrames(rect, rect) });
          return;
        }
        var from = before.sections[row.from[0]].rows[row.from[1]];
        glide('row', from, rect, r, sectionMoves || row.how === 'move');
      });
      if (block.footer) glide('footer', old.footer || block.footer, block.footer, -1, sectionMoves);
    });

    // Z: the layer, then within it list order; a block sliding from behind
    // its upper neighbour ('top') draws the upper of two such rows on top.
    parts.forEach(function (part) {
      var rank = Math.min(part.order, LAYER_SIZE - 1);
      part.z = LAYER[part.layer] * LAYER_SIZE + (part.style === 'top' ? LAYER_SIZE - 1 - rank : rank);
    });

    // The list's height: the two layouts interpolated, but never cutting off
    // a leaving cell while it can still be seen.
    var offsets = new Set([0, 1]);
    for (var k = 1; k < 20; k++) offsets.add(k / 20);
    parts.forEach(function (part) { part.frames.forEach(function (frame) { offsets.add(frame.offset); }); });
    var ceiling = Math.max(H0, H1);
    var height = Array.from(offsets).sort(byNumber).map(function (p) {
      var h = H0 + (H1 - H0) * p;
      parts.forEach(function (part) {
        if (part.side !== 'old') return;
        var at = sample(part.frames, p);
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
  function scrollForChanges(t, before, after, viewport) {
    var frame0 = Math.min(viewport.maxHeight, before.height), frame1 = Math.min(viewport.maxHeight, after.height);
    if (before.height <= viewport.maxHeight && after.height <= viewport.maxHeight) return null;
    var top1 = Math.max(0, Math.min(viewport.top, after.height - frame1));
    var old = [], fresh = [];
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
    var cover = viewport.cover || 0;
    function visible(rect, top, frame) {
      var shown = Math.min(rect.y + rect.h, top + frame) - Math.max(rect.y, top + cover);
      return shown >= Math.min(rect.h / 2, 24);
    }
    if (old.some(function (rect) { return visible(rect, viewport.top, frame0); })
      || fresh.some(function (rect) { return visible(rect, top1, frame1); })) return null;
    var first = Math.min.apply(null, old.concat(fresh).map(function (rect) { return rect.y; }));
    // The list is as tall as the old state when the batch starts.
    return Math.round(Math.max(0, Math.min(before.height - frame0, first - frame0 / 4)));
  }

  function sampleHeight(height, p) {
    var frames = height.map(function (f) { return { offset: f.offset, x: 0, y: 0, h: f.h, opacity: 1, clipTop: 0, clipBottom: 0 }; });
    return sample(frames, p).h;
  }

  var model = Object.freeze({ trace: trace, applyBatch: applyBatch, layout: layout, timeline: timeline,
    sample: sample, sampleHeight: sampleHeight, ease: ease, spring: spring, scrollForChanges: scrollForChanges });

  // ---- Render: elements for a state ---------------------------------------------
  // A view mirrors a state: [{el, header, footer, rows: [el]}]. Every part
  // (header, row, footer) is absolutely placed in the list's content at the
  // layout's y; section elements only group their parts.
  var REDUCED = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  function rowKeys(state) {
    var seen = new Map();
    return state.map(function (section) {
      return section.items.map(function (row) {
        var n = (seen.get(row.id) || 0) + 1;
        seen.set(row.id, n);
        return row.id + '\u0000' + n; // repeated ids (content identity) pair by occurrence
      });
    });
  }

  // A row's fields are [name, text] pairs shown in a line, or, when its
  // example draws rows as cells (`cell:`), [name, text, slot] triples: the
  // slot (title, subtitle, detail, image, badge) is the part of the cell.
  function fillRow(line, row) {
    var fields = row.fields.length ? row.fields : [['id', row.id]];
    var cell = fields[0].length > 2, changed = false;
    if (line.classList.contains('rowmotion-cell') !== cell) { line.classList.toggle('rowmotion-cell', cell); changed = true; }
    var spans = line.children;
    while (spans.length > fields.length) { line.removeChild(line.lastChild); changed = true; }
    fields.forEach(function (field, k) {
      var span = spans[k];
      if (!span) {
        span = document.createElement('span');
        line.appendChild(span);
        changed = true;
      }
      var slot = cell ? field[2] : null;
      var className = slot ? 'field cell-' + slot + (slot === 'title' ? ' primary' : '') : 'field' + (k === 0 ? ' primary' : '');
      if (span.className !== className) { span.className = className; changed = true; }
      span.setAttribute('data-field', field[0]);
      if (slot) span.setAttribute('data-slot', slot); else span.removeAttribute('data-slot');
      var text = field[1] === null ? '' : String(field[1]);
      if (slot === 'image') {
        if (span.getAttribute('data-value') === text && span.firstChild) return;
        span.setAttribute('data-value', text);
        if (isPictureAddress(text)) {
          var picture = document.createElement('img');
          picture.src = text;
          picture.alt = '';
          span.removeAttribute('aria-hidden');
          span.replaceChildren(picture);
        } else {
          span.setAttribute('aria-hidden', 'true');
          span.textContent = tileText(text);
        }
        changed = true;
        return;
      }
      if (slot === 'accessory') {
        var accessory = ACCESSORIES[text] || ['', null];
        if (span.getAttribute('data-value') === text) return;
        span.setAttribute('data-value', text);
        if (accessory[1]) { span.setAttribute('role', 'img'); span.setAttribute('aria-label', accessory[1]); span.removeAttribute('aria-hidden'); }
        else { span.removeAttribute('role'); span.removeAttribute('aria-label'); span.setAttribute('aria-hidden', 'true'); }
        span.textContent = accessory[0];
        changed = true;
        return;
      }
      if (span.hasAttribute('data-value')) {
        ['data-value', 'aria-hidden', 'role', 'aria-label'].forEach(function (name) { span.removeAttribute(name); });
        span.textContent = '';
      }
      if (span.textContent !== text || span.firstElementChild) { span.textContent = text; changed = true; }
    });
    return changed;
  }

  // An image slot's value that is a picture to load; any other text shows
  // its first character on a tile (an emoji, an initial), as the page's
  // first rows do (ExamplePages.swift).
  // UITableViewCell.AccessoryType: the glyph, and what a screen reader says
  // of it when it tells something about the row (ExamplePages.swift's
  // accessory(_:)).
  var ACCESSORIES = { checkmark: ['\u2713', 'checked'], disclosureIndicator: ['\u203A', null],
    detailButton: ['\u24D8', null], detailDisclosureButton: ['\u24D8 \u203A', null] };
  function isPictureAddress(value) { return /^(https?:\/\/|data:image\/)/.test(value); }
  function tileText(value) {
    var first = typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
      ? (new Intl.Segmenter().segment(value)[Symbol.iterator]().next().value || { segment: '' }).segment
      : Array.from(value)[0] || '';
    return first.toUpperCase();
  }

  function makeRow(row) {
    var line = document.createElement('div');
    line.className = 'rowmotion-row';
    line.setAttribute('role', 'listitem');
    line.setAttribute('data-item-id', row.id);
    fillRow(line, row);
    return line;
  }

  function makeSection(section) {
    var block = document.createElement('div');
    block.className = 'rowmotion-section';
    block.setAttribute('role', 'list');
    block.setAttribute('data-section-id', section.id);
    return block;
  }

  // Header and footer elements of a section view, made, updated or removed;
  // a changed text is measured again.
  function textPart(current, tag, className, text, known) {
    if (!hasText(text)) return null;
    var element = current || document.createElement(tag);
    element.className = className;
    if (element.textContent !== text) { element.textContent = text; known.delete(element); }
    return element;
  }
  // In a section's list only rows are items: its header and footer are
  // presentation (the section is named by its header).
  function headerPart(current, section, known) { return presentation(textPart(current, 'h3', 'rowmotion-header', section.header, known)); }
  function footerPart(current, section, known) { return presentation(textPart(current, 'p', 'footer', section.footer, known)); }
  function presentation(element) { if (element) element.setAttribute('role', 'presentation'); return element; }

  // A section is named by its header, else by its id, else by its place
  // (an unnamed section is "Section 1", never "Section ").
  function describeSection(view, section, index) {
    var label = hasText(section.header) && section.header !== '' ? section.header
      : 'Section ' + (section.id !== '' ? section.id : String(index + 1));
    if (view.el.getAttribute('aria-label') !== label) view.el.setAttribute('aria-label', label);
    // A list needs items: a section with no rows is a group until it has some.
    var role = section.items.length ? 'list' : 'group';
    if (view.el.getAttribute('role') !== role) view.el.setAttribute('role', role);
  }

  // Puts the views' elements in `container` in order; removes the rest.
  function arrange(container, views) {
    views.forEach(function (view) {
      var parts = [];
      if (view.header) parts.push(view.header);
      for (var r = 0; r < view.rows.length; r++) parts.push(view.rows[r]);
      if (view.footer) parts.push(view.footer);
      order(view.el, parts);
    });
    order(container, views.map(function (view) { return view.el; }));
  }

  // Makes `elements` the children of `parent`, in order, moving as few as it
  // can: the longest run already in order stays, so a step that moves three
  // rows of 5,000 moves three elements (each move restyles what it moves).
  function order(parent, elements) {
    var wanted = new Set(elements), at = new Map(), k = 0, child, next;
    for (child = parent.firstElementChild; child; child = next) {
      next = child.nextElementSibling;
      if (wanted.has(child)) at.set(child, k++); else parent.removeChild(child);
    }
    var stays = increasingRun(elements.map(function (el) { return at.has(el) ? at.get(el) : -1; }));
    var anchor = null;
    for (var i = elements.length - 1; i >= 0; i--) {
      if (!stays[i]) parent.insertBefore(elements[i], anchor);
      anchor = elements[i];
    }
  }

  // Flags the members of a longest strictly increasing subsequence of the
  // non-negative values (patience sorting, O(n log n)).
  function increasingRun(values) {
    var tails = [], previous = new Array(values.length), flags = new Array(values.length);
    values.forEach(function (value, i) {
      if (value < 0) return;
      var low = 0, high = tails.length;
      while (low < high) {
        var mid = (low + high) >> 1;
        if (values[tails[mid]] < value) low = mid + 1; else high = mid;
      }
      previous[i] = low ? tails[low - 1] : -1;
      tails[low] = i;
    });
    for (var i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) flags[i] = true;
    return flags;
  }

  // The view of `state`, reusing the elements of `views` by key (for jumps).
  function viewsByKey(state, views, oldState, known) {
    var rowsByKey = new Map(), sectionsById = new Map();
    if (views) {
      var oldKeys = rowKeys(oldState);
      views.forEach(function (view, s) {
        sectionsById.set(oldState[s].id, view);
        view.rows.forEach(function (row, r) { rowsByKey.set(oldKeys[s][r], row); });
      });
    }
    var keys = rowKeys(state);
    return state.map(function (section, s) {
      var old = sectionsById.get(section.id);
      var view = { el: old ? old.el : makeSection(section), header: null, footer: null, rows: [] };
      view.header = headerPart(old && old.header, section, known);
      view.footer = footerPart(old && old.footer, section, known);
      describeSection(view, section, s);
      view.rows = section.items.map(function (row, r) {
        var line = rowsByKey.get(keys[s][r]);
        if (line) { if (fillRow(line, row)) known.delete(line); } else line = makeRow(row);
        return line;
      });
      return view;
    });
  }

  function partElement(views, part) {
    var view = views[part.s];
    if (part.type === 'header') return view.header;
    if (part.type === 'footer') return view.footer;
    return view.rows[part.r];
  }

  // A leaving cell's copy, where the cell was, out of the accessibility tree.
  function ghostOf(element, y) {
    var ghost = element.cloneNode(true);
    [ghost].concat(Array.prototype.slice.call(ghost.querySelectorAll('*'))).forEach(function (node) {
      node.removeAttribute('data-item-id');
      node.removeAttribute('data-section-id');
      node.removeAttribute('role');
    });
    ghost.classList.add('rowmotion-ghost');
    ghost.setAttribute('aria-hidden', 'true');
    if (element.hasAttribute('data-item-id')) ghost.setAttribute('data-ghost-of', element.getAttribute('data-item-id'));
    ghost.style.top = y + 'px';
    return ghost;
  }

  // While a step is held, a row that changes says where it was, where it
  // goes and the call that takes it there: "[0, 2] → [0, 0] moveRow". A row
  // that only shifts says its index paths; one that stays says nothing.
  var SECTION_CALLS = { move: 'moveSection', insert: 'insertSections', reload: 'reloadSections', delete: 'deleteSections' };
  function indexPath(p) { return '[' + p[0] + ', ' + p[1] + ']'; }
  function arrivingLabel(traced, a, r) {
    var how = traced.rows[a][r], to = indexPath([a, r]), from = how.from ? indexPath(how.from) + ' ' : '';
    var moved = how.from && (how.from[0] !== a || how.from[1] !== r);
    if (how.how === 'insert') return '→ ' + to + ' insertRows';
    if (how.how === 'move') return from + '→ ' + to + ' moveRow';
    if (how.how === 'reload') return moved ? from + '→ ' + to + ' reloadRows' : from + 'reloadRows';
    if (how.how === 'section') return '→ ' + to + ' ' + SECTION_CALLS[traced.sections[a].how];
    if (traced.sections[a].how === 'move') return from + '→ ' + to + ' moveSection';
    return moved ? from + '→ ' + to : null;
  }
  function leavingLabel(traced, part) {
    var from = indexPath([part.s, part.r]) + ' → ';
    var section = traced.leftSections.filter(function (left) { return left.from === part.s; })[0];
    if (section) return from + SECTION_CALLS[section.how];
    return part.role === 'delete' ? from + 'deleteRows' : null;
  }

  function keyframes(part, base) {
    return part.frames.map(function (frame) {
      var key = {
        offset: frame.offset,
        transform: 'translate(' + frame.x + 'px,' + (frame.y - base) + 'px)',
        opacity: frame.opacity
      };
      if (part.style === 'middle') key.clipPath = 'inset(' + frame.clipTop + 'px 0px ' + frame.clipBottom + 'px 0px)';
      return key;
    });
  }

  // ---- Counts and words ------------------------------------------------------------
  function counts(step) {
    var c = { insert: 0, delete: 0, move: 0, reload: 0 };
    step.batches.forEach(function (batch) {
      c.insert += batch.rows.insert.length + batch.sections.insert.length;
      c.delete += batch.rows.delete.length + batch.sections.delete.length;
      c.move += batch.rows.move.length + batch.sections.move.length;
      c.reload += batch.rows.reload.length + batch.sections.reload.length;
    });
    return c;
  }

  function describe(c) {
    var parts = [];
    if (c.insert) parts.push(c.insert + ' inserted');
    if (c.delete) parts.push(c.delete + ' deleted');
    if (c.move) parts.push(c.move + ' moved');
    if (c.reload) parts.push(c.reload + ' reloaded');
    return parts.length ? parts.join(', ') : 'no changes';
  }

  // The controls' glyphs, drawn as inline SVG: text symbols such as ⏸ are
  // empty boxes where no symbol font is installed. Buttons keep their names
  // in aria-label and title.
  var GLYPHS = {
    prev: 'M13.5 2.5v11L6.5 8zM2.5 2.5h3v11h-3z',
    play: 'M4 2.5v11L13.5 8z',
    pause: 'M3.5 2.5h3.25v11H3.5zM9.25 2.5h3.25v11H9.25z',
    next: 'M2.5 2.5v11L9.5 8zM10.5 2.5h3v11h-3z'
  };
  function glyph(name) {
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('width', '16');
    svg.setAttribute('height', '16');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.setAttribute('class', 'rowmotion-glyph');
    svg.setAttribute('data-glyph', name);
    var path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', GLYPHS[name]);
    path.setAttribute('fill', 'currentColor');
    svg.appendChild(path);
    return svg;
  }

  // What a step does, in words, naming rows by their first field.
  function rowName(row) {
    var fields = (row && row.fields) || [];
    var first = fields.filter(function (field) { return field[2] === 'title'; })[0] || (fields[0] && fields[0].length < 3 ? fields[0] : null);
    var text = first && first[1] !== null && first[1] !== undefined ? String(first[1]) : (row ? row.id : '');
    return text === '' ? (row ? row.id : '') : text;
  }

  function sectionName(section) {
    return hasText(section.header) && section.header !== '' ? 'section ' + section.header : 'section ' + section.id;
  }

  function narrate(state, step) {
    var sentences = [];
    function list(names, verb) {
      if (!names.length) return;
      var shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ' and ' + (names.length - 3) + ' more' : '');
      sentences.push(shown + ' ' + verb);
    }
    step.batches.forEach(function (batch) {
      var traced = trace(state, batch);
      var inserted = [], deleted = [], moved = [], reloaded = [], sections = [];
      traced.leftSections.forEach(function (l) { if (l.how === 'delete') sections.push(sectionName(state[l.from]) + ' deleted'); });
      traced.leftRows.forEach(function (l) { if (l.how === 'delete') deleted.push(rowName(state[l.from[0]].items[l.from[1]])); });
      traced.sections.forEach(function (sec, a) {
        if (sec.how === 'insert') sections.push(sectionName(traced.state[a]) + ' inserted');
        if (sec.how === 'reload') sections.push(sectionName(traced.state[a]) + ' reloaded');
        if (sec.how === 'move') sections.push(sectionName(traced.state[a]) + ' moved to position ' + (a + 1));
        traced.rows[a].forEach(function (row, r) {
          var name = rowName(traced.state[a].items[r]);
          if (row.how === 'insert') inserted.push(name);
          else if (row.how === 'reload') reloaded.push(name);
          else if (row.how === 'move') moved.push(name + (r === 0 ? ' moved to the top' : ' moved to row ' + (r + 1)) + (traced.state.length > 1 ? ' of ' + sectionName(traced.state[a]) : ''));
        });
      });
      sentences = sentences.concat(sections, moved);
      list(inserted, 'inserted');
      list(deleted, 'deleted');
      list(reloaded, 'reloaded');
      state = traced.state;
    });
    return sentences.length ? sentences.join('; ') : 'nothing changes';
  }

  // ---- Player ---------------------------------------------------------------------
  var BASE_DURATION = 300, UXKIT_DURATION = 250, PAUSE_BETWEEN_STEPS = 600;
  var SPEEDS = [['0.1', '0.1×'], ['0.25', '0.25×'], ['0.5', '0.5×'], ['1', '1×'], ['2', '2×'], ['uxkit', 'UXKit (0.25 s linear)']];
  var internals = new WeakMap();
  var ROLE_WORDS = { structure: 'structural', reloads: 'deferred reloads' };

  // A list in `host`: its content element and what it shows. The sections
  // the page's HTML already shows (the first snapshot) are adopted as they
  // are, elements and all, and read back as the state they show.
  // The list's content is two boxes: `frame` has the content's height (which
  // animates) and `container`, a box of no height pinned to its top, holds
  // the sections, so a height that changes every frame does not lay out
  // every row again every frame.
  // The page's HTML has the two boxes already (the default theme's does), so
  // adopting them moves no row: moving them would lay every row out again.
  function makeSurface(host) {
    var frame = host.firstElementChild, container = frame && frame.firstElementChild;
    var adopted = frame && frame.classList.contains('rowmotion-sections') && container && container.classList.contains('rowmotion-content');
    if (!adopted) {
      frame = document.createElement('div');
      frame.className = 'rowmotion-sections';
      container = frame.appendChild(document.createElement('div'));
      container.className = 'rowmotion-content';
    }
    var state = [], views = [];
    Array.prototype.slice.call((adopted ? container : host).children).forEach(function (el) {
      if (!el.hasAttribute('data-section-id')) return;
      var section = { id: el.getAttribute('data-section-id'), header: null, footer: null, items: [] };
      var view = { el: el, header: null, footer: null, rows: [] };
      Array.prototype.forEach.call(el.children, function (child) {
        if (child.hasAttribute('data-item-id')) {
          view.rows.push(child);
          section.items.push({ id: child.getAttribute('data-item-id'), fields: Array.prototype.map.call(child.children, function (span) {
            var slot = span.getAttribute('data-slot');
            if (slot) return [span.getAttribute('data-field'), slot === 'image' || slot === 'accessory' ? span.getAttribute('data-value') : span.textContent, slot];
            return [span.getAttribute('data-field'), span.textContent];
          }) });
        } else if (child.classList.contains('rowmotion-header')) {
          view.header = child;
          section.header = child.textContent;
        } else if (child.classList.contains('footer')) {
          view.footer = child;
          section.footer = child.textContent;
        }
      });
      state.push(section);
      views.push(view);
      if (!adopted) container.appendChild(el);
    });
    if (!adopted) host.replaceChildren(frame);
    var surface = { host: host, frame: frame, container: container, shown: null, known: new WeakMap(), width: -1 };
    if (views.length) surface.shown = { state: state, views: views, laid: null };
    return surface;
  }

  // Heights of the views' parts, from the cache where known; the rest are
  // measured where they are (which lays the list out).
  function heightsOf(surface, views, width) {
    if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
    var known = surface.known;
    function of(el) {
      if (!el) return 0;
      var h = known.get(el);
      if (h === undefined) { h = el.getBoundingClientRect().height; known.set(el, h); }
      return h;
    }
    return views.map(function (view) {
      return { header: of(view.header), rows: view.rows.map(of), footer: of(view.footer) };
    });
  }

  // Measures cells that are not in the list yet, and copies of cells whose
  // content is about to change, in a small hidden box of the list's width:
  // laying that box out costs what it holds, where measuring in the list
  // would lay out every row of it. Call it before the list is touched.
  function measureAside(surface, elements) {
    if (!elements.length) return;
    var box = surface.box;
    if (!box) {
      box = surface.box = document.createElement('div');
      box.className = 'rowmotion-measure';
      box.setAttribute('aria-hidden', 'true');
      box.appendChild(document.createElement('div')).className = 'rowmotion-section';
      surface.host.appendChild(box);
    }
    box.style.width = surface.width + 'px';
    var holder = box.firstChild;
    elements.forEach(function (el) { holder.appendChild(el); });
    elements.forEach(function (el) { surface.known.set(el, el.getBoundingClientRect().height); });
    holder.replaceChildren();
  }

  // The end state at once (a jump, or reloadData()). `later` leaves it
  // unmeasured: the content stays in flow, so the list has its height
  // without a layout forced here, and it is measured after the first frame
  // (a 1,000-row page spent its longest load task laying every row out
  // while measuring) or when a batch needs it, whichever comes first.
  function showState(surface, state, later) {
    var views = viewsByKey(state, surface.shown && surface.shown.views, surface.shown && surface.shown.state, surface.known);
    arrange(surface.container, views);
    surface.shown = { state: state, views: views, laid: null };
    if (!later) { relayout(surface); return; }
    surface.frame.setAttribute('data-unmeasured', '');
    surface.frame.style.height = '';
    requestAnimationFrame(function () { setTimeout(function () { if (!surface.shown.laid) relayout(surface); }, 0); });
  }

  // Lays the shown state out (again, when the width changed).
  function relayout(surface) {
    if (!surface.shown) return;
    var laid = layout(surface.shown.state, heightsOf(surface, surface.shown.views, surface.frame.clientWidth));
    surface.frame.style.height = laid.height + 'px';
    surface.frame.removeAttribute('data-unmeasured');
    surface.shown.laid = laid;
  }

  // iOS's scroll indicator, over the rows while the list scrolls and a
  // moment after: the list has no scrollbar of its own (no gutter cuts the
  // separators or narrows the cells).
  function showScrolling(player, list) {
    var bar = document.createElement('div');
    bar.className = 'rowmotion-indicator';
    bar.setAttribute('aria-hidden', 'true');
    player.appendChild(bar);
    var hide = null;
    list.addEventListener('scroll', function () {
      var shown = list.clientHeight, total = list.scrollHeight;
      if (total <= shown + 1) return;
      var length = Math.max(24, shown * shown / total);
      bar.style.height = length + 'px';
      bar.style.top = (list.offsetTop + 2 + (shown - length - 4) * list.scrollTop / (total - shown)) + 'px';
      bar.style.left = (list.offsetLeft + list.offsetWidth - 6) + 'px';
      bar.setAttribute('data-shown', '');
      clearTimeout(hide);
      hide = setTimeout(function () { bar.removeAttribute('data-shown'); }, 700);
    }, { passive: true });
  }

  function within(value, low, high) { return typeof value === 'number' && isFinite(value) && value >= low && value <= high; }

  function maxHeightOf(element) {
    var value = parseFloat(getComputedStyle(element).maxHeight);
    return isFinite(value) ? value : Infinity;
  }

  function makePlayer(element) {
    var data = readData(element);
    if (data.cell && element.getAttribute('data-cell') !== data.cell) element.setAttribute('data-cell', data.cell);
    // The reloadData() pane of a strategy comparison jumps, as reloadData does.
    var jumps = element.getAttribute('data-strategy') === 'reloadData';
    var list = element.querySelector('.rowmotion-list');
    var surface = makeSurface(list);
    showScrolling(element, list);
    var states = [surface.shown ? surface.shown.state : []];
    var timer = null, current = 0, pending = 0, speed = 1, linear = false;
    var chain = Promise.resolve(), generation = 0;
    var running = null;   // {animations, ghosts, lifted, batch}
    var held = null;      // {step, batch, fraction} while scrubbing

    function stateAt(n) {
      while (states.length <= n) {
        var k = states.length - 1;
        states.push(data.steps[k].batches.reduce(applyBatch, states[k]));
      }
      return states[n];
    }

    // The sequence's own timing (`duration:`, `spring:`), else UIKit's 0.3 s
    // ease-in-out; the UXKit speed choice is 0.25 s linear whatever it says.
    // The data may come from a baseline report: numbers are checked here.
    var framing = data.presentation || {};
    var ownDuration = within(framing.duration, 0.05, 10) ? framing.duration * 1000 : BASE_DURATION;
    var ownSpring = framing.spring && within(framing.spring.damping, 0.05, 1)
      ? spring(framing.spring.damping, within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0, ownDuration / 1000) : null;
    var ownEasing = ownSpring ? cssEasing(ownSpring) : 'ease-in-out';
    var springValues = ownSpring ? { damping: framing.spring.damping, velocity: within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0 } : null;
    if (within(framing.height, 120, 4000)) element.style.setProperty('--rowmotion-height', framing.height + 'px');
    if (within(framing.width, 240, 2000)) element.style.setProperty('--rowmotion-width', framing.width + 'px');
    if (['grouped', 'insetGrouped'].indexOf(framing.style) >= 0) element.setAttribute('data-table-style', framing.style);

    function timing() {
      if (linear) return { duration: UXKIT_DURATION, easing: 'linear', fill: 'both' };
      return { duration: ownDuration, easing: ownEasing, fill: 'both', curve: ownSpring };
    }

    // Ends the batch on screen now: no animation, copy or lift is left.
    function stopRunning() {
      if (!running) return;
      var stopping = running;
      running = null;
      stopping.animations.forEach(function (animation) { animation.cancel(); });
      stopping.ghosts.forEach(function (ghost) { ghost.remove(); });
      stopping.lifted.forEach(function (el) { el.style.zIndex = ''; el.removeAttribute('data-rowmotion-part'); el.removeAttribute('data-moving'); });
      surface.container.querySelectorAll('[data-path]').forEach(function (el) { el.removeAttribute('data-path'); });
      element.removeAttribute('data-playing-batch');
    }

    // Plays one batch from what is shown. Resolves when it has settled, or
    // at once when it was stopped (a newer call took over).
    function playBatch(batch, info, changed) {
      if (!surface.shown.laid) relayout(surface);
      var before = surface.shown;
      var traced = trace(before.state, batch);
      var inspect = element.hasAttribute('data-rowmotion-inspect');
      // What the list's geometry is, read before anything is written (one
      // layout at most, none when a frame has been drawn since the last write).
      var width = surface.frame.clientWidth;
      var viewport = { top: list.scrollTop, maxHeight: maxHeightOf(list) };
      if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
      // The old cells that leave. A leaving row is copied now, before its
      // cell is refilled; the cells of a leaving section are copied when the
      // timeline shows them (none of them is refilled by this batch).
      var copies = new Map();
      function copy(s, type, r, el) { if (el) copies.set(s + ':' + type + ':' + r, el.cloneNode(true)); }
      function later(s, type, r, el) { if (el) copies.set(s + ':' + type + ':' + r, el); }
      traced.leftSections.forEach(function (left) {
        var view = before.views[left.from];
        later(left.from, 'header', -1, view.header);
        view.rows.forEach(function (row, r) { later(left.from, 'row', r, row); });
        later(left.from, 'footer', -1, view.footer);
      });
      traced.leftRows.forEach(function (left) { copy(left.from[0], 'row', left.from[1], before.views[left.from[0]].rows[left.from[1]]); });

      // The new state's elements: each row keeps its element wherever it
      // goes. Reloaded rows are refilled after the new cells are measured.
      var refills = [];
      var views = traced.state.map(function (section, a) {
        var how = traced.sections[a];
        var old = how.how === 'stay' || how.how === 'move' ? before.views[how.from] : null;
        var view = { el: old ? old.el : makeSection(section), header: null, footer: null, rows: [] };
        view.header = headerPart(old && old.header, section, surface.known);
        view.footer = footerPart(old && old.footer, section, surface.known);
        describeSection(view, section, a);
        view.rows = section.items.map(function (row, r) {
          var from = traced.rows[a][r];
          if (!from.from) return makeRow(row);
          var line = before.views[from.from[0]].rows[from.from[1]];
          if (from.how === 'reload') refills.push({ line: line, row: row });
          return line;
        });
        return view;
      });
      var fresh = [], copiesToMeasure = [];
      views.forEach(function (view) {
        [view.header].concat(view.rows, [view.footer]).forEach(function (el) {
          if (el && !el.isConnected && !surface.known.has(el)) fresh.push(el);
        });
      });
      refills.forEach(function (refill) {
        var copy = refill.line.cloneNode(true);
        if (fillRow(copy, refill.row)) { refill.copy = copy; copiesToMeasure.push(copy); }
      });
      measureAside(surface, fresh.concat(copiesToMeasure));
      refills.forEach(function (refill) {
        fillRow(refill.line, refill.row);
        if (refill.copy) surface.known.set(refill.line, surface.known.get(refill.copy));
        (changed[refill.row.id] || []).forEach(function (name) {
          var field = refill.line.querySelector('[data-field="' + CSS.escape(name) + '"]');
          if (field) field.setAttribute('data-changed', '');
        });
      });
      arrange(surface.container, views);
      var laid = layout(traced.state, heightsOf(surface, views, width));
      // The change must be in sight: scrolled to before anything moves,
      // while the list still has the old state's height.
      // In plain style a pinned header covers the list's top.
      var cover = element.hasAttribute('data-table-style') ? 0 : before.laid.sections.reduce(function (most, section) {
        return section.header ? Math.max(most, section.header.h) : most;
      }, 0);
      var scrollTo = scrollForChanges(traced, before.laid, laid, { top: viewport.top, maxHeight: viewport.maxHeight, cover: cover });
      if (scrollTo !== null) { list.scrollTop = scrollTo; viewport.top = scrollTo; }
      surface.frame.style.height = laid.height + 'px';
      surface.shown = { state: traced.state, views: views, laid: laid };

      var t = timing();
      var plan = timeline({ trace: traced, before: before.laid, after: laid, styles: data.animations,
        width: width, viewport: viewport });
      if (held) plan.parts.forEach(function (part) {
        if (part.type !== 'row' || part.side !== 'new') return;
        var text = arrivingLabel(traced, part.s, part.r);
        if (text) partElement(views, part).setAttribute('data-path', text);
      });
      function labelLeaving(ghost, part) {
        var text = held && part.type === 'row' ? leavingLabel(traced, part) : null;
        if (text) ghost.setAttribute('data-path', text);
      }
      element.setAttribute('data-playing-batch', String(info.batch + 1));
      // Told once the batch's animations exist (held or running).
      function started() {
        element.dispatchEvent(new CustomEvent('rowmotion:batch', { bubbles: true, detail: {
          step: info.step, batch: info.batch, batchCount: info.count, role: batch.role,
          duration: t.duration, easing: t.easing, spring: t.curve ? springValues : null, scrolledTo: scrollTo, timeline: plan } }));
      }

      var ongoing = { animations: [], ghosts: [], lifted: [] };
      running = ongoing;
      if (REDUCED) {
        // No motion: tint what changed, with a label, then settle.
        plan.parts.forEach(function (part) {
          if (part.side !== 'new' || part.type !== 'row') return;
          var el = partElement(views, part);
          if (part.role === 'insert') el.setAttribute('data-change', 'inserted');
          else if (part.role === 'reload-new') el.setAttribute('data-change', 'reloaded');
          else if (part.role === 'move' && traced.rows[part.s][part.r].how === 'move') el.setAttribute('data-change', 'moved');
        });
        // What leaves is marked where it was and fades there, without
        // moving: a deletion leaves a trace as the other changes do.
        plan.parts.forEach(function (part) {
          if (part.side !== 'old' || part.role !== 'delete') return;
          var source = copies.get(part.s + ':' + part.type + ':' + part.r);
          if (!source) return;
          var ghost = ghostOf(source, part.frames[0].y);
          if (part.type === 'row') ghost.setAttribute('data-change', 'deleted');
          labelLeaving(ghost, part);
          ghost.style.zIndex = String(part.z);
          surface.container.appendChild(ghost);
          ongoing.ghosts.push(ghost);
          ongoing.animations.push(ghost.animate([{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0 }], t));
        });
        // The batch's time, kept by an animation that changes nothing, so
        // that holding, scrubbing and the speed act on it like on motion.
        ongoing.animations.push(surface.frame.animate([{ opacity: 1 }, { opacity: 1 }], t));
        ongoing.animations.forEach(function (animation) {
          animation.playbackRate = speed;
          if (held) animation.pause();
        });
        started();
        return Promise.all(ongoing.animations.map(function (a) { return a.finished.catch(function () {}); })).then(function () {
          if (running === ongoing) stopRunning();
        });
      }
      plan.parts.forEach(function (part, k) {
        var el;
        if (part.side === 'old') {
          var source = copies.get(part.s + ':' + part.type + ':' + part.r);
          if (!source) return;
          el = ghostOf(source, part.frames[0].y);
          labelLeaving(el, part);
          surface.container.appendChild(el);
          ongoing.ghosts.push(el);
        } else {
          el = partElement(views, part);
          if (!part.shown && !inspect) return;
          ongoing.lifted.push(el);
        }
        if (inspect) el.setAttribute('data-rowmotion-part', String(k));
        // Every part on screen is stacked as the model says, moving or not:
        // a row that stays covers a section sliding away behind it.
        if (part.shown) el.style.zIndex = String(part.z);
        if (!part.animated) return;
        var base = part.side === 'old' ? part.frames[0].y : part.frames[part.frames.length - 1].y;
        if (part.role === 'move' && traced.rows[part.s] && part.type === 'row' && traced.rows[part.s][part.r].how === 'move') el.setAttribute('data-moving', '');
        ongoing.animations.push(el.animate(keyframes(part, base), t));
      });
      ongoing.animations.push(surface.frame.animate(plan.height.map(function (frame) {
        return { offset: frame.offset, height: frame.h + 'px' };
      }), t));
      ongoing.animations.forEach(function (animation) {
        animation.playbackRate = speed;
        if (held) animation.pause();
      });
      started();
      return Promise.all(ongoing.animations.map(function (a) { return a.finished.catch(function () {}); })).then(function () {
        if (running === ongoing) stopRunning();
      });
    }

    function clearMarks() {
      surface.container.querySelectorAll('[data-change],[data-changed]').forEach(function (node) {
        node.removeAttribute('data-change');
        node.removeAttribute('data-changed');
      });
    }

    function settle(target) {
      current = target;
      surface.shown.state = stateAt(target); // the same rows, as the step's own state
      element.setAttribute('data-current-step', String(target));
      if (element === document.querySelector('[data-rowmotion-player]')) {
        document.querySelectorAll('.step-list > li[id^="step-"]').forEach(function (item) {
          if (item.id === 'step-' + target) item.setAttribute('aria-current', 'step'); else item.removeAttribute('aria-current');
        });
      }
      playing = null;
      updateControls();
      return player;
    }

    var playing = null; // {step, batch, count, role} while a step animates

    // One step forward, batch after batch; anything else jumps.
    function run(target, token) {
      if (token !== generation) return Promise.resolve(player);
      clearMarks();
      showCompare(target);
      if (target === current + 1 && !jumps) {
        var step = data.steps[current];
        var from = current;
        // A stopped batch left its own state on screen: start from the step's.
        if (surface.shown.state !== stateAt(from)) showState(surface, stateAt(from));
        announce(narrate(stateAt(from), step));
        var sequence = Promise.resolve();
        step.batches.forEach(function (batch, n) {
          sequence = sequence.then(function () {
            if (token !== generation) return;
            playing = { step: target, batch: n, count: step.batches.length, role: batch.role };
            updateControls();
            return playBatch(batch, { step: target, batch: n, count: step.batches.length }, step.changedFields || {});
          });
        });
        return sequence.then(function () {
          if (token === generation) settle(target);
          return player;
        });
      }
      showState(surface, stateAt(target));
      settle(target);
      announce('Snapshot ' + target + ' of ' + data.steps.length + ((data.labels || [])[target] ? ': ' + data.labels[target] : ''));
      return Promise.resolve(player);
    }

    // One rule for superseding: next() waits behind the queue; goTo() and
    // prev() cancel it, and a cancelled step never touches the DOM again.
    function goTo(n, queued) {
      var target = Math.max(0, Math.min(data.steps.length, Math.floor(Number(n)) || 0));
      element.dispatchEvent(new CustomEvent('rowmotion:goto', { bubbles: true, detail: { step: target, queued: !!queued } }));
      pending = target;
      if (queued && !held) {
        var queuedToken = generation;
        chain = chain.then(function () { return run(target, queuedToken); });
        return chain;
      }
      generation += 1;
      held = null;
      element.removeAttribute('data-held');
      stopRunning();
      playing = null;
      var token = generation;
      chain = run(target, token);
      return chain;
    }

    // ---- Scrubbing: hold a step's animation at any moment ------------------------
    // The slider runs over the batches of the step after the current one.
    function holdAt(position) {
      var step = data.steps[current];
      if (!step) return;
      pauseTimer();
      var count = step.batches.length;
      position = Math.max(0, Math.min(count, position));
      tell('hold', position / count);
      var index = Math.min(count - 1, Math.floor(position)), local = position - index;
      if (!held || held.batch !== index || !running) {
        generation += 1;
        stopRunning();
        pending = current;
        showState(surface, stateAt(current));
        // reloadData() has no in-between: its pane shows the step's new
        // state at once, wherever the step is held.
        showCompare(current + 1);
        held = { step: current + 1, batch: index, position: position };
        element.setAttribute('data-held', '');
        var state = stateAt(current);
        for (var k = 0; k < index; k++) { state = applyBatch(state, step.batches[k]); showState(surface, state); }
        playing = { step: current + 1, batch: index, count: count, role: step.batches[index].role };
        var promise = playBatch(step.batches[index], { step: current + 1, batch: index, count: count }, step.changedFields || {});
        chain = promise.then(function () { return player; });
      }
      held.position = position;
      if (running) {
        var t = timing();
        running.animations.forEach(function (animation) { animation.pause(); animation.currentTime = local * t.duration; });
      }
      scrubber.value = String(Math.round(position / count * 1000));
      describeScrub();
      updateControls();
    }

    function heldFraction() { return held ? held.position : 0; }

    // What the scrubber's value means, in words: "Step 2 of 5 (Dave replies),
    // 40 %, batch 1 of 2".
    function describeScrub() {
      var step = data.steps[current];
      if (!step) { scrubber.setAttribute('aria-valuetext', 'No next step'); return; }
      var count = step.batches.length, percent = Math.round(Number(scrubber.value) / 10);
      var batch = Math.min(count, Math.floor(Number(scrubber.value) / 1000 * count) + 1);
      var label = data.labels && data.labels[current + 1] ? ' (' + data.labels[current + 1] + ')' : '';
      scrubber.setAttribute('aria-valuetext', 'Step ' + (current + 1) + ' of ' + data.steps.length + label + ', ' + percent + ' %'
        + (count > 1 ? ', batch ' + batch + ' of ' + count : ''));
    }

    // ---- Controls ------------------------------------------------------------
    var controls = document.createElement('div');
    controls.className = 'rowmotion-controls';
    function button(label, title, action) {
      var b = document.createElement('button');
      b.type = 'button';
      if (GLYPHS[label]) b.appendChild(glyph(label)); else b.textContent = label;
      b.title = title;
      b.setAttribute('aria-label', title.replace(/ \(.*\)$/, ''));
      b.addEventListener('click', action);
      controls.appendChild(b);
      return b;
    }
    button('Restart', 'Restart (Home)', function () { player.pause(); player.goTo(0); });
    button('prev', 'Previous step (←)', function () { player.pause(); player.prev(); });
    // Its name says what a press does ("Play", "Pause"): a button whose
    // name changes is not also a toggle (aria-pressed), or a screen reader
    // says "Pause, pressed".
    var playButton = button('play', 'Play (space)', function () { if (timer) player.pause(); else player.play(); });
    playButton.classList.add('rowmotion-play');
    button('next', 'Next step (→)', function () { player.pause(); player.next(); });
    var speedSelect = document.createElement('select');
    speedSelect.setAttribute('aria-label', 'Speed');
    SPEEDS.forEach(function (option) {
      var o = document.createElement('option');
      o.value = option[0];
      o.textContent = option[1];
      if (option[0] === '1') o.selected = true;
      speedSelect.appendChild(o);
    });
    speedSelect.addEventListener('change', function () { setSpeed(speedSelect.value); });
    controls.appendChild(speedSelect);
    function checkbox(text, onChange) {
      var label = document.createElement('label');
      var box = document.createElement('input');
      box.type = 'checkbox';
      label.appendChild(box);
      label.appendChild(document.createTextNode(' ' + text));
      if (onChange) box.addEventListener('change', onChange);
      controls.appendChild(label);
      return box;
    }
    var loopBox = checkbox('loop');
    function highlightMoves(on) {
      movesBox.checked = on;
      if (on) element.setAttribute('data-highlight-moves', ''); else element.removeAttribute('data-highlight-moves');
      tell('highlight', on);
    }
    var movesBox = checkbox('highlight moves', function () {
      highlightMoves(movesBox.checked);
    });

    // Scrubbing within a step, and frame stepping while held.
    var scrub = document.createElement('div');
    scrub.className = 'rowmotion-scrub';
    var scrubber = document.createElement('input');
    scrubber.type = 'range';
    scrubber.min = '0';
    scrubber.max = '1000';
    scrubber.value = '0';
    // Arrow keys move it 1 %, Page Up and Page Down 10 %.
    scrubber.step = '10';
    scrubber.setAttribute('aria-label', 'Scrub through the next step');
    scrubber.addEventListener('input', function () {
      var step = data.steps[current];
      if (step) holdAt(Number(scrubber.value) / 1000 * step.batches.length);
    });
    function frameButton(label, title, delta) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.title = title;
      b.setAttribute('aria-label', title);
      b.addEventListener('click', function () {
        var step = data.steps[current];
        if (!step) return;
        var t = timing();
        holdAt(heldFraction() + delta * (1000 / 60) / t.duration);
      });
      scrub.appendChild(b);
      return b;
    }
    frameButton('−1f', 'Back one frame', -1);
    scrub.appendChild(scrubber);
    frameButton('+1f', 'Forward one frame', 1);

    var status = document.createElement('p');
    status.className = 'rowmotion-status';
    var batchLine = document.createElement('p');
    batchLine.className = 'rowmotion-batch';
    var live = document.createElement('p');
    live.className = 'rowmotion-live';
    live.setAttribute('aria-live', 'polite');
    element.insertBefore(controls, list);
    element.insertBefore(scrub, list);
    element.insertBefore(status, list);
    element.insertBefore(batchLine, list);
    element.appendChild(live);

    function announce(text) { live.textContent = text; }

    // Panes that follow this one (a strategy comparison) hear what its
    // controls change: speed, a held moment (as a fraction of the step,
    // since panes may split a step into different batches), highlighting.
    function tell(kind, value) {
      element.dispatchEvent(new CustomEvent('rowmotion:control', { bubbles: true, detail: { kind: kind, value: value } }));
    }

    function setSpeed(value) {
      tell('speed', value);
      linear = value === 'uxkit';
      speed = linear ? 1 : Number(value) || 1;
      if (speedSelect.value !== value) speedSelect.value = value;
      // The batch already playing changes pace too.
      if (running) running.animations.forEach(function (animation) { animation.playbackRate = speed; });
    }

    // The timeline: one button per snapshot, with the step's counts.
    var snapshots = document.createElement('ol');
    snapshots.className = 'rowmotion-timeline';
    snapshots.setAttribute('aria-label', 'Snapshots');
    var marks = [];
    for (var k = 0; k <= data.steps.length; k++) {
      var item = document.createElement('li');
      var mark = document.createElement('button');
      mark.type = 'button';
      mark.textContent = String(k);
      mark.title = (data.labels || [])[k] + (k ? ' — ' + describe(counts(data.steps[k - 1])) : '');
      mark.setAttribute('aria-label', 'Snapshot ' + k + ': ' + mark.title);
      mark.addEventListener('click', (function (target) { return function () { player.pause(); player.goTo(target); }; })(k));
      if (k && data.steps[k - 1].batches.length > 1) mark.setAttribute('data-deferred', '');
      item.appendChild(mark);
      snapshots.appendChild(item);
      marks.push(mark);
    }
    element.insertBefore(snapshots, list);
    // The timeline is one group to the keyboard: ← and → go to the snapshot
    // before or after and keep the focus on its mark, Home and End to the
    // first and the last.
    snapshots.addEventListener('keydown', function (event) {
      var at = marks.indexOf(event.target);
      if (at < 0) return;
      var target = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: marks.length - 1 }[event.key];
      if (target === undefined) return;
      event.preventDefault();
      target = Math.max(0, Math.min(marks.length - 1, target));
      player.pause();
      player.goTo(target);
      marks[target].tabIndex = 0;
      marks[target].focus();
    });
    // From any of the player's buttons, ← and → step as they do on the
    // player itself (a range or a menu keeps its own arrows).
    [controls, scrub].forEach(function (group) {
      group.addEventListener('keydown', function (event) {
        if (event.target.tagName !== 'BUTTON' || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
        event.preventDefault();
        player.pause();
        if (event.key === 'ArrowLeft') player.prev(); else player.next();
      });
    });

    // The "reloadData" pane jumps to each state when a step starts, beside
    // the animated list, so the two can be watched side by side.
    var compare = null;
    if (element.getAttribute('data-compare') === 'reloadData') {
      var sideBySide = document.createElement('div');
      sideBySide.className = 'rowmotion-side-by-side';
      var column = function (text) {
        var wrap = document.createElement('div');
        wrap.className = 'rowmotion-compare';
        var caption = document.createElement('p');
        caption.className = 'rowmotion-compare-caption';
        caption.textContent = text;
        wrap.appendChild(caption);
        sideBySide.appendChild(wrap);
        return wrap;
      };
      list.parentNode.insertBefore(sideBySide, list);
      column('performBatchUpdates').appendChild(list);
      var pane = document.createElement('div');
      pane.className = 'rowmotion-list rowmotion-compare-list';
      pane.setAttribute('data-compare-pane', '');
      pane.setAttribute('role', 'group');
      pane.setAttribute('aria-label', 'The same steps with reloadData()');
      column('reloadData()').appendChild(pane);
      compare = makeSurface(pane);
    }

    function showCompare(target) {
      if (compare) showState(compare, stateAt(target));
    }

    function updateControls() {
      var labels = data.labels || [];
      var text;
      if (playing) {
        text = 'Step ' + current + ' → ' + playing.step + ' of ' + data.steps.length + (labels[playing.step] ? ': ' + labels[playing.step] : '');
        batchLine.textContent = 'batch ' + (playing.batch + 1) + ' of ' + playing.count + ': ' +
          (ROLE_WORDS[playing.role] || playing.role || 'structural') + (held ? ' (held)' : '');
      } else {
        text = 'Step ' + current + ' of ' + data.steps.length + (labels[current] ? ': ' + labels[current] : '');
        var advice = adviceFor(current);
        if (advice) text += ' — ' + advice;
        batchLine.textContent = current < data.steps.length
          ? 'next: ' + data.steps[current].batches.length + (data.steps[current].batches.length === 1 ? ' batch' : ' batches')
          : 'last snapshot';
      }
      status.textContent = text;
      var on = !!timer;
      if (playButton.firstChild.getAttribute('data-glyph') !== (on ? 'pause' : 'play')) playButton.replaceChildren(glyph(on ? 'pause' : 'play'));
      playButton.title = on ? 'Pause (space)' : 'Play (space)';
      playButton.setAttribute('aria-label', on ? 'Pause' : 'Play');
      scrubber.disabled = current >= data.steps.length;
      if (!held) scrubber.value = '0';
      describeScrub();
      marks.forEach(function (mark, k) {
        if (k === current) mark.setAttribute('aria-current', 'step'); else mark.removeAttribute('aria-current');
        // One tab stop for the timeline: the current snapshot's mark.
        mark.tabIndex = k === current ? 0 : -1;
      });
    }

    // When animating is the wrong choice (as SwiftDataTables advises).
    function adviceFor(k) {
      if (k === 0) return 'first load: show it with reloadData(), not an animation';
      var c = counts(data.steps[k - 1]);
      var total = c.insert + c.delete + c.move + c.reload;
      var rows = stateAt(k - 1).reduce(function (sum, section) { return sum + section.items.length; }, 0);
      if (total > 1000) return total + ' changes: reloadData() would serve better than an animation';
      // A short list reads fine even when most of it changes; a long one does not.
      if (rows >= 20 && total > rows / 2) return 'more than half the rows change: consider reloadData()';
      return '';
    }

    element.tabIndex = 0;
    var title = (data.title || data.example || 'list') + '';
    element.setAttribute('aria-label', 'Animated list: ' + title + ' (' + (data.steps.length + 1) + ' snapshots)');
    element.setAttribute('aria-keyshortcuts', 'Space ArrowLeft ArrowRight Home');
    // The list scrolls from the keyboard with Page Up/Down, and with the
    // arrows once it has focus itself (the player's keys act on the figure).
    list.tabIndex = 0;
    list.setAttribute('role', 'group');
    list.setAttribute('aria-label', 'Rows of ' + title);
    element.addEventListener('keydown', function (event) {
      if (event.target !== element) return;
      var handled = true;
      switch (event.key) {
        case ' ': if (timer) player.pause(); else player.play(); break;
        case 'ArrowLeft': player.pause(); player.prev(); break;
        case 'ArrowRight': player.pause(); player.next(); break;
        case 'Home': player.pause(); player.goTo(0); break;
        case 'PageDown': list.scrollTop += list.clientHeight * 0.9; break;
        case 'PageUp': list.scrollTop -= list.clientHeight * 0.9; break;
        default: handled = false;
      }
      if (handled) event.preventDefault();
    });

    function pauseTimer() {
      if (timer !== null && timer !== true) clearTimeout(timer);
      timer = null;
    }

    var player = {
      element: element,
      stepCount: data.steps.length + 1,
      get step() { return current; },
      goTo: function (n) { return goTo(n, false); },
      // Counted from where the queue will be, so quick presses add up.
      next: function () { return goTo(pending + 1, true); },
      prev: function () { return goTo(pending - 1, false); },
      play: function () {
        if (timer) return chain;
        return new Promise(function (resolve) {
          timer = true;
          updateControls();
          (function advance() {
            if (!timer) { resolve(player); return; }
            if (current >= data.steps.length && pending >= data.steps.length) {
              if (!loopBox.checked) { timer = null; updateControls(); resolve(player); return; }
              goTo(0, false);
            }
            goTo(pending + 1, true).then(function () {
              if (!timer) { resolve(player); return; }
              timer = setTimeout(advance, PAUSE_BETWEEN_STEPS / speed);
            });
          })();
        });
      },
      pause: function () {
        pauseTimer();
        updateControls();
        if (held) return Promise.resolve(player);
        return chain.then(function () { return player; });
      },
      // Additions to the contract, for reviewing: speed, and holding a step's
      // animation at a position (0 to its batch count).
      setSpeed: function (value) { setSpeed(String(value)); return player; },
      hold: function (position) { holdAt(Number(position) || 0); return player; },
      state: function () {
        return Array.prototype.map.call(surface.container.querySelectorAll(':scope > [data-section-id]'), function (section) {
          return {
            id: section.getAttribute('data-section-id'),
            items: Array.prototype.map.call(section.querySelectorAll(':scope > [data-item-id]'), function (row) {
              return row.getAttribute('data-item-id');
            })
          };
        });
      }
    };
    // An example page's step list: hovering a call marks the rows and
    // sections it names in the list, and hovering a row marks the calls of
    // the step shown (or held) that name it.
    function linkCalls() {
      var steps = document.querySelector('.step-list');
      if (!steps || element !== document.querySelector('[data-rowmotion-player]')) return;
      var marked = [];
      function unmark() { marked.forEach(function (el) { el.removeAttribute('data-hovered'); }); marked = []; }
      function mark(el) { el.setAttribute('data-hovered', ''); marked.push(el); }
      // A batch's calls as lines, each a span (split the first time).
      function callLines(pre) {
        var code = pre.querySelector('code') || pre;
        if (!code.hasAttribute('data-lines')) {
          var text = code.textContent.replace(/\n$/, '').split('\n');
          code.replaceChildren.apply(code, text.map(function (line, i) {
            var span = document.createElement('span');
            span.className = 'call-line';
            span.textContent = line + (i < text.length - 1 ? '\n' : '');
            return span;
          }));
          code.setAttribute('data-lines', '');
        }
        return Array.prototype.slice.call(code.children);
      }
      function batchOf(pre) {
        var item = pre.closest('li[id^="step-"]');
        var n = item ? Number(item.id.slice(5)) : NaN;
        var k = item ? Array.prototype.indexOf.call(item.querySelectorAll('pre.swift-calls'), pre) : -1;
        return data.steps[n - 1] && data.steps[n - 1].batches[k] ? { n: n, k: k } : null;
      }
      // What each call of batch k of step n names, in the order its calls
      // are written: [['row', id] | ['section', id], ...] per call.
      function named(n, k) {
        var step = data.steps[n - 1], before = stateAt(n - 1);
        for (var j = 0; j < k; j++) before = applyBatch(before, step.batches[j]);
        var batch = step.batches[k], after = applyBatch(before, batch), out = [];
        function row(state, p) { var section = state[p[0]], item = section && section.items[p[1]]; return item ? ['row', item.id] : null; }
        function section(state, i) { return state[i] ? ['section', state[i].id] : null; }
        function call(list) { out.push(list.filter(Boolean)); }
        var s = batch.sections, r = batch.rows;
        if (s.delete.length) call(s.delete.map(function (i) { return section(before, i); }));
        if (s.insert.length) call(s.insert.map(function (i) { return section(after, i); }));
        s.move.forEach(function (m) { call([section(before, m[0])]); });
        if (s.reload.length) call(s.reload.map(function (i) { return section(before, i); }));
        if (r.delete.length) call(r.delete.map(function (p) { return row(before, p); }));
        if (r.insert.length) call(r.insert.map(function (p) { return row(after, p); }));
        r.move.forEach(function (m) { call([row(before, m[0])]); });
        if (r.reload.length) call(r.reload.map(function (p) { return row(before, p); }));
        return out;
      }
      function elementsOf(thing) {
        var id = CSS.escape(thing[1]);
        return element.querySelectorAll(thing[0] === 'row' ? '[data-item-id="' + id + '"], [data-ghost-of="' + id + '"]' : '[data-section-id="' + id + '"]');
      }
      var hovered = null;
      steps.addEventListener('pointerover', function (event) {
        var line = event.target.closest && event.target.closest('.call-line, pre.swift-calls');
        if (line && line.tagName === 'PRE') {
          callLines(line);
          line = event.target.closest('.call-line');
        }
        if (line === hovered) return;
        unmark();
        hovered = line;
        if (!line) return;
        var pre = line.closest('pre.swift-calls'), where = batchOf(pre);
        if (!where) return;
        var lines = callLines(pre), names = named(where.n, where.k);
        if (lines.length !== names.length) return;
        mark(line);
        names[lines.indexOf(line)].forEach(function (thing) { Array.prototype.forEach.call(elementsOf(thing), mark); });
      });
      steps.addEventListener('pointerleave', function () { unmark(); hovered = null; });
      list.addEventListener('pointerover', function (event) {
        var el = event.target.closest && event.target.closest('[data-item-id], [data-ghost-of], [data-section-id]');
        if (el === hovered) return;
        unmark();
        hovered = el;
        if (!el) return;
        var thing = el.hasAttribute('data-section-id') ? ['section', el.getAttribute('data-section-id')]
          : ['row', el.getAttribute('data-item-id') || el.getAttribute('data-ghost-of')];
        var n = held ? held.step : Math.max(1, current), item = document.getElementById('step-' + n);
        if (!item || !data.steps[n - 1]) return;
        var hit = false;
        Array.prototype.forEach.call(item.querySelectorAll('pre.swift-calls'), function (pre, k) {
          var lines = callLines(pre), names = data.steps[n - 1].batches[k] ? named(n, k) : [];
          if (lines.length !== names.length) return;
          names.forEach(function (things, i) {
            if (things.some(function (t) { return t[0] === thing[0] && t[1] === thing[1]; })) { mark(lines[i]); hit = true; }
          });
        });
        if (hit) mark(el);
      });
      list.addEventListener('pointerleave', function () { unmark(); hovered = null; });
    }
    linkCalls();

    internals.set(element, {
      goTo: goTo,
      control: function (kind, value) {
        if (kind === 'speed') setSpeed(value);
        else if (kind === 'highlight') highlightMoves(value);
        else if (kind === 'hold' && data.steps[current]) holdAt(value * data.steps[current].batches.length);
      },
      // The parts a strategy comparison shows once, for all its panes.
      sharedParts: [controls, scrub, status, snapshots],
      live: live
    });
    var start = Number(element.getAttribute('data-step')) || 0;
    var hash = /^#step-(\d+)$/.exec(window.location.hash || '');
    if (hash && element === document.querySelector('[data-rowmotion-player]')) start = Number(hash[1]);
    current = pending = Math.min(start, data.steps.length);
    showState(surface, stateAt(current), true);
    showCompare(current);
    settle(current);
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(function () {
        // Unmeasured, the list is measured after the first frame at
        // whatever width it has then; measuring here would lay every row
        // out a second time in the first frame.
        if (!running && surface.shown && surface.shown.laid && surface.frame.clientWidth !== surface.width) relayout(surface);
        if (compare && compare.frame.clientWidth !== compare.width) relayout(compare);
      }).observe(list);
    }
    if (element.hasAttribute('data-autoplay')) player.play();
    return Object.freeze(player);
  }

  // ---- Search -------------------------------------------------------------
  // The index (search-index.js, written at build time) is a script,
  // so it loads from file:// too; it is loaded the first time the box is
  // used. Every word of the query must appear in a page's title, headings
  // or text; titles weigh most, then headings (the result then links to
  // that section), then the text.
  function search(index, query, limit) {
    var terms = String(query).toLowerCase().split(/\s+/).filter(function (t) { return t.length > 0; });
    if (terms.length === 0) return [];
    var results = [];
    index.forEach(function (entry) {
      var title = entry.t.toLowerCase(), text = entry.x.toLowerCase();
      var headings = entry.h.map(function (h) { return h[0].toLowerCase(); });
      var score = 0, best = null, bestHits = 0;
      for (var i = 0; i < terms.length; i++) {
        var term = terms[i], found = false;
        if (title.indexOf(term) >= 0) { score += 10; found = true; }
        if ((' ' + title).indexOf(' ' + term) >= 0) score += 5;
        if (headings.some(function (h) { return h.indexOf(term) >= 0; })) { score += 4; found = true; }
        if (text.indexOf(term) >= 0) { score += 1; found = true; }
        if (!found) return;
      }
      headings.forEach(function (heading, n) {
        var hits = terms.filter(function (t) { return heading.indexOf(t) >= 0; }).length;
        if (hits > bestHits) { bestHits = hits; best = n; }
      });
      var at = text.indexOf(terms[0]);
      var snippet = at < 0 ? entry.x.slice(0, 120)
        : (at > 50 ? '…' : '') + entry.x.slice(Math.max(0, at - 50), at + 90) + (at + 90 < entry.x.length ? '…' : '');
      // Only ever a path: an address that reads as a scheme (`javascript:…`,
      // from a page of that name) gets './' before it, as the navigation's do.
      var address = String(entry.u);
      if (/^[^/?#]*:/.test(address)) address = './' + address;
      results.push({
        title: entry.t, url: address + (best === null ? '' : '#' + entry.h[best][1]),
        section: best === null ? null : entry.h[best][0], snippet: snippet, score: score
      });
    });
    results.sort(function (a, b) { return b.score - a.score || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0); });
    return results.slice(0, limit || 10);
  }

  function setUpSearch(form) {
    var input = form.querySelector('input'), list = form.querySelector('ol');
    var root = form.getAttribute('data-root') || '', state = 'idle', pending = null;
    form.hidden = false;
    function show(query) {
      var index = window.RowmotionSearchIndex || [];
      list.textContent = '';
      search(index, query, 10).forEach(function (result) {
        var item = document.createElement('li'), link = document.createElement('a');
        link.href = root + result.url;
        link.textContent = result.section ? result.title + ' › ' + result.section : result.title;
        var snippet = document.createElement('span');
        snippet.className = 'site-search-snippet';
        snippet.textContent = result.snippet;
        item.appendChild(link);
        item.appendChild(snippet);
        list.appendChild(item);
      });
      if (query.trim() && !list.firstChild) {
        var none = document.createElement('li');
        none.textContent = 'No page matches.';
        list.appendChild(none);
      }
    }
    function load() {
      if (state !== 'idle') return;
      state = 'loading';
      var script = document.createElement('script');
      script.src = form.getAttribute('data-rowmotion-search');
      script.onload = function () { state = 'ready'; if (pending !== null) show(pending); };
      script.onerror = function () { state = 'failed'; list.textContent = 'The search index could not be loaded.'; };
      document.head.appendChild(script);
    }
    input.addEventListener('focus', load);
    input.addEventListener('input', function () {
      pending = input.value;
      if (state === 'ready') show(input.value); else load();
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var first = list.querySelector('a');
      if (first) window.location.href = first.href;
    });
  }
  if (typeof document.querySelectorAll === 'function') {
    Array.prototype.forEach.call(document.querySelectorAll('form[data-rowmotion-search]'), setUpSearch);
  }

  // The sidebar scrolls on its own: bring the current page's entry into
  // view (a third of the way down), without scrolling the page.
  var siteNav = typeof document.querySelector === 'function' ? document.querySelector('.site-nav') : null;
  var currentEntry = siteNav && siteNav.querySelector('[aria-current="page"]');
  if (currentEntry && siteNav.scrollHeight > siteNav.clientHeight) {
    var offset = currentEntry.getBoundingClientRect().top - siteNav.getBoundingClientRect().top + siteNav.scrollTop;
    siteNav.scrollTop = Math.max(0, offset - siteNav.clientHeight / 3);
  }

  // Content that scrolls sideways (wide tables) can be scrolled from the keyboard.
  document.querySelectorAll('main table').forEach(function (table) {
    if (table.scrollWidth > table.clientWidth + 1 && !table.hasAttribute('tabindex')) {
      table.tabIndex = 0;
      table.setAttribute('role', 'region');
      table.setAttribute('aria-label', 'Table (scrolls sideways)');
    }
  });

  // The review page: each filmstrip scrolls the frame it outlines (the
  // first step that animates differently) to its middle.
  document.querySelectorAll('.filmstrip-mark').forEach(function (mark) {
    var box = mark.closest('.filmstrip-scroll');
    if (box) box.scrollLeft = Math.max(0, mark.offsetLeft - (box.clientWidth - mark.offsetWidth) / 2);
  });

  var players = Array.prototype.map.call(document.querySelectorAll('[data-rowmotion-player]'), makePlayer);
  // A strategy comparison's panes follow whichever one is driven, the same
  // way: a queued step queues in every pane, a jump jumps every pane.
  // A baseline comparison (changes.html) links its two players alike; the
  // one with fewer steps stops at its last.
  // A strategy comparison shows one set of controls, above its panes: the
  // first pane's, which drive the rest (speed, holding and highlighting
  // too); only that pane announces steps.
  document.querySelectorAll('[data-rowmotion-compare="strategies"], [data-rowmotion-compare="baseline"]').forEach(function (group) {
    var panes = players.filter(function (p) { return group.contains(p.element); });
    var following = false;
    function follow(event, act) {
      if (following) return;
      following = true;
      try {
        panes.forEach(function (p) { if (p.element !== event.target) act(internals.get(p.element), p); });
      } finally {
        following = false;
      }
    }
    group.addEventListener('rowmotion:goto', function (event) {
      follow(event, function (inner, p) { inner.goTo(Math.min(event.detail.step, p.stepCount - 1), event.detail.queued); });
    });
    if (group.getAttribute('data-rowmotion-compare') !== 'strategies' || !panes.length) return;
    group.addEventListener('rowmotion:control', function (event) {
      follow(event, function (inner) { inner.control(event.detail.kind, event.detail.value); });
    });
    var shared = document.createElement('div');
    shared.className = 'rowmotion-shared-controls';
    shared.setAttribute('role', 'group');
    shared.setAttribute('aria-label', 'Controls for all ' + panes.length + ' panes');
    internals.get(panes[0].element).sharedParts.forEach(function (part) { shared.appendChild(part); });
    group.insertBefore(shared, group.firstChild);
    panes.slice(1).forEach(function (p) {
      var inner = internals.get(p.element);
      inner.sharedParts.forEach(function (part) { part.remove(); });
      inner.live.removeAttribute('aria-live');
    });
  });
  window.Rowmotion = Object.freeze({ players: Object.freeze(players), applyBatch: applyBatch, model: model, search: search });
})();
