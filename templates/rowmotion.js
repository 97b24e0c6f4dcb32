/* Rowmotion's player: replays each step's batches the way UIKit applies
   them. One classic script (ES modules do not load from file://), exposing
   only window.Rowmotion. This version shows each settled state; the
   animations of each operation are layered on the same model. */
(function () {
  'use strict';

  // ---- Read data --------------------------------------------------------
  function readData(element) {
    var script = element.querySelector('script.rowmotion-data');
    return JSON.parse(script.textContent);
  }

  // ---- Model: one batch, as uikit-rules.md's reference replay ------------
  // A state is [{id, header, footer, items: [{id, fields}]}].
  function shiftByDeletesAndInserts(index, deletes, inserts) {
    var shifted = index - deletes.filter(function (d) { return d < index; }).length;
    inserts.slice().sort(function (a, b) { return a - b; }).forEach(function (i) { if (i <= shifted) shifted += 1; });
    return shifted;
  }

  function applyBatch(state, batch) {
    var s = batch.sections, r = batch.rows;
    var removedSections = new Set(s.delete.concat(s.reload, s.move.map(function (m) { return m[0]; })));
    var placedSections = new Map();
    var newSections = batch.newSections.slice();
    var freshIndexes = s.insert.concat(s.reload.map(function (i) { return shiftByDeletesAndInserts(i, s.delete, s.insert); }))
      .sort(function (a, b) { return a - b; });
    freshIndexes.forEach(function (index, k) { placedSections.set(index, { fresh: newSections[k] }); });
    s.move.forEach(function (m) { placedSections.set(m[1], { from: m[0] }); });
    var untouched = state.map(function (_, i) { return i; }).filter(function (i) { return !removedSections.has(i); });
    var count = state.length - s.delete.length + s.insert.length;
    var slots = [];
    for (var index = 0; index < count; index++) {
      slots.push(placedSections.get(index) || { from: untouched.shift() });
    }
    var reloaded = new Map(batch.reloadedRows.map(function (row) { return [row.id, row]; }));
    var inserted = new Map();
    r.insert.forEach(function (path, k) { inserted.set(path[0] + ':' + path[1], batch.insertedRows[k]); });
    var movedTo = new Map();
    r.move.forEach(function (m) { movedTo.set(m[1][0] + ':' + m[1][1], m[0]); });
    var deletes = r.delete, inserts = r.insert;
    // A reloaded row's new cell goes where deletes and inserts alone put it,
    // in both coordinates: section moves are ignored for its section as row
    // moves are for its row (uikit-rules.md, rule 19).
    var reloadLandings = r.reload.map(function (p) {
      var section = shiftByDeletesAndInserts(p[0], s.delete, s.insert);
      var row = shiftByDeletesAndInserts(p[1],
        deletes.filter(function (d) { return d[0] === p[0]; }).map(function (d) { return d[1]; }),
        inserts.filter(function (i) { return i[0] === section; }).map(function (i) { return i[1]; }));
      return { from: p, to: [section, row] };
    });
    return slots.map(function (slot, a) {
      if (slot.fresh) return slot.fresh;
      var o = slot.from, old = state[o];
      var removed = new Set(deletes.concat(r.reload, r.move.map(function (m) { return m[0]; }))
        .filter(function (p) { return p[0] === o; }).map(function (p) { return p[1]; }));
      var placed = new Map();
      inserts.forEach(function (p) { if (p[0] === a) placed.set(p[1], inserted.get(p[0] + ':' + p[1])); });
      movedTo.forEach(function (from, key) {
        var to = key.split(':').map(Number);
        if (to[0] === a) placed.set(to[1], state[from[0]].items[from[1]]);
      });
      reloadLandings.forEach(function (landing) {
        if (landing.to[0] !== a) return;
        var row = state[landing.from[0]].items[landing.from[1]];
        placed.set(landing.to[1], reloaded.get(row.id) || row);
      });
      var rest = old.items.filter(function (_, i) { return !removed.has(i); });
      var items = [], total = rest.length + placed.size;
      for (var i = 0; i < total; i++) items.push(placed.has(i) ? placed.get(i) : rest.shift());
      return { id: old.id, header: old.header, footer: old.footer, items: items };
    });
  }

  // ---- Render: reconcile the DOM with a state, text only -----------------
  // Row and section elements are kept per key across batches, so a batch can
  // be animated from where each element was to where it is now.
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

  function fillRow(line, row) {
    var fields = row.fields.length ? row.fields : [['id', row.id]];
    var spans = line.children;
    while (spans.length > fields.length) line.removeChild(line.lastChild);
    fields.forEach(function (field, k) {
      var span = spans[k];
      if (!span) {
        span = document.createElement('span');
        line.appendChild(span);
      }
      span.className = 'field' + (k === 0 ? ' primary' : '');
      span.setAttribute('data-field', field[0]);
      var text = field[1] === null ? '' : String(field[1]);
      if (span.textContent !== text) span.textContent = text;
    });
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
    block.setAttribute('data-section-id', section.id);
    return block;
  }

  function setText(block, tag, className, text, before) {
    var element = block.querySelector(':scope > ' + tag + (className ? '.' + className : ''));
    if (text === null) { if (element) element.remove(); return; }
    if (!element) {
      element = document.createElement(tag);
      if (className) element.className = className;
      if (before) block.insertBefore(element, block.firstChild); else block.appendChild(element);
    }
    if (element.textContent !== text) element.textContent = text;
  }

  // Puts `state` in `list`, reusing the elements in `view` (key -> element).
  // Returns the elements that left, with the view's new maps.
  function reconcile(list, state, view) {
    var keys = rowKeys(state);
    var rows = new Map(), sections = new Map(), born = new Set();
    state.forEach(function (section, s) {
      var block = view.sections.get(section.id);
      if (!block) { block = makeSection(section); born.add(block); }
      sections.set(section.id, block);
      setText(block, 'h3', '', section.header, true);
      var anchor = block.querySelector(':scope > h3');
      var previous = anchor;
      section.items.forEach(function (row, r) {
        var key = keys[s][r];
        var line = view.rows.get(key);
        if (!line) { line = makeRow(row); born.add(line); } else fillRow(line, row);
        rows.set(key, line);
        var next = previous ? previous.nextSibling : block.firstChild;
        if (next !== line) block.insertBefore(line, next);
        previous = line;
      });
      // Anything after the last row but the footer is stale.
      var stale = previous ? previous.nextSibling : block.firstChild;
      while (stale) {
        var following = stale.nextSibling;
        if (!(stale.tagName === 'P' && stale.classList.contains('footer'))) block.removeChild(stale);
        stale = following;
      }
      setText(block, 'p', 'footer', section.footer, false);
      if (list.children[s] !== block) list.insertBefore(block, list.children[s] || null);
    });
    while (list.children.length > state.length) list.removeChild(list.lastChild);
    var leftRows = [], leftSections = [];
    view.rows.forEach(function (line, key) { if (!rows.has(key)) leftRows.push(line); });
    view.sections.forEach(function (block, id) { if (!sections.has(id)) leftSections.push(block); });
    return { view: { rows: rows, sections: sections }, born: born, leftRows: leftRows, leftSections: leftSections, keys: keys };
  }

  // Plain render for jumps: the end state at once.
  function render(list, state, view) {
    return reconcile(list, state, view || { rows: new Map(), sections: new Map() }).view;
  }

  // ---- Animate: one function per operation kind ---------------------------
  var EASING = 'ease-in-out';

  function entering(style, edge) {
    switch (style) {
      case 'fade': return [{ opacity: 0 }, { opacity: 1 }];
      case 'right': return [{ transform: 'translateX(100%)' }, { transform: 'translateX(0)' }];
      case 'left': return [{ transform: 'translateX(-100%)' }, { transform: 'translateX(0)' }];
      case 'top': return [{ transform: 'translateY(-100%)', opacity: 0 }, { transform: 'translateY(0)', opacity: 1 }];
      case 'bottom': return [{ transform: 'translateY(100%)', opacity: 0 }, { transform: 'translateY(0)', opacity: 1 }];
      case 'middle': return [{ transform: 'scaleY(0)' }, { transform: 'scaleY(1)' }];
      case 'none': return null;
      default: return entering(edge === 'start' ? 'bottom' : 'top'); // automatic
    }
  }

  function reversed(frames) { return frames ? frames.slice().reverse() : null; }

  var animate = {
    insert: function (element, style, timing, edge) {
      var frames = entering(style, edge);
      return frames ? element.animate(frames, timing) : null;
    },
    delete: function (element, style, timing, edge) {
      var frames = reversed(entering(style, edge));
      return frames ? element.animate(frames, Object.assign({ fill: 'forwards' }, timing)) : null;
    },
    move: function (element, dx, dy, timing) {
      if (!dx && !dy) return null;
      element.style.zIndex = '2';
      var motion = element.animate([{ transform: 'translate(' + dx + 'px,' + dy + 'px)' }, { transform: 'translate(0,0)' }], timing);
      motion.finished.then(clear, clear);
      function clear() { element.style.zIndex = ''; }
      return motion;
    },
    reload: function (element, timing) {
      return element.animate([{ opacity: 0.25 }, { opacity: 1 }], timing);
    }
  };

  // ---- Counts of a step's changes ------------------------------------------
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

  // ---- Queue and player -----------------------------------------------------
  function makePlayer(element) {
    var data = readData(element);
    // The reloadData() pane of a strategy comparison jumps, as reloadData does.
    var jumps = element.getAttribute('data-strategy') === 'reloadData';
    var list = element.querySelector('.rowmotion-list');
    var states = [data.initial];
    var timer = null, current = 0, pending = 0, view = null, speed = 1, linear = false;
    var running = [], chain = Promise.resolve(), generation = 0;
    // Sections live in their own container; leaving rows are pinned in an
    // overlay beside it, which the player alone controls.
    var container = document.createElement('div');
    container.className = 'rowmotion-sections';
    var overlay = document.createElement('div');
    overlay.className = 'rowmotion-overlay';
    overlay.setAttribute('aria-hidden', 'true');
    list.replaceChildren(container, overlay);

    function stateAt(n) {
      while (states.length <= n) {
        var k = states.length - 1;
        states.push(data.steps[k].batches.reduce(applyBatch, states[k]));
      }
      return states[n];
    }

    function timing() {
      return { duration: (linear ? 250 : 300) / speed, easing: linear ? 'linear' : EASING };
    }

    function positions() {
      var map = new Map();
      container.querySelectorAll('.rowmotion-row, .rowmotion-section').forEach(function (node) {
        map.set(node, node.getBoundingClientRect());
      });
      return map;
    }

    function finishRunning() {
      running.forEach(function (animation) { try { animation.finish(); } catch (e) { /* already done */ } });
      running = [];
      overlay.replaceChildren();
    }

    // Rows leaving are pinned in the overlay, where they were.
    function pin(node, rect, origin) {
      var ghost = node.cloneNode(true);
      ghost.removeAttribute('data-item-id');
      ghost.removeAttribute('data-section-id');
      ghost.querySelectorAll('[data-item-id],[data-section-id]').forEach(function (inner) {
        inner.removeAttribute('data-item-id');
        inner.removeAttribute('data-section-id');
      });
      ghost.style.position = 'absolute';
      ghost.style.left = (rect.left - origin.left) + 'px';
      ghost.style.top = (rect.top - origin.top + list.scrollTop) + 'px';
      ghost.style.width = rect.width + 'px';
      overlay.appendChild(ghost);
      return ghost;
    }

    function visible(rect, box) { return rect.bottom >= box.top && rect.top <= box.bottom; }

    // Keep the scroll position when rows above the viewport change: the first
    // row in view stays where it was (a row that leaves gives no anchor).
    function scrollAnchor() {
      if (list.scrollTop === 0) return null;
      var box = list.getBoundingClientRect();
      var rows = container.querySelectorAll('.rowmotion-row');
      for (var i = 0; i < rows.length; i++) {
        var rect = rows[i].getBoundingClientRect();
        if (rect.bottom > box.top) return { node: rows[i], offset: rect.top - box.top };
      }
      return null;
    }

    function restoreScroll(anchor) {
      if (!anchor || !anchor.node.isConnected) return;
      var delta = anchor.node.getBoundingClientRect().top - list.getBoundingClientRect().top - anchor.offset;
      if (delta) list.scrollTop += delta;
    }

    function playBatch(state, batch, changed) {
      var anchor = scrollAnchor();
      var before = positions();
      var box = list.getBoundingClientRect();
      var result = reconcile(container, state, view);
      view = result.view;
      restoreScroll(anchor);
      var after = positions();
      var t = timing();
      var animations = [];
      var kinds = data.animations;
      var reloadedIds = new Set(batch.reloadedRows.map(function (row) { return row.id; }));
      var movedTo = new Set(batch.rows.move.map(function (m) { return m[1][0] + ':' + m[1][1]; }));
      if (REDUCED) {
        // No motion: tint what changed, with a label, then settle.
        result.born.forEach(function (node) { node.setAttribute('data-change', 'inserted'); });
        state.forEach(function (section, s) {
          section.items.forEach(function (row, r) {
            var line = view.rows.get(result.keys[s][r]);
            if (reloadedIds.has(row.id)) line.setAttribute('data-change', 'reloaded');
            else if (movedTo.has(s + ':' + r)) line.setAttribute('data-change', 'moved');
          });
        });
        return new Promise(function (resolve) { setTimeout(resolve, t.duration); });
      }
      result.leftSections.concat(result.leftRows).forEach(function (node) {
        var rect = before.get(node);
        if (!rect || !visible(rect, box)) return;
        var ghost = pin(node, rect, box);
        var edge = node.previousSibling && node.previousSibling.tagName !== 'H3' ? 'end' : 'start';
        var a = animate.delete(ghost, kinds.delete, t, edge);
        if (a) { animations.push(a); a.finished.then(function () { ghost.remove(); }, function () { ghost.remove(); }); } else ghost.remove();
      });
      // Sections glide first; a row inside a gliding section moves by its
      // own offset only.
      var sectionShift = new Map();
      after.forEach(function (rect, node) {
        if (!node.classList.contains('rowmotion-section')) return;
        var old = before.get(node);
        if (result.born.has(node)) {
          if (!visible(rect, box)) return;
          var edge = node.previousSibling ? 'end' : 'start';
          var a = animate.insert(node, kinds.insert, t, edge);
          if (a) animations.push(a);
          return;
        }
        if (!old) return;
        var shift = { x: old.left - rect.left, y: old.top - rect.top };
        if (!visible(rect, box) && !visible(old, box)) return;
        sectionShift.set(node, shift);
        var m = animate.move(node, shift.x, shift.y, t);
        if (m) animations.push(m);
      });
      after.forEach(function (rect, node) {
        if (node.classList.contains('rowmotion-section')) return;
        var old = before.get(node);
        // Off-screen rows are not animated, as in UIKit.
        if (!visible(rect, box) && !(old && visible(old, box))) return;
        if (result.born.has(node)) {
          if (result.born.has(node.parentNode)) return; // a new section brings its rows
          var edge = node.previousSibling && node.previousSibling.tagName !== 'H3' ? 'end' : 'start';
          var a = animate.insert(node, kinds.insert, t, edge);
          if (a) animations.push(a);
          return;
        }
        if (!old) return;
        var parentShift = sectionShift.get(node.parentNode) || { x: 0, y: 0 };
        var m = animate.move(node, old.left - rect.left - parentShift.x, old.top - rect.top - parentShift.y, t);
        if (m) animations.push(m);
      });
      state.forEach(function (section, s) {
        section.items.forEach(function (row, r) {
          if (!reloadedIds.has(row.id)) return;
          var line = view.rows.get(result.keys[s][r]);
          (changed[row.id] || []).forEach(function (name) {
            var field = line.querySelector('[data-field="' + CSS.escape(name) + '"]');
            if (field) field.setAttribute('data-changed', '');
          });
          animations.push(animate.reload(line, t));
        });
      });
      running = running.concat(animations);
      return Promise.all(animations.map(function (a) { return a.finished.catch(function () {}); }));
    }

    function clearMarks() {
      container.querySelectorAll('[data-change],[data-changed]').forEach(function (node) {
        node.removeAttribute('data-change');
        node.removeAttribute('data-changed');
      });
    }

    function settle(target) {
      current = target;
      element.setAttribute('data-current-step', String(target));
      if (element === document.querySelector('[data-rowmotion-player]')) {
        document.querySelectorAll('.step-list > li[id^="step-"]').forEach(function (item) {
          if (item.id === 'step-' + target) item.setAttribute('aria-current', 'step'); else item.removeAttribute('aria-current');
        });
      }
      updateControls();
      return player;
    }

    // One step forward, batch after batch; anything else jumps.
    function run(target, token) {
      clearMarks();
      if (target === current + 1 && view && !jumps) {
        var step = data.steps[current];
        var state = states[current];
        var sequence = Promise.resolve();
        step.batches.forEach(function (batch) {
          sequence = sequence.then(function () {
            if (token !== generation) return;
            state = applyBatch(state, batch);
            return playBatch(state, batch, step.changedFields || {});
          });
        });
        stateAt(target);
        return sequence.then(function () {
          if (token === generation) { overlay.replaceChildren(); settle(target); }
          return player;
        });
      }
      var anchor = scrollAnchor();
      view = render(container, stateAt(target), view);
      restoreScroll(anchor);
      return Promise.resolve(settle(target));
    }

    function goTo(n, queued) {
      var target = Math.max(0, Math.min(data.steps.length, Number(n) || 0));
      pending = target;
      element.dispatchEvent(new CustomEvent('rowmotion:goto', { bubbles: true, detail: { step: target, queued: !!queued } }));
      if (!queued) {
        // A user who skips ahead sees the end state at once.
        generation += 1;
        finishRunning();
        var token = generation;
        chain = Promise.resolve().then(function () { return run(target, token); });
        return chain;
      }
      var queuedToken = generation;
      chain = chain.then(function () { return run(target, queuedToken); });
      return chain;
    }

    // ---- Controls ------------------------------------------------------------
    var controls = document.createElement('div');
    controls.className = 'rowmotion-controls';
    function button(label, title, action) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.title = title;
      b.setAttribute('aria-label', title);
      b.addEventListener('click', action);
      controls.appendChild(b);
      return b;
    }
    button('Restart', 'Restart (Home)', function () { player.pause(); player.goTo(0); });
    button('◀', 'Previous step (←)', function () { player.pause(); player.prev(); });
    var playButton = button('▶', 'Play (space)', function () { if (timer) player.pause(); else player.play(); });
    button('▶▶', 'Next step (→)', function () { player.pause(); player.next(); });
    var speedSelect = document.createElement('select');
    speedSelect.setAttribute('aria-label', 'Speed');
    [['0.25', '0.25×'], ['0.5', '0.5×'], ['1', '1×'], ['2', '2×'], ['uxkit', 'UXKit (0.25 s linear)']].forEach(function (option) {
      var o = document.createElement('option');
      o.value = option[0];
      o.textContent = option[1];
      if (option[0] === '1') o.selected = true;
      speedSelect.appendChild(o);
    });
    speedSelect.addEventListener('change', function () {
      linear = speedSelect.value === 'uxkit';
      speed = linear ? 1 : Number(speedSelect.value);
    });
    controls.appendChild(speedSelect);
    var loop = document.createElement('label');
    var loopBox = document.createElement('input');
    loopBox.type = 'checkbox';
    loop.appendChild(loopBox);
    loop.appendChild(document.createTextNode(' loop'));
    controls.appendChild(loop);
    var status = document.createElement('p');
    status.className = 'rowmotion-status';
    status.setAttribute('aria-live', 'polite');
    element.insertBefore(controls, list);
    element.insertBefore(status, list);

    // The timeline: one button per snapshot, with the step's counts.
    var timeline = document.createElement('ol');
    timeline.className = 'rowmotion-timeline';
    var marks = [];
    for (var k = 0; k <= data.steps.length; k++) {
      var item = document.createElement('li');
      var mark = document.createElement('button');
      mark.type = 'button';
      mark.textContent = String(k);
      mark.title = (data.labels || [])[k] + (k ? ' — ' + describe(counts(data.steps[k - 1])) : '');
      mark.addEventListener('click', (function (target) { return function () { player.pause(); player.goTo(target); }; })(k));
      if (k && data.steps[k - 1].batches.length > 1) mark.setAttribute('data-deferred', '');
      item.appendChild(mark);
      timeline.appendChild(item);
      marks.push(mark);
    }
    element.insertBefore(timeline, list);

    // The "reloadData" pane jumps to each state without animation, beside the
    // animated list, so the two can be watched side by side.
    var comparePane = null, compareView = null;
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
      comparePane = document.createElement('div');
      comparePane.className = 'rowmotion-list rowmotion-compare-list';
      comparePane.setAttribute('data-compare-pane', '');
      column('reloadData()').appendChild(comparePane);
    }

    function showCompare(target) {
      if (comparePane) compareView = render(comparePane, stateAt(target), compareView);
    }

    function updateControls() {
      var labels = data.labels || [];
      var text = 'Step ' + current + ' of ' + data.steps.length + (labels[current] ? ': ' + labels[current] : '');
      var advice = adviceFor(current);
      status.textContent = advice ? text + ' — ' + advice : text;
      playButton.textContent = timer ? '⏸' : '▶';
      marks.forEach(function (mark, k) {
        if (k === current) mark.setAttribute('aria-current', 'step'); else mark.removeAttribute('aria-current');
      });
      showCompare(current);
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
    element.setAttribute('aria-keyshortcuts', 'Space ArrowLeft ArrowRight Home');
    element.addEventListener('keydown', function (event) {
      if (event.target !== element) return;
      var handled = true;
      switch (event.key) {
        case ' ': if (timer) player.pause(); else player.play(); break;
        case 'ArrowLeft': player.pause(); player.prev(); break;
        case 'ArrowRight': player.pause(); player.next(); break;
        case 'Home': player.pause(); player.goTo(0); break;
        default: handled = false;
      }
      if (handled) event.preventDefault();
    });

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
            if (current >= data.steps.length) {
              if (!loopBox.checked) { timer = null; updateControls(); resolve(player); return; }
              goTo(0, false);
            }
            goTo(pending + 1, true).then(function () {
              if (!timer) { resolve(player); return; }
              timer = setTimeout(advance, 600 / speed);
            });
          })();
        });
      },
      pause: function () {
        if (timer !== null && timer !== true) clearTimeout(timer);
        timer = null;
        updateControls();
        return chain.then(function () { return player; });
      },
      state: function () {
        return Array.prototype.map.call(container.querySelectorAll(':scope > [data-section-id]'), function (section) {
          return {
            id: section.getAttribute('data-section-id'),
            items: Array.prototype.map.call(section.querySelectorAll(':scope > [data-item-id]'), function (row) {
              return row.getAttribute('data-item-id');
            })
          };
        });
      }
    };
    var start = Number(element.getAttribute('data-step')) || 0;
    var hash = /^#step-(\d+)$/.exec(window.location.hash || '');
    if (hash && element === document.querySelector('[data-rowmotion-player]')) start = Number(hash[1]);
    current = pending = Math.min(start, data.steps.length);
    view = render(container, stateAt(current), null);
    settle(current);
    if (element.hasAttribute('data-autoplay')) player.play();
    return Object.freeze(player);
  }

  var players = Array.prototype.map.call(document.querySelectorAll('[data-rowmotion-player]'), makePlayer);
  // A strategy comparison's panes follow whichever one is driven.
  document.querySelectorAll('[data-rowmotion-compare="strategies"]').forEach(function (group) {
    var panes = players.filter(function (p) { return group.contains(p.element); });
    var following = false;
    group.addEventListener('rowmotion:goto', function (event) {
      if (following) return;
      following = true;
      panes.forEach(function (p) { if (p.element !== event.target) p.goTo(event.detail.step); });
      following = false;
    });
  });
  window.Rowmotion = Object.freeze({ players: Object.freeze(players), applyBatch: applyBatch });
})();
