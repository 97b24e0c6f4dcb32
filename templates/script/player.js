// A player: its surface, controls, timing and stepping, driving the view
// from the model's timeline.
import { applyBatch, cssEasing, layout, scrollForChanges, spring, timeline, trace } from './model.js';
import { REDUCED, arrange, arrivingLabel, describeSection, fillRow, footerPart, ghostOf, headerPart, keyframes, leavingLabel, makeRow, makeSection, partElement, viewsByKey } from './view.js';
import { GLYPHS, counts, describe, glyph, narrate } from './narration.js';

function readData(element) {
  const script = element.querySelector('script.rowmotion-data');
  return JSON.parse(script.textContent);
}
let BASE_DURATION = 300, UXKIT_DURATION = 250, PAUSE_BETWEEN_STEPS = 600;
const SPEEDS = [['0.1', '0.1×'], ['0.25', '0.25×'], ['0.5', '0.5×'], ['1', '1×'], ['2', '2×'], ['uxkit', 'UXKit (0.25 s linear)']];
export const internals = new WeakMap();
const ROLE_WORDS = { structure: 'structural', reloads: 'deferred reloads' };

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
  const surface = { host: host, frame: frame, container: container, shown: null, known: new WeakMap(), width: -1 };
  if (views.length) surface.shown = { state: state, views: views, laid: null };
  return surface;
}

