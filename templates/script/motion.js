// A list on the page and the motion of one batch on it: the surface its
// rows are laid out in, and a batch played from the model's timeline as
// Web Animations (held, sped up or stopped on demand).
import { anchorShift, layout, scrollForChanges, shiftLayout, sidewaysScroll, timeline, trace } from './model.js';
import { CALL_WORDS, REDUCED, arrange, arrivingLabel, describeSection, fillRow, footerPart, geometryOf, ghostOf, headerPart, keyframes, leavingLabel, makeRow, makeSection, partElement, viewsByKey } from './view.js';

// A list in `host`: its content element and what it shows. The sections
// the page's HTML already shows (the first snapshot) are adopted as they
// are, elements and all, and read back as the state they show.
// The list's content is two boxes: `frame` has the content's height (which
// animates) and `container`, a box of no height pinned to its top, holds
// the sections, so a height that changes every frame does not lay out
// every row again every frame.
// The page's HTML has the two boxes already (the default theme's does), so
// adopting them moves no row: moving them would lay every row out again.
// `framing` is the player data's presentation (its layout), or nothing;
// `initial`, a virtual grid's first snapshot (its page shows only the
// first of its items).
export function makeSurface(host, framing, initial) {
  let frame = host.firstElementChild, container = frame && frame.firstElementChild;
  const adopted = frame && frame.classList.contains('rowmotion-sections') && container && container.classList.contains('rowmotion-content');
  if (!adopted) {
    frame = document.createElement('div');
    frame.className = 'rowmotion-sections';
    container = frame.appendChild(document.createElement('div'));
    container.className = 'rowmotion-content';
  }
  let state = [], views = [];
  Array.prototype.slice.call((adopted ? container : host).children).forEach(function (el) {
    if (!el.hasAttribute('data-section-id')) return;
    const section = { id: el.getAttribute('data-section-id'), header: null, footer: null, items: [] };
    const view = { el: el, header: null, footer: null, rows: [] };
    Array.prototype.forEach.call(el.children, function (child) {
      if (child.hasAttribute('data-item-id')) {
        view.rows.push(child);
        section.items.push({ id: child.getAttribute('data-item-id'), fields: Array.prototype.map.call(child.children, function (span) {
          const slot = span.getAttribute('data-slot');
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
  const surface = { host: host, frame: frame, container: container, shown: null, known: new WeakMap(), width: -1, framing: framing || null,
    virtual: !!(framing && framing.virtual && initial) };
  if (surface.virtual) {
    // The page's first items are adopted where they are; the others exist
    // only when they come into sight (realize).
    const byId = new Map(views.map(function (view, s) { return [state[s].id, { view: view, section: state[s] }]; }));
    state = initial;
    views = initial.map(function (section) {
      const shown = byId.get(section.id);
      const view = shown ? shown.view : { el: makeSection(section, surface.framing), header: null, footer: null, rows: [] };
      const rows = new Array(section.items.length).fill(null);
      if (shown) shown.view.rows.forEach(function (el, r) { if (section.items[r] && section.items[r].id === el.getAttribute('data-item-id')) rows[r] = el; else el.remove(); });
      view.rows = rows;
      return view;
    });
    if (views.length) arrange(container, views);
    host.addEventListener('scroll', function () {
      if (surface.realizing) return;
      surface.realizing = requestAnimationFrame(function () { surface.realizing = 0; if (!surface.playing) realize(surface); });
    }, { passive: true });
  }
  if (views.length) surface.shown = { state: state, views: views, laid: null };
  return surface;
}

// Heights of the views' parts, from the cache where known; the rest are
// measured where they are (which lays the list out). A tile's size follows
// from the width (geometry.sections[s] is its section's kind): not measured.
// A virtual list's row without an element (`state`'s) is as tall as a row
// of its content measured before, else as the typical row: as a table
// view's estimated height, made exact when the row comes into sight.
function heightsOf(surface, views, width, geometry, state) {
  if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
  const known = surface.known;
  function of(el) {
    if (!el) return 0;
    let h = known.get(el);
    if (h === undefined) { h = el.getBoundingClientRect().height; known.set(el, h); }
    return h;
  }
  const heights = views.map(function (view, s) {
    return { header: of(view.header), rows: geometry && geometry.sections[s] ? [] : view.rows.map(of), footer: of(view.footer) };
  });
  if (surface.virtual && state) heights.forEach(function (h, s) {
    const rows = views[s].rows;
    if (!surface.typical) surface.typical = h.rows.find(function (height, r) { return rows[r] && height > 0; });
    for (let r = 0; r < h.rows.length; r++) if (!rows[r]) h.rows[r] = estimate(surface, state[s].items[r]);
  });
  return heights;
}

// Heights of parts by content at the list's width: `'r' + fields` for a
// row, `'h'`/`'f'` + text for a header or footer (emptied when the width changes).
function sizes(surface) {
  if (!surface.parts || surface.partsWidth !== surface.width) { surface.parts = new Map(); surface.partsWidth = surface.width; }
  return surface.parts;
}
function rowKey(row) { return 'r' + JSON.stringify(row.fields); }
function estimate(surface, row) {
  const h = sizes(surface).get(rowKey(row));
  return h > 0 ? h : surface.typical || TYPICAL_ROW;
}
// A row's height before any row is measured: UIKit's default cell's 44 pt.
const TYPICAL_ROW = 44;

// Measures cells that are not in the list yet, and copies of cells whose
// content is about to change, in a small hidden box of the list's width:
// laying that box out costs what it holds, where measuring in the list
// would lay out every row of it. Call it before the list is touched.
function measureAside(surface, elements) {
  if (!elements.length) return;
  let box = surface.box;
  if (!box) {
    box = surface.box = document.createElement('div');
    box.className = 'rowmotion-measure';
    box.setAttribute('aria-hidden', 'true');
    box.appendChild(document.createElement('div')).className = 'rowmotion-section';
    // A data table's rows are measured as its sections lay them out.
    if (surface.framing && surface.framing.layout === 'table') box.firstChild.setAttribute('data-layout', 'table');
    surface.host.appendChild(box);
  }
  box.style.width = surface.width + 'px';
  const holder = box.firstChild;
  elements.forEach(function (el) { holder.appendChild(el); });
  elements.forEach(function (el) { surface.known.set(el, el.getBoundingClientRect().height); });
  holder.replaceChildren();
}

// The end state at once (a jump, or reloadData()). `later` leaves it
// unmeasured: the content stays in flow, so the list has its height
// without a layout forced here, and it is measured after the first frame
// (a 1,000-row page spent its longest load task laying every row out
// while measuring) or when a batch needs it, whichever comes first.
export function showState(surface, state, later) {
  let views = viewsByKey(state, surface.shown && surface.shown.views, surface.shown && surface.shown.state, surface.known, surface.framing, surface.virtual);
  arrange(surface.container, views);
  surface.shown = { state: state, views: views, laid: null };
  if (!later) { relayout(surface); return; }
  surface.frame.setAttribute('data-unmeasured', '');
  surface.frame.style.height = '';
  requestAnimationFrame(function () { setTimeout(function () { if (!surface.shown.laid) relayout(surface); }, 0); });
}

// A data table's row of column titles, above the first section (cached
// with the heights: it changes only with the width).
function titlesHeight(surface) {
  const titles = surface.container.querySelector(':scope > .rowmotion-columns');
  if (!titles) return 0;
  let h = surface.known.get(titles);
  if (h === undefined) { h = titles.getBoundingClientRect().height; surface.known.set(titles, h); }
  return h;
}

// Lays the shown state out (again, when the width changed).
export function relayout(surface) {
  if (!surface.shown) return;
  layOut(surface);
  if (surface.virtual) realize(surface);
}

// The shown state's layout from its parts' heights, and the content's height.
function layOut(surface) {
  const width = surface.frame.clientWidth, geometry = geometryOf(surface.framing, surface.shown.state, width);
  const heights = heightsOf(surface, surface.shown.views, width, geometry, surface.shown.state);
  geometry.top = titlesHeight(surface);
  geometry.sections.forEach(function (kind, s) { if (kind && kind.layout === 'orthogonal') kind.scrollX = surface.shown.views[s].el.scrollLeft; });
  const laid = layout(surface.shown.state, heights, geometry);
  surface.frame.style.height = laid.height + 'px';
  surface.frame.removeAttribute('data-unmeasured');
  surface.shown.laid = laid;
  if (surface.snapshots) steadyFrame(surface, laid.height);
}

// The list's frame, as a table view's: one height for the whole sequence,
// its tallest snapshot's up to the list's maximum, so that nothing around
// the list (the controls below it at a phone's width, the page's scroll)
// moves when a step makes its content shorter or taller. Worked out when
// the width changes: the snapshots not on screen are laid out from their
// parts measured aside (each content once), each only until it fills the
// maximum, and none after one has. `surface.snapshots(n)` gives the n-th
// snapshot, or nothing past the last.
function steadyFrame(surface, shownHeight) {
  const list = surface.host, most = maxHeightOf(list), width = surface.width;
  if (surface.steadyWidth !== width) {
    surface.steadyWidth = width;
    // (The snapshot on screen is laid out already: when it fills the list, nothing else is.)
    surface.steady = shownHeight;
    const parts = sizes(surface);
    for (let n = 0; surface.steady < most; n++) {
      const state = surface.snapshots(n);
      if (!state) break;
      surface.steady = Math.max(surface.steady, snapshotHeight(surface, state, parts, most));
    }
  }
  surface.steady = Math.max(surface.steady, shownHeight);
  const height = Math.min(most, surface.steady) + 'px';
  if (list.style.height !== height) list.style.height = height;
}

// A snapshot's content height, from its parts' heights (`parts`: content
// → height at this width); the parts past the list's maximum `most` are
// not measured (the snapshot fills the list whatever they are).
function snapshotHeight(surface, state, parts, most) {
  const geometry = geometryOf(surface.framing, state, surface.width);
  geometry.top = titlesHeight(surface);
  const unmeasured = [];
  let filled = geometry.top;
  function part(key, make) {
    if (filled >= most) return { key: key, h: 0 };
    let h = parts.get(key);
    if (h === undefined) {
      const el = make();
      if (!el) { parts.set(key, 0); return { key: key, h: 0 }; }
      unmeasured.push({ key: key, el: el });
      parts.set(key, h = -1);
    }
    const found = { key: key, h: h };
    // (An unmeasured part counts as a typical row until it is measured.)
    filled += h < 0 ? surface.typical || TYPICAL_ROW : h;
    return found;
  }
  const wanted = state.map(function (section, s) {
    const known = new WeakMap();
    return {
      header: part('h' + JSON.stringify(section.header), function () { return headerPart(null, section, known); }),
      rows: geometry.sections[s] ? [] : section.items.map(function (row) {
        return part(rowKey(row), function () { return makeRow(row); });
      }),
      footer: part('f' + JSON.stringify(section.footer), function () { return footerPart(null, section, known); })
    };
  });
  if (unmeasured.length) {
    measureAside(surface, unmeasured.map(function (u) { return u.el; }));
    unmeasured.forEach(function (u) { parts.set(u.key, surface.known.get(u.el)); });
  }
  function height(p) { return p.h < 0 ? parts.get(p.key) : p.h; }
  const heights = wanted.map(function (w) { return { header: height(w.header), rows: w.rows.map(height), footer: height(w.footer) }; });
  return layout(state, heights, geometry).height;
}

// A virtual list or grid (thousands of items) keeps in the DOM only the
// items in sight and a screen above and below, as a table or collection
// view keeps cells only for the items in its visible bounds: each is
// placed at its layout frame; the others have no element. Costs what is
// in sight, whatever the list's length.
const KEPT_SCREENS = 1;
export function realize(surface) {
  if (!surface.shown || !surface.shown.laid) return;
  const list = surface.host;
  // Rows whose height was not their estimate: laid out again, the first
  // row in sight kept where it was on screen (rows above it that turned
  // out taller or shorter do not move what is seen, as a table view
  // adjusts its offset), and the rows that brings into sight made and
  // measured in turn.
  let anchor = null;
  for (let pass = 0; pass < 8; pass++) {
    const made = makeInSight(surface);
    if (!made.length || !measured(surface, made)) break;
    if (!anchor) {
      anchor = firstInSight(surface.shown, list.scrollTop);
      if (anchor) anchor.offset = anchor.y - list.scrollTop;
    }
    layOut(surface);
    if (anchor) {
      const top = surface.shown.laid.sections[anchor.s].rows[anchor.r].y - anchor.offset;
      if (Math.abs(list.scrollTop - top) > 0.5) list.scrollTop = top;
    }
  }
  const shown = surface.shown;
  shown.views.forEach(function (view, s) { placeRows(view, shown.laid.sections[s]); });
  arrange(surface.container, shown.views);
}

// Gives elements to the items in sight and a screen above and below, and
// takes them from the others; returns a list's new rows ({el, row, h: the
// height laid out for it}), unmeasured.
function makeInSight(surface) {
  const shown = surface.shown, list = surface.host, screen = list.clientHeight || 600;
  const low = list.scrollTop - KEPT_SCREENS * screen, high = list.scrollTop + (1 + KEPT_SCREENS) * screen;
  const made = [];
  shown.views.forEach(function (view, s) {
    const laid = shown.laid.sections[s], rects = laid.rows, items = shown.state[s].items;
    view.el.setAttribute('data-virtual', '');
    view.el.style.height = laid.h + 'px';
    if (view.footer) view.footer.style.top = laid.footer.y - laid.y + 'px';
    // The first item whose frame reaches below `low` (frames go down line by line).
    let from = 0, to = rects.length;
    while (from < to) { const mid = (from + to) >> 1; if (rects[mid].y + rects[mid].h > low) to = mid; else from = mid + 1; }
    let end = from;
    while (end < rects.length && rects[end].y < high) end++;
    // (A row that leaves keeps its height, by its content: it is not estimated again.)
    const parts = sizes(surface);
    view.rows.forEach(function (el, r) {
      if (!el || r >= from && r < end) return;
      const h = surface.known.get(el);
      if (h > 0 && !laid.kind) parts.set(rowKey(items[r]), h);
      el.remove();
      view.rows[r] = null;
    });
    for (let r = from; r < end; r++) {
      if (view.rows[r]) continue;
      view.rows[r] = makeRow(items[r]);
      if (!laid.kind) made.push({ el: view.rows[r], row: items[r], h: rects[r].h });
    }
  });
  return made;
}

// Measures a virtual list's new rows ({el, row, h: the height laid out})
// and keeps each content's height; true when one was not `h`.
function measured(surface, made) {
  measureAside(surface, made.map(function (m) { return m.el; }));
  const parts = sizes(surface);
  let off = false;
  made.forEach(function (m) {
    const h = surface.known.get(m.el);
    parts.set(rowKey(m.row), h);
    if (Math.abs(h - m.h) > 0.5) off = true;
  });
  return off;
}

// The first list row whose frame reaches below `top`: {s, r, y}.
function firstInSight(shown, top) {
  for (let s = 0; s < shown.laid.sections.length; s++) {
    const section = shown.laid.sections[s];
    if (section.kind || section.y + section.h <= top) continue;
    const rows = section.rows;
    let from = 0, to = rows.length;
    while (from < to) { const mid = (from + to) >> 1; if (rows[mid].y + rows[mid].h > top) to = mid; else from = mid + 1; }
    if (from < rows.length) return { s: s, r: from, y: rows[from].y };
  }
  return null;
}

// A virtual list's rows that will be in sight at the kept offset (and a
// screen around), made and measured before a batch is laid out, so that
// the layout it animates to is the one its rows settle in.
function sizeInSight(surface, views, state, geometry, width, top) {
  const laid = layout(state, heightsOf(surface, views, width, geometry, state), geometry);
  const screen = surface.host.clientHeight || 600, low = top - KEPT_SCREENS * screen, high = top + (1 + KEPT_SCREENS) * screen;
  const made = [];
  laid.sections.forEach(function (section, s) {
    if (section.kind) return;
    section.rows.forEach(function (rect, r) {
      if (views[s].rows[r] || rect.y + rect.h <= low || rect.y >= high) return;
      views[s].rows[r] = makeRow(state[s].items[r]);
      made.push({ el: views[s].rows[r], row: state[s].items[r], h: rect.h });
    });
  });
  if (made.length) measured(surface, made);
}

// The items of a virtual list's or grid's section at their frames, in its
// box. A list's row is placed by its top alone: it spans the section (less
// its style's inset, the stylesheet's) and is as tall as its content, so
// measuring it where it stands gives its own height, never its estimate;
// its section's first and last rows are named (the last element need not
// be the last row).
function placeRows(view, section) {
  const last = section.rows.length - 1;
  view.rows.forEach(function (el, r) {
    if (!el) return;
    const rect = section.rows[r], top = rect.y - section.y + 'px';
    if (el.style.top !== top) el.style.top = top;
    if (section.kind) {
      const left = rect.x + 'px', width = rect.w + 'px', height = rect.h + 'px';
      if (el.style.left !== left) el.style.left = left;
      if (el.style.width !== width) { el.style.width = width; el.style.height = height; }
      return;
    }
    const edge = ((r === 0 ? 'first ' : '') + (r === last ? 'last' : '')).trim();
    if (edge) { if (el.getAttribute('data-edge') !== edge) el.setAttribute('data-edge', edge); } else if (el.hasAttribute('data-edge')) el.removeAttribute('data-edge');
  });
}

// iOS's scroll indicator, over the rows while the list scrolls and a
// moment after: the list has no scrollbar of its own (no gutter cuts the
// separators or narrows the cells).
export function showScrolling(player, list) {
  const bar = document.createElement('div');
  bar.className = 'rowmotion-indicator';
  bar.setAttribute('aria-hidden', 'true');
  player.appendChild(bar);
  let hide = null;
  list.addEventListener('scroll', function () {
    let shown = list.clientHeight, total = list.scrollHeight;
    if (total <= shown + 1) return;
    const length = Math.max(24, shown * shown / total);
    bar.style.height = length + 'px';
    bar.style.top = (list.offsetTop + 2 + (shown - length - 4) * list.scrollTop / (total - shown)) + 'px';
    bar.style.left = (list.offsetLeft + list.offsetWidth - 6) + 'px';
    bar.setAttribute('data-shown', '');
    clearTimeout(hide);
    hide = setTimeout(function () { bar.removeAttribute('data-shown'); }, 700);
  }, { passive: true });
}

function maxHeightOf(element) {
  const value = parseFloat(getComputedStyle(element).maxHeight);
  return isFinite(value) ? value : Infinity;
}

// What plays on `surface`, a batch at a time: `play` starts one from what
// is shown, `stop` ends it where it is, `running` is what plays
// ({animations, ghosts, lifted}) or null.
export function makeMotion(element, list, surface, data) {
  let running = null;

  // Ends the batch on screen now: no animation, copy or lift is left.
  function stop() {
    if (!running) return;
    const stopping = running;
    running = null;
    stopping.animations.forEach(function (animation) { animation.cancel(); });
    stopping.ghosts.forEach(function (ghost) { ghost.remove(); });
    stopping.lifted.forEach(function (el) { el.style.zIndex = ''; el.removeAttribute('data-rowmotion-part'); el.removeAttribute('data-moving'); });
    surface.container.querySelectorAll('[data-path]').forEach(function (el) { el.removeAttribute('data-path'); });
    element.removeAttribute('data-playing-batch');
    // Orthogonal lines scroll again, where the batch left them.
    (stopping.unclipped || []).forEach(function (line) {
      line.el.removeAttribute('data-unclipped');
      if (line.el.scrollLeft !== line.scrollX) line.el.scrollLeft = line.scrollX;
    });
    // A virtual grid keeps what is now in sight, and no more.
    surface.playing = false;
    if (surface.virtual) realize(surface);
  }

  // Plays one batch from what is shown. Resolves when it has settled, or
  // at once when it was stopped (a newer call took over).
  function play(batch, info, changed, how) {
    if (!surface.shown.laid) relayout(surface);
    let before = surface.shown;
    const traced = trace(before.state, batch);
    const inspect = element.hasAttribute('data-rowmotion-inspect');
    // What the list's geometry is, read before anything is written (one
    // layout at most, none when a frame has been drawn since the last write).
    const width = surface.frame.clientWidth;
    const viewport = { top: list.scrollTop, maxHeight: maxHeightOf(list) };
    if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
    // Orthogonal lines: where each is scrolled sideways, and where the
    // batch scrolls it to show its change (sidewaysScroll); the old layout
    // is laid again with the line where it is now.
    const sideways = new Map();
    const geometry0 = geometryOf(surface.framing, before.state, width);
    if (geometry0.sections.some(kind => kind && kind.layout === 'orthogonal')) {
      const changedOld = new Map(), changedNew = new Map();
      const note = function (map, s, r) { if (!map.has(s)) map.set(s, []); map.get(s).push(r); };
      traced.leftRows.forEach(function (left) { note(changedOld, left.from[0], left.from[1]); });
      traced.rows.forEach(function (list, a) {
        list.forEach(function (row, r) {
          if (row.how === 'stay') return;
          if (row.how === 'move' && row.from) note(changedOld, row.from[0], row.from[1]);
          note(changedNew, a, r);
        });
      });
      traced.sections.forEach(function (section, a) {
        const kind = geometry0.sections[section.from];
        if (section.how !== 'stay' && section.how !== 'move' || !kind || kind.layout !== 'orthogonal') return;
        const scroll = sidewaysScroll(kind, width, geometry0.spacing, before.state[section.from].items.length,
          traced.state[a].items.length, before.views[section.from].el.scrollLeft, changedOld.get(section.from) || [], changedNew.get(a) || []);
        sideways.set(a, scroll);
        kind.scrollX = scroll.before;
      });
      geometry0.sections.forEach(function (kind, s) { if (kind && kind.layout === 'orthogonal' && kind.scrollX === undefined) kind.scrollX = before.views[s].el.scrollLeft; });
      geometry0.top = titlesHeight(surface);
      before = { state: before.state, views: before.views, laid: layout(before.state, heightsOf(surface, before.views, width, geometry0, before.state), geometry0) };
    }
    // The old cells that leave. A leaving row is copied now, before its
    // cell is refilled; the cells of a leaving section are copied when the
    // timeline shows them (none of them is refilled by this batch).
    const copies = new Map();
    function copy(s, type, r, el) { if (el) copies.set(s + ':' + type + ':' + r, el.cloneNode(true)); }
    function later(s, type, r, el) { if (el) copies.set(s + ':' + type + ':' + r, el); }
    traced.leftSections.forEach(function (left) {
      const view = before.views[left.from];
      later(left.from, 'header', -1, view.header);
      view.rows.forEach(function (row, r) { later(left.from, 'row', r, row); });
      later(left.from, 'footer', -1, view.footer);
    });
    traced.leftRows.forEach(function (left) { copy(left.from[0], 'row', left.from[1], before.views[left.from[0]].rows[left.from[1]]); });
    // What a leaving part is drawn from. A virtual list's leaving row that
    // the batch shows (a scroll brought it into sight) had no cell: its
    // copy is made from the old snapshot.
    function leaving(part) {
      const source = copies.get(part.s + ':' + part.type + ':' + part.r);
      if (source || !surface.virtual || part.type !== 'row' || !part.shown) return source;
      return makeRow(before.state[part.s].items[part.r]);
    }

    // The new state's elements: each row keeps its element wherever it
    // goes. Reloaded rows are refilled after the new cells are measured.
    const refills = [];
    let views = traced.state.map(function (section, a) {
      const how = traced.sections[a];
      const old = how.how === 'stay' || how.how === 'move' ? before.views[how.from] : null;
      const view = { el: old ? old.el : makeSection(section, surface.framing), header: null, footer: null, rows: [] };
      view.header = headerPart(old && old.header, section, surface.known);
      view.footer = footerPart(old && old.footer, section, surface.known);
      describeSection(view, section, a);
      view.rows = section.items.map(function (row, r) {
        const from = traced.rows[a][r];
        if (!from.from) return surface.virtual ? null : makeRow(row);
        let line = before.views[from.from[0]].rows[from.from[1]];
        if (from.how === 'reload' && line) refills.push({ line: line, row: row, a: a });
        return line;
      });
      return view;
    });
    const geometry = geometryOf(surface.framing, traced.state, width);
    geometry.top = titlesHeight(surface);
    const collection = !!(surface.framing && (surface.framing.layout || surface.framing.sections));
    const words = collection ? CALL_WORDS.collection : CALL_WORDS.table;
    const table = !!(surface.framing && surface.framing.layout === 'table');
    let fresh = [], copiesToMeasure = [];
    views.forEach(function (view, a) {
      // A tile's size follows from the width: only headers and footers are measured.
      [view.header].concat(geometry.sections[a] ? [] : view.rows, [view.footer]).forEach(function (el) {
        if (el && !el.isConnected && !surface.known.has(el)) fresh.push(el);
      });
    });
    refills.forEach(function (refill) {
      // A data table crossfades the cells whose value changed: their old
      // text is kept to fade out over the new.
      if (table) refill.old = (changed[refill.row.id] || []).map(function (name) {
        const field = refill.line.querySelector('[data-field="' + CSS.escape(name) + '"]');
        return field ? { name: name, copy: field.cloneNode(true) } : null;
      }).filter(Boolean);
      if (geometry.sections[refill.a]) return;
      const copy = refill.line.cloneNode(true);
      if (fillRow(copy, refill.row)) { refill.copy = copy; copiesToMeasure.push(copy); }
    });
    measureAside(surface, fresh.concat(copiesToMeasure));
    refills.forEach(function (refill) {
      fillRow(refill.line, refill.row);
      if (refill.copy) surface.known.set(refill.line, surface.known.get(refill.copy));
      (changed[refill.row.id] || []).forEach(function (name) {
        const field = refill.line.querySelector('[data-field="' + CSS.escape(name) + '"]');
        if (field) field.setAttribute('data-changed', '');
      });
    });
    arrange(surface.container, views);
    geometry.sections.forEach(function (kind, a) {
      if (!kind || kind.layout !== 'orthogonal') return;
      const scroll = sideways.get(a);
      kind.scrollX = scroll ? scroll.after : 0;
      if (views[a].el.scrollLeft !== kind.scrollX) views[a].el.scrollLeft = kind.scrollX;
    });
    if (surface.virtual) sizeInSight(surface, views, traced.state, geometry, width, viewport.top);
    let laid = layout(traced.state, heightsOf(surface, views, width, geometry, traced.state), geometry);
    // The change must be in sight: scrolled to before anything moves,
    // while the list still has the old state's height.
    // In plain style a pinned header covers the list's top.
    // A data table's row of column titles is pinned there too.
    // A collection view's headers are not pinned (UICollectionViewFlowLayout's
    // sectionHeadersPinToVisibleBounds is false unless set).
    const cover = geometry.top + (element.hasAttribute('data-table-style') || collection ? 0 : before.laid.sections.reduce(function (most, section) {
      return section.header ? Math.max(most, section.header.h) : most;
    }, 0));
    // `scroll: anchor`: what is in sight stays where it is; the old layout
    // is seen from the moved offset (anchorShift). UIKit's default keeps the
    // offset, and the change is brought into sight instead.
    let scrollTo = null, oldLaid = before.laid;
    const anchored = !!(surface.framing && surface.framing.scroll === 'anchor');
    // A virtual list that scrolls to a change far away: the rows there are
    // measured too, and the batch laid out with them.
    // (Again where measuring moves the change: at most thrice.)
    for (let pass = 0, at = viewport.top; surface.virtual && !anchored && pass < 3; pass++) {
      const far = scrollForChanges(traced, before.laid, laid, { top: viewport.top, maxHeight: viewport.maxHeight, cover: cover });
      if (far === null || Math.abs(far - at) <= 1) break;
      sizeInSight(surface, views, traced.state, geometry, width, at = far);
      laid = layout(traced.state, heightsOf(surface, views, width, geometry, traced.state), geometry);
    }
    if (anchored) {
      const delta = anchorShift(traced, before.laid, laid, viewport.top, cover);
      if (delta) {
        oldLaid = shiftLayout(before.laid, delta);
        const frame1 = Math.min(viewport.maxHeight, laid.height);
        scrollTo = Math.max(0, Math.min(viewport.top + delta, laid.height - frame1));
        // Tall enough for the new offset before it is set (the height animates from the old layout's).
        surface.frame.style.height = Math.max(oldLaid.height, laid.height) + 'px';
        list.scrollTop = scrollTo;
        viewport.top = scrollTo;
      }
    } else {
      scrollTo = scrollForChanges(traced, before.laid, laid, { top: viewport.top, maxHeight: viewport.maxHeight, cover: cover });
      if (scrollTo !== null) { list.scrollTop = scrollTo; viewport.top = scrollTo; }
    }
    surface.frame.style.height = laid.height + 'px';
    surface.shown = { state: traced.state, views: views, laid: laid };

    const t = how.timing;
    const plan = timeline({ trace: traced, before: oldLaid, after: laid, styles: data.animations,
      width: width, viewport: viewport, collection: collection,
      pinHeaders: !element.hasAttribute('data-table-style') && !collection });
    if (surface.virtual) {
      // A virtual grid: a cell for every item the batch shows (a collection
      // view dequeues one for each item entering its bounds), every cell at
      // its new frame.
      surface.playing = true;
      plan.parts.forEach(function (part) {
        if (part.side !== 'new' || part.type !== 'row' || !part.shown || views[part.s].rows[part.r]) return;
        views[part.s].rows[part.r] = makeRow(traced.state[part.s].items[part.r]);
      });
      views.forEach(function (view, a) {
        const section = laid.sections[a];
        view.el.setAttribute('data-virtual', '');
        view.el.style.height = section.h + 'px';
        if (view.footer) view.footer.style.top = section.footer.y - section.y + 'px';
        placeRows(view, section);
      });
      arrange(surface.container, views);
    }
    if (how.held) plan.parts.forEach(function (part) {
      if (part.type !== 'row' || part.side !== 'new') return;
      let text = arrivingLabel(traced, part.s, part.r, words);
      const el = partElement(views, part);
      if (text && el) el.setAttribute('data-path', text);
    });
    function labelLeaving(ghost, part) {
      let text = how.held && part.type === 'row' ? leavingLabel(traced, part, words) : null;
      if (text) ghost.setAttribute('data-path', text);
    }
    element.setAttribute('data-playing-batch', String(info.batch + 1));
    // Told once the batch's animations exist (held or running).
    function started() {
      element.dispatchEvent(new CustomEvent('rowmotion:batch', { bubbles: true, detail: {
        step: info.step, batch: info.batch, batchCount: info.count, role: batch.role,
        duration: t.duration, easing: t.easing, spring: t.curve ? how.spring : null, scrolledTo: scrollTo, timeline: plan } }));
    }

    const ongoing = { animations: [], ghosts: [], lifted: [], unclipped: [] };
    // Where a leaving tile was, in both axes (a list's rows span the width).
    function tileOf(part) {
      const section = before.laid.sections[part.s];
      if (part.type !== 'row' || !section || !section.kind) return null;
      const frame = part.frames[0];
      return { x: frame.x, w: frame.w, h: frame.h, kind: section.kind };
    }
    running = ongoing;
    // Every animation at the player's pace, paused where the player
    // holds; settles once all have finished (or were cancelled).
    function launch() {
      ongoing.animations.forEach(function (animation) {
        animation.playbackRate = how.speed;
        if (how.held) animation.pause();
      });
      started();
      return Promise.all(ongoing.animations.map(function (a) { return a.finished.catch(function () {}); })).then(function () {
        if (running === ongoing) stop();
      });
    }
    if (REDUCED) {
      // No motion: tint what changed, with a label, then settle.
      plan.parts.forEach(function (part) {
        if (part.side !== 'new') return;
        let el = partElement(views, part);
        if (!el) return;
        // Stacked as the model says: what arrives is drawn over what leaves
        // there (a deleted section covered the section inserted in its place).
        if (part.shown) { el.style.zIndex = String(part.z); ongoing.lifted.push(el); }
        if (part.type !== 'row') return;
        if (part.role === 'insert') el.setAttribute('data-change', 'inserted');
        else if (part.role === 'reload-new') el.setAttribute('data-change', 'reloaded');
        else if (part.role === 'move' && traced.rows[part.s][part.r].how === 'move') el.setAttribute('data-change', 'moved');
      });
      // What leaves is marked where it was and fades there, without
      // moving: a deletion leaves a trace as the other changes do.
      plan.parts.forEach(function (part) {
        if (part.side !== 'old' || part.role !== 'delete') return;
        const source = leaving(part);
        if (!source) return;
        const ghost = ghostOf(source, part.frames[0].y, tileOf(part));
        if (part.type === 'row') ghost.setAttribute('data-change', 'deleted');
        labelLeaving(ghost, part);
        ghost.style.zIndex = String(part.z);
        surface.container.appendChild(ghost);
        ongoing.ghosts.push(ghost);
        ongoing.animations.push(ghost.animate([{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0 }], t));
      });
      // The batch's time, kept by the list's height, so that holding,
      // scrubbing and the speed act on it like on motion: as tall as the
      // taller layout while it lasts (rows deleted from the end of a list
      // that shrinks fade where they were, not cut off), then the new one's.
      const tallest = Math.max(oldLaid.height, laid.height) + 'px';
      ongoing.animations.push(surface.frame.animate([{ height: tallest }, { height: tallest }], t));
      return launch();
    }
    // An orthogonal line is a scroller, which would clip its header,
    // footer and cards where they glide outside its new box (a line that
    // empties, a card moving in from another section): during the batch it
    // does not scroll or clip, its cards drawn where its scroll put them.
    const unclipped = new Map();
    views.forEach(function (view, a) {
      const kind = geometry.sections[a];
      if (!kind || kind.layout !== 'orthogonal') return;
      unclipped.set(a, kind.scrollX || 0);
      ongoing.unclipped.push({ el: view.el, scrollX: kind.scrollX || 0 });
      view.el.setAttribute('data-unclipped', '');
    });
    const moved = new Set();
    plan.parts.forEach(function (part, k) {
      let el;
      if (part.side === 'old') {
        const source = leaving(part);
        if (!source) return;
        el = ghostOf(source, part.frames[0].y, tileOf(part));
        labelLeaving(el, part);
        surface.container.appendChild(el);
        ongoing.ghosts.push(el);
      } else {
        el = partElement(views, part);
        if (!el || !part.shown && !inspect) return;
        ongoing.lifted.push(el);
      }
      if (inspect) el.setAttribute('data-rowmotion-part', String(k));
      // Every part on screen is stacked as the model says, moving or not:
      // a row that stays covers a section sliding away behind it.
      if (part.shown) el.style.zIndex = String(part.z);
      if (!part.animated) return;
      // Where the element sits: a pinned header's frames end away from it.
      const home = part.rest || (part.side === 'old' ? part.frames[0] : part.frames[part.frames.length - 1]);
      if (part.role === 'move' && traced.rows[part.s] && part.type === 'row' && traced.rows[part.s][part.r].how === 'move') el.setAttribute('data-moving', '');
      // An unclipped line's card is laid out as if unscrolled.
      const sideways = part.side === 'new' && part.type === 'row' && unclipped.has(part.s) ? unclipped.get(part.s) : 0;
      moved.add(el);
      ongoing.animations.push(el.animate(keyframes(part, home.y, home.x + sideways), t));
    });
    // Its cards that do not move keep their scrolled place.
    unclipped.forEach(function (scrollX, a) {
      if (!scrollX) return;
      views[a].rows.forEach(function (el) {
        if (!el || moved.has(el)) return;
        const still = 'translate(' + (-scrollX) + 'px,0px)';
        ongoing.animations.push(el.animate([{ transform: still }, { transform: still }], t));
      });
    });
    // A data table's changed cells crossfade, the rest of the row untouched.
    refills.forEach(function (refill) {
      (refill.old || []).forEach(function (old) {
        const cell = refill.line.querySelector('[data-field="' + CSS.escape(old.name) + '"]');
        if (!cell) return;
        const copy = old.copy;
        copy.removeAttribute('data-field');
        copy.removeAttribute('data-changed');
        copy.setAttribute('data-crossfade-of', old.name);
        copy.setAttribute('aria-hidden', 'true');
        copy.classList.add('rowmotion-crossfade');
        copy.style.left = cell.offsetLeft + 'px';
        copy.style.top = cell.offsetTop + 'px';
        copy.style.width = cell.offsetWidth + 'px';
        refill.line.appendChild(copy);
        ongoing.ghosts.push(copy);
        ongoing.animations.push(copy.animate([{ opacity: 1 }, { opacity: 0 }], t));
        ongoing.animations.push(cell.animate([{ opacity: 0 }, { opacity: 1 }], t));
      });
    });
    ongoing.animations.push(surface.frame.animate(plan.height.map(function (frame) {
      return { offset: frame.offset, height: frame.h + 'px' };
    }), t));
    return launch();
  }

  return { play: play, stop: stop, get running() { return running; } };
}
