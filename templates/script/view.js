// The list's elements for a state: rows, sections, headers and footers,
// placed by the model's layout; the view decides nothing about geometry.
import { hasText } from './model.js';

// A view mirrors a state: [{el, header, footer, rows: [el]}]. Every part
// (header, row, footer) is absolutely placed in the list's content at the
// layout's y; section elements only group their parts.
export const REDUCED = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function rowKeys(state) {
  const seen = new Map();
  return state.map(function (section) {
    return section.items.map(function (row) {
      const n = (seen.get(row.id) || 0) + 1;
      seen.set(row.id, n);
      return row.id + '\u0000' + n; // repeated ids (content identity) pair by occurrence
    });
  });
}

// A row's fields are [name, text] pairs shown in a line, or, when its
// example draws rows as cells (`cell:`), [name, text, slot] triples: the
// slot (title, subtitle, detail, image, badge) is the part of the cell.
export function fillRow(line, row) {
  const fields = row.fields.length ? row.fields : [['id', row.id]];
  let cell = fields[0].length > 2, changed = false;
  if (line.classList.contains('rowmotion-cell') !== cell) { line.classList.toggle('rowmotion-cell', cell); changed = true; }
  const spans = line.children;
  while (spans.length > fields.length) { line.removeChild(line.lastChild); changed = true; }
  fields.forEach(function (field, k) {
    let span = spans[k];
    if (!span) {
      span = document.createElement('span');
      line.appendChild(span);
      changed = true;
    }
    const slot = cell ? field[2] : null;
    const className = slot ? 'field cell-' + slot + (slot === 'title' ? ' primary' : '') : 'field' + (k === 0 ? ' primary' : '');
    if (span.className !== className) { span.className = className; changed = true; }
    span.setAttribute('data-field', field[0]);
    if (slot) span.setAttribute('data-slot', slot); else span.removeAttribute('data-slot');
    const text = field[1] === null ? '' : String(field[1]);
    if (slot === 'image') {
      if (span.getAttribute('data-value') === text && span.firstChild) return;
      span.setAttribute('data-value', text);
      if (isPictureAddress(text)) {
        const picture = document.createElement('img');
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
      const accessory = ACCESSORIES[text] || ['', null];
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
const ACCESSORIES = { checkmark: ['\u2713', 'checked'], disclosureIndicator: ['\u203A', null],
  detailButton: ['\u24D8', null], detailDisclosureButton: ['\u24D8 \u203A', null] };
function isPictureAddress(value) { return /^(https?:\/\/|data:image\/)/.test(value); }
function tileText(value) {
  const first = typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
    ? (new Intl.Segmenter().segment(value)[Symbol.iterator]().next().value || { segment: '' }).segment
    : Array.from(value)[0] || '';
  return first.toUpperCase();
}

export function makeRow(row) {
  let line = document.createElement('div');
  line.className = 'rowmotion-row';
  line.setAttribute('role', 'listitem');
  line.setAttribute('data-item-id', row.id);
  fillRow(line, row);
  return line;
}

// How section `id` is laid out, from the player data's `presentation`
// (as the page's first rows say it, SiteRendering.staticList): null for a
// table view's list, else {layout: 'grid'|'orthogonal'|'table', columns}.
export function sectionLayout(framing, id) {
  if (!framing) return null;
  const own = framing.sections && Object.prototype.hasOwnProperty.call(framing.sections, id) ? framing.sections[id] : null;
  const name = own ? own.layout : framing.layout === 'grid' || framing.layout === 'table' ? framing.layout : 'list';
  const columns = function (fallback) {
    const n = own && own.columns || (name === 'grid' && framing.columns) || fallback;
    return Math.max(1, Math.min(12, Math.floor(Number(n)) || fallback));
  };
  if (name === 'grid') return { layout: 'grid', columns: columns(3) };
  if (name === 'orthogonal') return { layout: 'orthogonal', columns: columns(2) };
  if (name === 'table') return { layout: 'table', columns: 1 };
  // A list section of a collection view says so too: its header is not pinned.
  return framing.layout || framing.sections ? { layout: 'list', columns: 1 } : null;
}

// The geometry the model lays `state` out with (model.js's layout).
export function geometryOf(framing, state, width) {
  const spacing = framing && typeof framing.spacing === 'number' && isFinite(framing.spacing) ? Math.max(0, Math.min(64, framing.spacing)) : 8;
  return { width: width, spacing: spacing, sections: state.map(function (section) {
    const kind = sectionLayout(framing, section.id);
    return kind && (kind.layout === 'grid' || kind.layout === 'orthogonal') ? kind : null;
  }) };
}

export function makeSection(section, framing) {
  const block = document.createElement('div');
  block.className = 'rowmotion-section';
  block.setAttribute('role', 'list');
  block.setAttribute('data-section-id', section.id);
  const kind = sectionLayout(framing, section.id);
  if (kind) {
    block.setAttribute('data-layout', kind.layout);
    if (kind.layout === 'grid' || kind.layout === 'orthogonal') block.style.setProperty('--columns', String(kind.columns));
    // A line that scrolls sideways is reached from the keyboard, as any scrolling region.
    if (kind.layout === 'orthogonal') block.tabIndex = 0;
  }
  return block;
}

// Header and footer elements of a section view, made, updated or removed;
// a changed text is measured again.
function textPart(current, tag, className, text, known) {
  if (!hasText(text)) return null;
  const element = current || document.createElement(tag);
  element.className = className;
  if (element.textContent !== text) { element.textContent = text; known.delete(element); }
  return element;
}
// In a section's list only rows are items: its header and footer are
// presentation (the section is named by its header).
export function headerPart(current, section, known) { return presentation(textPart(current, 'h3', 'rowmotion-header', section.header, known)); }
export function footerPart(current, section, known) { return presentation(textPart(current, 'p', 'footer', section.footer, known)); }
function presentation(element) { if (element) element.setAttribute('role', 'presentation'); return element; }

// A section is named by its header, else by its id, else by its place
// (an unnamed section is "Section 1", never "Section ").
export function describeSection(view, section, index) {
  const label = hasText(section.header) && section.header !== '' ? section.header
    : 'Section ' + (section.id !== '' ? section.id : String(index + 1));
  if (view.el.getAttribute('aria-label') !== label) view.el.setAttribute('aria-label', label);
  // An orthogonal line has a column per item.
  // (At least one: CSS's repeat() takes no zero, and an empty line is one empty column.)
  const count = String(Math.max(1, section.items.length));
  if (view.el.getAttribute('data-layout') === 'orthogonal' && view.el.style.getPropertyValue('--count') !== count) {
    view.el.style.setProperty('--count', count);
  }
  // A list needs items: a section with no rows is a group until it has some.
  const role = section.items.length ? 'list' : 'group';
  if (view.el.getAttribute('role') !== role) view.el.setAttribute('role', role);
}

// Puts the views' elements in `container` in order; removes the rest (a
// data table's row of column titles stays first).
export function arrange(container, views) {
  views.forEach(function (view) {
    const parts = [];
    if (view.header) parts.push(view.header);
    for (let r = 0; r < view.rows.length; r++) if (view.rows[r]) parts.push(view.rows[r]);
    if (view.footer) parts.push(view.footer);
    order(view.el, parts);
  });
  const titles = container.querySelector(':scope > .rowmotion-columns');
  order(container, (titles ? [titles] : []).concat(views.map(view => view.el)));
}

// Makes `elements` the children of `parent`, in order, moving as few as it
// can: the longest run already in order stays, so a step that moves three
// rows of 5,000 moves three elements (each move restyles what it moves).
function order(parent, elements) {
  let wanted = new Set(elements), at = new Map(), k = 0, child, next;
  for (child = parent.firstElementChild; child; child = next) {
    next = child.nextElementSibling;
    if (wanted.has(child)) at.set(child, k++); else parent.removeChild(child);
  }
  const stays = increasingRun(elements.map(el => at.has(el) ? at.get(el) : -1));
  let anchor = null;
  for (let i = elements.length - 1; i >= 0; i--) {
    if (!stays[i]) parent.insertBefore(elements[i], anchor);
    anchor = elements[i];
  }
}

// Flags the members of a longest strictly increasing subsequence of the
// non-negative values (patience sorting, O(n log n)).
function increasingRun(values) {
  let tails = [], previous = new Array(values.length), flags = new Array(values.length);
  values.forEach(function (value, i) {
    if (value < 0) return;
    let low = 0, high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]] < value) low = mid + 1; else high = mid;
    }
    previous[i] = low ? tails[low - 1] : -1;
    tails[low] = i;
  });
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) flags[i] = true;
  return flags;
}