// Heights of the views' parts, from the cache where known; the rest are
// measured where they are (which lays the list out).
function heightsOf(surface, views, width) {
  if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
  const known = surface.known;
  function of(el) {
    if (!el) return 0;
    let h = known.get(el);
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
  let box = surface.box;
  if (!box) {
    box = surface.box = document.createElement('div');
    box.className = 'rowmotion-measure';
    box.setAttribute('aria-hidden', 'true');
    box.appendChild(document.createElement('div')).className = 'rowmotion-section';
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
function showState(surface, state, later) {
  let views = viewsByKey(state, surface.shown && surface.shown.views, surface.shown && surface.shown.state, surface.known);
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
  const laid = layout(surface.shown.state, heightsOf(surface, surface.shown.views, surface.frame.clientWidth));
  surface.frame.style.height = laid.height + 'px';
  surface.frame.removeAttribute('data-unmeasured');
  surface.shown.laid = laid;
}

// iOS's scroll indicator, over the rows while the list scrolls and a
// moment after: the list has no scrollbar of its own (no gutter cuts the
// separators or narrows the cells).
function showScrolling(player, list) {
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

function within(value, low, high) { return typeof value === 'number' && isFinite(value) && value >= low && value <= high; }

function maxHeightOf(element) {
  const value = parseFloat(getComputedStyle(element).maxHeight);
  return isFinite(value) ? value : Infinity;
}

export function makePlayer(element) {
  const data = readData(element);
  if (data.cell && element.getAttribute('data-cell') !== data.cell) element.setAttribute('data-cell', data.cell);
  // The reloadData() pane of a strategy comparison jumps, as reloadData does.
  const jumps = element.getAttribute('data-strategy') === 'reloadData';
  const list = element.querySelector('.rowmotion-list');
  const surface = makeSurface(list);
  showScrolling(element, list);
  const states = [surface.shown ? surface.shown.state : []];
  let timer = null, current = 0, pending = 0, speed = 1, linear = false;
  let chain = Promise.resolve(), generation = 0;
  let running = null;   // {animations, ghosts, lifted, batch}
  let held = null;      // {step, batch, fraction} while scrubbing

  function stateAt(n) {
    while (states.length <= n) {
      let k = states.length - 1;
      states.push(data.steps[k].batches.reduce(applyBatch, states[k]));
    }
    return states[n];
  }

  // The sequence's own timing (`duration:`, `spring:`), else UIKit's 0.3 s
  // ease-in-out; the UXKit speed choice is 0.25 s linear whatever it says.
  // The data may come from a baseline report: numbers are checked here.
  const framing = data.presentation || {};
  const ownDuration = within(framing.duration, 0.05, 10) ? framing.duration * 1000 : BASE_DURATION;
  const ownSpring = framing.spring && within(framing.spring.damping, 0.05, 1)
    ? spring(framing.spring.damping, within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0, ownDuration / 1000) : null;
  const ownEasing = ownSpring ? cssEasing(ownSpring) : 'ease-in-out';
  const springValues = ownSpring ? { damping: framing.spring.damping, velocity: within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0 } : null;
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
    const stopping = running;
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
    let before = surface.shown;
    const traced = trace(before.state, batch);
    const inspect = element.hasAttribute('data-rowmotion-inspect');
    // What the list's geometry is, read before anything is written (one
    // layout at most, none when a frame has been drawn since the last write).
    const width = surface.frame.clientWidth;
    const viewport = { top: list.scrollTop, maxHeight: maxHeightOf(list) };
    if (width !== surface.width) { surface.known = new WeakMap(); surface.width = width; }
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

    // The new state's elements: each row keeps its element wherever it
    // goes. Reloaded rows are refilled after the new cells are measured.
    const refills = [];
    let views = traced.state.map(function (section, a) {
      const how = traced.sections[a];
      const old = how.how === 'stay' || how.how === 'move' ? before.views[how.from] : null;
      const view = { el: old ? old.el : makeSection(section), header: null, footer: null, rows: [] };
      view.header = headerPart(old && old.header, section, surface.known);
      view.footer = footerPart(old && old.footer, section, surface.known);
      describeSection(view, section, a);
      view.rows = section.items.map(function (row, r) {
        const from = traced.rows[a][r];
        if (!from.from) return makeRow(row);
        let line = before.views[from.from[0]].rows[from.from[1]];
        if (from.how === 'reload') refills.push({ line: line, row: row });
        return line;
      });
      return view;
    });
    let fresh = [], copiesToMeasure = [];
    views.forEach(function (view) {
      [view.header].concat(view.rows, [view.footer]).forEach(function (el) {
        if (el && !el.isConnected && !surface.known.has(el)) fresh.push(el);
      });
    });
    refills.forEach(function (refill) {
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
    const laid = layout(traced.state, heightsOf(surface, views, width));
    // The change must be in sight: scrolled to before anything moves,
    // while the list still has the old state's height.
    // In plain style a pinned header covers the list's top.
    const cover = element.hasAttribute('data-table-style') ? 0 : before.laid.sections.reduce(function (most, section) {
      return section.header ? Math.max(most, section.header.h) : most;
    }, 0);
    const scrollTo = scrollForChanges(traced, before.laid, laid, { top: viewport.top, maxHeight: viewport.maxHeight, cover: cover });
    if (scrollTo !== null) { list.scrollTop = scrollTo; viewport.top = scrollTo; }
    surface.frame.style.height = laid.height + 'px';
    surface.shown = { state: traced.state, views: views, laid: laid };

    const t = timing();
    const plan = timeline({ trace: traced, before: before.laid, after: laid, styles: data.animations,
      width: width, viewport: viewport });
    if (held) plan.parts.forEach(function (part) {
      if (part.type !== 'row' || part.side !== 'new') return;
      let text = arrivingLabel(traced, part.s, part.r);
      if (text) partElement(views, part).setAttribute('data-path', text);
    });
    function labelLeaving(ghost, part) {
      let text = held && part.type === 'row' ? leavingLabel(traced, part) : null;
      if (text) ghost.setAttribute('data-path', text);
    }
    element.setAttribute('data-playing-batch', String(info.batch + 1));
    // Told once the batch's animations exist (held or running).
    function started() {
      element.dispatchEvent(new CustomEvent('rowmotion:batch', { bubbles: true, detail: {
        step: info.step, batch: info.batch, batchCount: info.count, role: batch.role,
        duration: t.duration, easing: t.easing, spring: t.curve ? springValues : null, scrolledTo: scrollTo, timeline: plan } }));
    }

    const ongoing = { animations: [], ghosts: [], lifted: [] };
    running = ongoing;
    if (REDUCED) {
      // No motion: tint what changed, with a label, then settle.
      plan.parts.forEach(function (part) {
        if (part.side !== 'new' || part.type !== 'row') return;
        let el = partElement(views, part);
        if (part.role === 'insert') el.setAttribute('data-change', 'inserted');
        else if (part.role === 'reload-new') el.setAttribute('data-change', 'reloaded');
        else if (part.role === 'move' && traced.rows[part.s][part.r].how === 'move') el.setAttribute('data-change', 'moved');
      });
      // What leaves is marked where it was and fades there, without
      // moving: a deletion leaves a trace as the other changes do.
      plan.parts.forEach(function (part) {
        if (part.side !== 'old' || part.role !== 'delete') return;
        const source = copies.get(part.s + ':' + part.type + ':' + part.r);
        if (!source) return;
        const ghost = ghostOf(source, part.frames[0].y);
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
      let el;
      if (part.side === 'old') {
        const source = copies.get(part.s + ':' + part.type + ':' + part.r);
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
      const base = part.side === 'old' ? part.frames[0].y : part.frames[part.frames.length - 1].y;
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

  let playing = null; // {step, batch, count, role} while a step animates

  // One step forward, batch after batch; anything else jumps.
  function run(target, token) {
    if (token !== generation) return Promise.resolve(player);
    clearMarks();
    showCompare(target);
    if (target === current + 1 && !jumps) {
      const step = data.steps[current];
      const from = current;
      // A stopped batch left its own state on screen: start from the step's.
      if (surface.shown.state !== stateAt(from)) showState(surface, stateAt(from));
      announce(narrate(stateAt(from), step));
      let sequence = Promise.resolve();
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
    let target = Math.max(0, Math.min(data.steps.length, Math.floor(Number(n)) || 0));
    element.dispatchEvent(new CustomEvent('rowmotion:goto', { bubbles: true, detail: { step: target, queued: !!queued } }));
    pending = target;
    if (queued && !held) {
      const queuedToken = generation;
      chain = chain.then(() => run(target, queuedToken));
      return chain;
    }
    generation += 1;
    held = null;
    element.removeAttribute('data-held');
    stopRunning();
    playing = null;
    const token = generation;
    chain = run(target, token);
    return chain;
  }

  // ---- Scrubbing: hold a step's animation at any moment ------------------------
  // The slider runs over the batches of the step after the current one.
  function holdAt(position) {
    const step = data.steps[current];
    if (!step) return;
    pauseTimer();
    const count = step.batches.length;
    position = Math.max(0, Math.min(count, position));
    tell('hold', position / count);
    let index = Math.min(count - 1, Math.floor(position)), local = position - index;
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
      let state = stateAt(current);
      for (let k = 0; k < index; k++) { state = applyBatch(state, step.batches[k]); showState(surface, state); }
      playing = { step: current + 1, batch: index, count: count, role: step.batches[index].role };
      const promise = playBatch(step.batches[index], { step: current + 1, batch: index, count: count }, step.changedFields || {});
      chain = promise.then(() => player);
    }
    held.position = position;
    if (running) {
      const t = timing();
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
    const step = data.steps[current];
    if (!step) { scrubber.setAttribute('aria-valuetext', 'No next step'); return; }
    let count = step.batches.length, percent = Math.round(Number(scrubber.value) / 10);
    const batch = Math.min(count, Math.floor(Number(scrubber.value) / 1000 * count) + 1);
    const label = data.labels && data.labels[current + 1] ? ' (' + data.labels[current + 1] + ')' : '';
    scrubber.setAttribute('aria-valuetext', 'Step ' + (current + 1) + ' of ' + data.steps.length + label + ', ' + percent + ' %'
      + (count > 1 ? ', batch ' + batch + ' of ' + count : ''));
  }

  // ---- Controls ------------------------------------------------------------
  const controls = document.createElement('div');
  controls.className = 'rowmotion-controls';
  function button(label, title, action) {
    const b = document.createElement('button');
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
  const playButton = button('play', 'Play (space)', function () { if (timer) player.pause(); else player.play(); });
  playButton.classList.add('rowmotion-play');
  button('next', 'Next step (→)', function () { player.pause(); player.next(); });
  const speedSelect = document.createElement('select');
  speedSelect.setAttribute('aria-label', 'Speed');
  SPEEDS.forEach(function (option) {
    const o = document.createElement('option');
    o.value = option[0];
    o.textContent = option[1];
    if (option[0] === '1') o.selected = true;
    speedSelect.appendChild(o);
  });
  speedSelect.addEventListener('change', function () { setSpeed(speedSelect.value); });
  controls.appendChild(speedSelect);
  function checkbox(text, onChange) {
    const label = document.createElement('label');
    let box = document.createElement('input');
    box.type = 'checkbox';
    label.appendChild(box);
    label.appendChild(document.createTextNode(' ' + text));
    if (onChange) box.addEventListener('change', onChange);
    controls.appendChild(label);
    return box;
  }
  const loopBox = checkbox('loop');
  function highlightMoves(on) {
    movesBox.checked = on;
    if (on) element.setAttribute('data-highlight-moves', ''); else element.removeAttribute('data-highlight-moves');
    tell('highlight', on);
  }
  const movesBox = checkbox('highlight moves', function () {
    highlightMoves(movesBox.checked);
  });

  // Scrubbing within a step, and frame stepping while held.
  const scrub = document.createElement('div');
  scrub.className = 'rowmotion-scrub';
  const scrubber = document.createElement('input');
  scrubber.type = 'range';
  scrubber.min = '0';
  scrubber.max = '1000';
  scrubber.value = '0';
  // Arrow keys move it 1 %, Page Up and Page Down 10 %.
  scrubber.step = '10';
  scrubber.setAttribute('aria-label', 'Scrub through the next step');
  scrubber.addEventListener('input', function () {
    const step = data.steps[current];
    if (step) holdAt(Number(scrubber.value) / 1000 * step.batches.length);
  });
  function frameButton(label, title, delta) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', function () {
      const step = data.steps[current];
      if (!step) return;
      const t = timing();
      holdAt(heldFraction() + delta * (1000 / 60) / t.duration);
    });
    scrub.appendChild(b);
    return b;
  }
  frameButton('−1f', 'Back one frame', -1);
  scrub.appendChild(scrubber);
  frameButton('+1f', 'Forward one frame', 1);

  const status = document.createElement('p');
  status.className = 'rowmotion-status';
  const batchLine = document.createElement('p');
  batchLine.className = 'rowmotion-batch';
  const live = document.createElement('p');
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
  const snapshots = document.createElement('ol');
  snapshots.className = 'rowmotion-timeline';
  snapshots.setAttribute('aria-label', 'Snapshots');
  const marks = [];
  for (let k = 0; k <= data.steps.length; k++) {
    let item = document.createElement('li');
    const mark = document.createElement('button');
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
    const at = marks.indexOf(event.target);
    if (at < 0) return;
    let target = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: marks.length - 1 }[event.key];
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
  let compare = null;
  if (element.getAttribute('data-compare') === 'reloadData') {
    const sideBySide = document.createElement('div');
    sideBySide.className = 'rowmotion-side-by-side';
    const column = function (text) {
      const wrap = document.createElement('div');
      wrap.className = 'rowmotion-compare';
      const caption = document.createElement('p');
      caption.className = 'rowmotion-compare-caption';
      caption.textContent = text;
      wrap.appendChild(caption);
      sideBySide.appendChild(wrap);
      return wrap;
    };
    list.parentNode.insertBefore(sideBySide, list);
    column('performBatchUpdates').appendChild(list);
    const pane = document.createElement('div');
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
    const labels = data.labels || [];
    let text;
    if (playing) {
      text = 'Step ' + current + ' → ' + playing.step + ' of ' + data.steps.length + (labels[playing.step] ? ': ' + labels[playing.step] : '');
      batchLine.textContent = 'batch ' + (playing.batch + 1) + ' of ' + playing.count + ': ' +
        (ROLE_WORDS[playing.role] || playing.role || 'structural') + (held ? ' (held)' : '');
    } else {
      text = 'Step ' + current + ' of ' + data.steps.length + (labels[current] ? ': ' + labels[current] : '');
      const advice = adviceFor(current);
      if (advice) text += ' — ' + advice;
      batchLine.textContent = current < data.steps.length
        ? 'next: ' + data.steps[current].batches.length + (data.steps[current].batches.length === 1 ? ' batch' : ' batches')
        : 'last snapshot';
    }
    status.textContent = text;
    const on = !!timer;
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
    const c = counts(data.steps[k - 1]);
    let total = c.insert + c.delete + c.move + c.reload;
    const rows = stateAt(k - 1).reduce((sum, section) => sum + section.items.length, 0);
    if (total > 1000) return total + ' changes: reloadData() would serve better than an animation';
    // A short list reads fine even when most of it changes; a long one does not.
    if (rows >= 20 && total > rows / 2) return 'more than half the rows change: consider reloadData()';
    return '';
  }

  element.tabIndex = 0;
  const title = (data.title || data.example || 'list') + '';
  element.setAttribute('aria-label', 'Animated list: ' + title + ' (' + (data.steps.length + 1) + ' snapshots)');
  element.setAttribute('aria-keyshortcuts', 'Space ArrowLeft ArrowRight Home');
  // The list scrolls from the keyboard with Page Up/Down, and with the
  // arrows once it has focus itself (the player's keys act on the figure).
  list.tabIndex = 0;
  list.setAttribute('role', 'group');
  list.setAttribute('aria-label', 'Rows of ' + title);
  element.addEventListener('keydown', function (event) {
    if (event.target !== element) return;
    let handled = true;
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

  const player = {
    element: element,
    stepCount: data.steps.length + 1,
    get step() { return current; },
    goTo: n => goTo(n, false),
    // Counted from where the queue will be, so quick presses add up.
    next: () => goTo(pending + 1, true),
    prev: () => goTo(pending - 1, false),
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
      return chain.then(() => player);
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
      let n = held ? held.step : Math.max(1, current), item = document.getElementById('step-' + n);
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
  let start = Number(element.getAttribute('data-step')) || 0;
  const hash = /^#step-(\d+)$/.exec(window.location.hash || '');
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
