// The player's list and an example page's step list, linked.
import { applyBatch } from './model.js';

// An example page's step list: hovering a call marks the rows and
// sections it names in the list, and hovering a row marks the calls of
// the step shown (or held) that name it.
export function linkCalls(element, list, data, stateAt, shownStep) {
  const steps = document.querySelector('.step-list');
  if (!steps || element !== document.querySelector('[data-rowmotion-player]')) return;
  let marked = [];
  function unmark() { marked.forEach(function (el) { el.removeAttribute('data-hovered'); }); marked = []; }
  function mark(el) { el.setAttribute('data-hovered', ''); marked.push(el); }
  // A batch's calls as lines, each a span (split the first time).
  function callLines(pre) {
    const code = pre.querySelector('code') || pre;
    if (!code.hasAttribute('data-lines')) {
      let text = code.textContent.replace(/\n$/, '').split('\n');
      code.replaceChildren.apply(code, text.map(function (line, i) {
        const span = document.createElement('span');
        span.className = 'call-line';
        span.textContent = line + (i < text.length - 1 ? '\n' : '');
        return span;
      }));
      code.setAttribute('data-lines', '');
    }
    return Array.prototype.slice.call(code.children);
  }
  function batchOf(pre) {
    let item = pre.closest('li[id^="step-"]');
    const n = item ? Number(item.id.slice(5)) : NaN;
    let k = item ? Array.prototype.indexOf.call(item.querySelectorAll('pre.swift-calls'), pre) : -1;
    return data.steps[n - 1] && data.steps[n - 1].batches[k] ? { n: n, k: k } : null;
  }
  // What each call of batch k of step n names, in the order its calls
  // are written: [['row', id] | ['section', id], ...] per call.
  function named(n, k) {
    let step = data.steps[n - 1], before = stateAt(n - 1);
    for (let j = 0; j < k; j++) before = applyBatch(before, step.batches[j]);
    let batch = step.batches[k], after = applyBatch(before, batch), out = [];
    function row(state, p) { let section = state[p[0]], item = section && section.items[p[1]]; return item ? ['row', item.id] : null; }
    function section(state, i) { return state[i] ? ['section', state[i].id] : null; }
    function call(list) { out.push(list.filter(Boolean)); }
    let s = batch.sections, r = batch.rows;
    if (s.delete.length) call(s.delete.map(i => section(before, i)));
    if (s.insert.length) call(s.insert.map(i => section(after, i)));
    s.move.forEach(function (m) { call([section(before, m[0])]); });
    if (s.reload.length) call(s.reload.map(i => section(before, i)));
    if (r.delete.length) call(r.delete.map(p => row(before, p)));
    if (r.insert.length) call(r.insert.map(p => row(after, p)));
    r.move.forEach(function (m) { call([row(before, m[0])]); });
    if (r.reload.length) call(r.reload.map(p => row(before, p)));
    return out;
  }
  function elementsOf(thing) {
    const id = CSS.escape(thing[1]);
    return element.querySelectorAll(thing[0] === 'row' ? '[data-item-id="' + id + '"], [data-ghost-of="' + id + '"]' : '[data-section-id="' + id + '"]');
  }
  let hovered = null;
  steps.addEventListener('pointerover', function (event) {
    let line = event.target.closest && event.target.closest('.call-line, pre.swift-calls');
    if (line && line.tagName === 'PRE') {
      callLines(line);
      line = event.target.closest('.call-line');
    }
    if (line === hovered) return;
    unmark();
    hovered = line;
    if (!line) return;
    let pre = line.closest('pre.swift-calls'), where = batchOf(pre);
    if (!where) return;
    let lines = callLines(pre), names = named(where.n, where.k);
    if (lines.length !== names.length) return;
    mark(line);
    names[lines.indexOf(line)].forEach(function (thing) { Array.prototype.forEach.call(elementsOf(thing), mark); });
  });
  steps.addEventListener('pointerleave', function () { unmark(); hovered = null; });
  list.addEventListener('pointerover', function (event) {
    let el = event.target.closest && event.target.closest('[data-item-id], [data-ghost-of], [data-section-id]');
    if (el === hovered) return;
    unmark();
    hovered = el;
    if (!el) return;
    const thing = el.hasAttribute('data-section-id') ? ['section', el.getAttribute('data-section-id')]
      : ['row', el.getAttribute('data-item-id') || el.getAttribute('data-ghost-of')];
    let n = shownStep(), item = document.getElementById('step-' + n);
    if (!item || !data.steps[n - 1]) return;
    let hit = false;
    Array.prototype.forEach.call(item.querySelectorAll('pre.swift-calls'), function (pre, k) {
      let lines = callLines(pre), names = data.steps[n - 1].batches[k] ? named(n, k) : [];
      if (lines.length !== names.length) return;
      names.forEach(function (things, i) {
        if (things.some(t => t[0] === thing[0] && t[1] === thing[1])) { mark(lines[i]); hit = true; }
      });
    });
    if (hit) mark(el);
  });
  list.addEventListener('pointerleave', function () { unmark(); hovered = null; });
}