// The view of `state`, reusing the elements of `views` by key (for jumps).
// `lazy` (a virtual grid): a row with no element keeps none (realize makes
// the ones in sight).
export function viewsByKey(state, views, oldState, known, framing, lazy) {
  let rowsByKey = new Map(), sectionsById = new Map();
  if (views) {
    const oldKeys = rowKeys(oldState);
    views.forEach(function (view, s) {
      sectionsById.set(oldState[s].id, view);
      view.rows.forEach(function (row, r) { if (row) rowsByKey.set(oldKeys[s][r], row); });
    });
  }
  const keys = rowKeys(state);
  return state.map(function (section, s) {
    const old = sectionsById.get(section.id);
    const view = { el: old ? old.el : makeSection(section, framing), header: null, footer: null, rows: [] };
    view.header = headerPart(old && old.header, section, known);
    view.footer = footerPart(old && old.footer, section, known);
    describeSection(view, section, s);
    view.rows = section.items.map(function (row, r) {
      let line = rowsByKey.get(keys[s][r]);
      if (line) { if (fillRow(line, row)) known.delete(line); } else line = lazy ? null : makeRow(row);
      return line;
    });
    return view;
  });
}

export function partElement(views, part) {
  const view = views[part.s];
  if (part.type === 'header') return view.header;
  if (part.type === 'footer') return view.footer;
  return view.rows[part.r];
}

