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
      r.reload.forEach(function (p) {
        if (p[0] !== o) return;
        var slotIndex = shiftByDeletesAndInserts(p[1], deletes.filter(function (d) { return d[0] === o; }).map(function (d) { return d[1]; }),
          inserts.filter(function (i) { return i[0] === a; }).map(function (i) { return i[1]; }));
        var row = old.items[p[1]];
        placed.set(slotIndex, reloaded.get(row.id) || row);
      });
      var rest = old.items.filter(function (_, i) { return !removed.has(i); });
      var items = [], total = rest.length + placed.size;
      for (var i = 0; i < total; i++) items.push(placed.has(i) ? placed.get(i) : rest.shift());
      return { id: old.id, header: old.header, footer: old.footer, items: items };
    });
  }

  // ---- Render: text only, never HTML from the data -----------------------
  function render(list, state) {
    var fragment = document.createDocumentFragment();
    state.forEach(function (section) {
      var block = document.createElement('div');
      block.className = 'rowmotion-section';
      block.setAttribute('data-section-id', section.id);
      if (section.header !== null) {
        var header = document.createElement('h3');
        header.textContent = section.header;
        block.appendChild(header);
      }
      section.items.forEach(function (row) {
        var line = document.createElement('div');
        line.className = 'rowmotion-row';
        line.setAttribute('role', 'listitem');
        line.setAttribute('data-item-id', row.id);
        var fields = row.fields.length ? row.fields : [['id', row.id]];
        fields.forEach(function (field, k) {
          var span = document.createElement('span');
          span.className = 'field' + (k === 0 ? ' primary' : '');
          span.setAttribute('data-field', field[0]);
          span.textContent = field[1] === null ? '' : String(field[1]);
          line.appendChild(span);
        });
        block.appendChild(line);
      });
      if (section.footer !== null) {
        var footer = document.createElement('p');
        footer.className = 'footer';
        footer.textContent = section.footer;
        block.appendChild(footer);
      }
      fragment.appendChild(block);
    });
    list.replaceChildren(fragment);
  }

  // ---- Player: the API object ---------------------------------------------
  function makePlayer(element) {
    var data = readData(element);
    var list = element.querySelector('.rowmotion-list');
    var states = [data.initial];
    var timer = null;
    var current = 0;
    function stateAt(n) {
      while (states.length <= n) {
        var k = states.length - 1;
        states.push(data.steps[k].batches.reduce(applyBatch, states[k]));
      }
      return states[n];
    }
    var player = {
      element: element,
      stepCount: data.steps.length + 1,
      get step() { return current; },
      goTo: function (n) {
        var target = Math.max(0, Math.min(player.stepCount - 1, Number(n) || 0));
        render(list, stateAt(target));
        current = target;
        element.setAttribute('data-current-step', String(target));
        return Promise.resolve(player);
      },
      next: function () { return player.goTo(current + 1); },
      prev: function () { return player.goTo(current - 1); },
      play: function () {
        player.pause();
        return new Promise(function (resolve) {
          timer = setInterval(function () {
            if (current >= player.stepCount - 1) { player.pause(); resolve(player); return; }
            player.next();
          }, 1200);
        });
      },
      pause: function () {
        if (timer !== null) { clearInterval(timer); timer = null; }
        return Promise.resolve(player);
      },
      state: function () {
        return Array.prototype.map.call(list.querySelectorAll('[data-section-id]'), function (section) {
          return {
            id: section.getAttribute('data-section-id'),
            items: Array.prototype.map.call(section.querySelectorAll('[data-item-id]'), function (row) {
              return row.getAttribute('data-item-id');
            })
          };
        });
      }
    };
    player.goTo(Number(element.getAttribute('data-step')) || 0);
    if (element.hasAttribute('data-autoplay')) player.play();
    return Object.freeze(player);
  }

  var players = Array.prototype.map.call(document.querySelectorAll('[data-rowmotion-player]'), makePlayer);
  window.Rowmotion = Object.freeze({ players: Object.freeze(players), applyBatch: applyBatch });
})();
