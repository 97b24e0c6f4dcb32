// Counts and words: what a step does, said for the page and for screen readers.
import { hasText, trace } from './model.js';
import { sectionLayout } from './view.js';

export function counts(step) {
  const c = { insert: 0, delete: 0, move: 0, reload: 0 };
  step.batches.forEach(function (batch) {
    c.insert += batch.rows.insert.length + batch.sections.insert.length;
    c.delete += batch.rows.delete.length + batch.sections.delete.length;
    c.move += batch.rows.move.length + batch.sections.move.length;
    c.reload += batch.rows.reload.length + batch.sections.reload.length;
  });
  return c;
}

export function describe(c) {
  const parts = [];
  if (c.insert) parts.push(c.insert + ' inserted');
  if (c.delete) parts.push(c.delete + ' deleted');
  if (c.move) parts.push(c.move + ' moved');
  if (c.reload) parts.push(c.reload + ' reloaded');
  return parts.length ? parts.join(', ') : 'no changes';
}

// The controls' glyphs, drawn as inline SVG: text symbols such as ⏸ are
// empty boxes where no symbol font is installed. Buttons keep their names
// in aria-label and title.
export const GLYPHS = {
  prev: 'M13.5 2.5v11L6.5 8zM2.5 2.5h3v11h-3z',
  play: 'M4 2.5v11L13.5 8z',
  pause: 'M3.5 2.5h3.25v11H3.5zM9.25 2.5h3.25v11H9.25z',
  next: 'M2.5 2.5v11L9.5 8zM10.5 2.5h3v11h-3z'
};
export function glyph(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'rowmotion-glyph');
  svg.setAttribute('data-glyph', name);
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', GLYPHS[name]);
  path.setAttribute('fill', 'currentColor');
  svg.appendChild(path);
  return svg;
}

// What a step does, in words, naming rows by their first field.
function rowName(row) {
  const fields = (row && row.fields) || [];
  const first = fields.filter(field => field[2] === 'title')[0] || (fields[0] && fields[0].length < 3 ? fields[0] : null);
  const text = first && first[1] !== null && first[1] !== undefined ? String(first[1]) : (row ? row.id : '');
  return text === '' ? (row ? row.id : '') : text;
}

function sectionName(section) {
  return hasText(section.header) && section.header !== '' ? 'section ' + section.header : 'section ' + section.id;
}

// 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd": English's ordinal rules
// as Intl has them (every browser the player runs in has them).
const ORDINALS = typeof Intl === 'object' && typeof Intl.PluralRules === 'function' ? new Intl.PluralRules('en-US', { type: 'ordinal' }) : null;
const SUFFIXES = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
function ordinal(n) {
  return n + SUFFIXES[ORDINALS ? ORDINALS.select(n) : 'other'];
}

// Where item r of a section is, in words its layout gives: a list's row, a
// grid's line and column, an orthogonal line's place along it. Counted as
// people count ("the 2nd row"), never "row 2", which reads as the
// IndexPath(row: 2) the calls beside it would name row 1.
function placeIn(kind, r) {
  if (kind && kind.layout === 'grid') return 'line ' + (Math.floor(r / kind.columns) + 1) + ', column ' + (r % kind.columns + 1);
  if (kind && kind.layout === 'orthogonal') return r === 0 ? 'the start of the line' : 'the ' + ordinal(r + 1) + ' place along the line';
  return r === 0 ? 'the top' : 'the ' + ordinal(r + 1) + (kind ? ' item' : ' row');
}

// `framing`: the player data's presentation (a collection view's layouts);
// `whole`: every row by name, for the fold a reader opens (the summary,
// read out as the step starts, names the first few).
export function narrate(state, step, framing, whole) {
  let sentences = [];
  function list(names, verb) {
    if (!names.length) return;
    const shown = whole ? names.join(', ') : names.slice(0, 3).join(', ') + (names.length > 3 ? ' and ' + (names.length - 3) + ' more' : '');
    sentences.push(shown + ' ' + verb);
  }
  step.batches.forEach(function (batch) {
    const traced = trace(state, batch);
    let inserted = [], deleted = [], moved = [], reloaded = [], sections = [];
    traced.leftSections.forEach(function (l) { if (l.how === 'delete') sections.push(sectionName(state[l.from]) + ' deleted'); });
    traced.leftRows.forEach(function (l) { if (l.how === 'delete') deleted.push(rowName(state[l.from[0]].items[l.from[1]])); });
    traced.sections.forEach(function (sec, a) {
      if (sec.how === 'insert') sections.push(sectionName(traced.state[a]) + ' inserted');
      if (sec.how === 'reload') sections.push(sectionName(traced.state[a]) + ' reloaded');
      if (sec.how === 'move') sections.push(sectionName(traced.state[a]) + ' moved to ' + (a === 0 ? 'the top' : 'the ' + ordinal(a + 1) + ' place'));
      traced.rows[a].forEach(function (row, r) {
        const name = rowName(traced.state[a].items[r]);
        if (row.how === 'insert') inserted.push(name);
        else if (row.how === 'reload') reloaded.push(name);
        else if (row.how === 'move') {
          const place = placeIn(sectionLayout(framing, traced.state[a].id), r);
          moved.push(name + ' moved to ' + place + (traced.state.length > 1 ? ' of ' + sectionName(traced.state[a]) : ''));
        }
      });
    });
    // A summary, not a list: the first few by name, then how many more (a
    // 1,000-row step's 49 moves were 1,415 characters read out whole).
    function firstFew(said, what) {
      return said.length > 3 && !whole ? said.slice(0, 3).concat([(said.length - 3) + ' more ' + what]) : said;
    }
    sentences = sentences.concat(firstFew(sections, 'section changes'), firstFew(moved, 'moved'));
    list(inserted, 'inserted');
    list(deleted, 'deleted');
    // A collection view reconfigures a changed item in place (reconfigureItems).
    list(reloaded, framing && (framing.layout || framing.sections) ? 'updated in place' : 'reloaded');
    state = traced.state;
  });
  return sentences.length ? sentences.join('; ') : 'nothing changes';
}