// A leaving cell's copy, where the cell was, out of the accessibility tree.
// A tile (a grid's or an orthogonal line's item) is placed in both axes.
export function ghostOf(element, y, tile) {
  const ghost = element.cloneNode(true);
  [ghost].concat(Array.prototype.slice.call(ghost.querySelectorAll('*'))).forEach(function (node) {
    node.removeAttribute('data-item-id');
    node.removeAttribute('data-section-id');
    node.removeAttribute('role');
  });
  ghost.classList.add('rowmotion-ghost');
  ghost.setAttribute('aria-hidden', 'true');
  if (element.hasAttribute('data-item-id')) ghost.setAttribute('data-ghost-of', element.getAttribute('data-item-id'));
  ghost.style.top = y + 'px';
  if (tile) {
    ghost.style.left = tile.x + 'px';
    ghost.style.width = tile.w + 'px';
    ghost.style.height = tile.h + 'px';
    ghost.setAttribute('data-tile', tile.kind || '');
  }
  return ghost;
}

// While a step is held, a row that changes says where it was, where it
// goes and the call that takes it there: "[0, 2] → [0, 0] moveRow". A row
// that only shifts says its index paths; one that stays says nothing.
// A collection view's calls name items (reconfigureItems for a reload:
// rowmotion diff --flavor collection).
const SECTION_CALLS = { move: 'moveSection', insert: 'insertSections', reload: 'reloadSections', delete: 'deleteSections' };
export const CALL_WORDS = {
  table: { insert: 'insertRows', move: 'moveRow', reload: 'reloadRows', delete: 'deleteRows' },
  collection: { insert: 'insertItems', move: 'moveItem', reload: 'reconfigureItems', delete: 'deleteItems' }
};
function indexPath(p) { return '[' + p[0] + ', ' + p[1] + ']'; }
export function arrivingLabel(traced, a, r, words) {
  words = words || CALL_WORDS.table;
  let how = traced.rows[a][r], to = indexPath([a, r]), from = how.from ? indexPath(how.from) + ' ' : '';
  const moved = how.from && (how.from[0] !== a || how.from[1] !== r);
  if (how.how === 'insert') return '→ ' + to + ' ' + words.insert;
  if (how.how === 'move') return from + '→ ' + to + ' ' + words.move;
  if (how.how === 'reload') return moved ? from + '→ ' + to + ' ' + words.reload : from + words.reload;
  if (how.how === 'section') return '→ ' + to + ' ' + SECTION_CALLS[traced.sections[a].how];
  if (traced.sections[a].how === 'move') return from + '→ ' + to + ' moveSection';
  return moved ? from + '→ ' + to : null;
}
export function leavingLabel(traced, part, words) {
  let from = indexPath([part.s, part.r]) + ' → ';
  const section = traced.leftSections.filter(left => left.from === part.s)[0];
  if (section) return from + SECTION_CALLS[section.how];
  return part.role === 'delete' ? from + (words || CALL_WORDS.table).delete : null;
}

// Keyframes relative to where the element is laid out (baseX, base).
export function keyframes(part, base, baseX) {
  baseX = baseX || 0;
  return part.frames.map(function (frame) {
    const key = {
      offset: frame.offset,
      transform: 'translate(' + (frame.x - baseX) + 'px,' + (frame.y - base) + 'px)',
      opacity: frame.opacity
    };
    if (part.style === 'middle') key.clipPath = 'inset(' + frame.clipTop + 'px 0px ' + frame.clipBottom + 'px 0px)';
    return key;
  });
}
