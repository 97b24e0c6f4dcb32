// The player's timeline model (templates/script/model.js, window.Rowmotion.model)
// against what UIKit draws, worked out by hand from ../shared/uikit-rules.md's
// row animation styles and from UIKit's observed behaviour: every expected
// number below is written out, not computed by the model's own helpers.
import test from 'node:test';
import assert from 'node:assert';
import { loadModel } from './player-model.mjs';

const { model } = loadModel();
const ROW = 40, HEADER = 30, FOOTER = 20, WIDTH = 300;

const row = (id) => ({ id, fields: [['title', id]] });
const section = (id, ids, header = null, footer = null) => ({ id, header, footer, items: ids.map(row) });
const heightsOf = (state) => state.map((s) => ({ header: HEADER, rows: s.items.map(() => ROW), footer: FOOTER }));
const batchOf = (parts) => Object.assign({
  sections: Object.assign({ delete: [], insert: [], move: [], reload: [] }, parts.sections || {}),
  rows: Object.assign({ delete: [], insert: [], move: [], reload: [] }, parts.rows || {}),
  insertedRows: [], reloadedRows: [], newSections: [],
}, parts, { sections: Object.assign({ delete: [], insert: [], move: [], reload: [] }, parts.sections || {}),
  rows: Object.assign({ delete: [], insert: [], move: [], reload: [] }, parts.rows || {}) });

function plan(state, batch, styles = {}, viewport = null) {
  const traced = model.trace(state, batch);
  return model.timeline({
    trace: traced, before: model.layout(state, heightsOf(state)), after: model.layout(traced.state, heightsOf(traced.state)),
    styles: Object.assign({ insert: 'fade', delete: 'fade', reload: 'fade' }, styles), width: WIDTH, viewport,
  });
}
const find = (timeline, predicate) => timeline.parts.filter(predicate);
const at = (part, p) => model.sample(part.frames, p);

test('an explicitly moved row is drawn above the rows it passes, and glides in a straight line', () => {
  // Messenger: Carol (row 2) moves to the top past Alice and Bob, who shift down.
  const state = [section('chats', ['alice', 'bob', 'carol'])];
  const t = plan(state, batchOf({ rows: { move: [[[0, 2], [0, 0]]] } }));
  const [carol] = find(t, (p) => p.role === 'move');
  const still = find(t, (p) => p.role === 'stay' && p.type === 'row');
  assert.strictEqual(still.length, 2);
  for (const other of still) assert.ok(carol.z > other.z, `Carol (z ${carol.z}) under a shifting row (z ${other.z})`);
  assert.deepStrictEqual([at(carol, 0).y, at(carol, 0.5).y, at(carol, 1).y], [80, 40, 0]);
  assert.deepStrictEqual([at(still[0], 0).y, at(still[0], 1).y], [0, 40]);
});

test('a row moving into another section passes under that section\'s header, as UITableView draws it', () => {
  // UITableView keeps header and footer views above its cells during batch
  // updates: cells animate under them (FZAccordionTableView issues 7 and 43,
  // STCollapseTableView issue 11, FSQCollectionViewAlignedLayout issue 13).
  // Sections "a" [x, y] and "b" [z]: x moves to the end of "b", past b's header.
  const state = [section('a', ['x', 'y'], 'A'), section('b', ['z'], 'B', 'end of B')];
  const t = plan(state, batchOf({ rows: { move: [[[0, 0], [1, 1]]] } }));
  const [x] = find(t, (p) => p.role === 'move');
  const headers = find(t, (p) => p.type === 'header' || p.type === 'footer');
  assert.strictEqual(headers.length, 3);
  for (const h of headers) assert.ok(h.z > x.z, `the moving row (z ${x.z}) over a ${h.type} (z ${h.z})`);
  // It does pass b's header: from above it to below it.
  const bHeader = headers.find((h) => h.type === 'header' && h.s === 1);
  assert.ok(at(x, 0).y < at(bHeader, 1).y && at(x, 1).y > at(bHeader, 1).y);
  // And still above the rows it passes.
  for (const other of find(t, (p) => p.role === 'stay' && p.type === 'row')) assert.ok(x.z > other.z);
});

test('leaving cells are drawn below arriving ones, and both below rows that stay', () => {
  const state = [section('s', ['a', 'b', 'c'])];
  const t = plan(state, batchOf({ rows: { delete: [[0, 1]], insert: [[0, 1]], reload: [[0, 0]] },
    insertedRows: [row('x')], reloadedRows: [row('a')] }));
  const leaving = find(t, (p) => p.side === 'old');
  const arriving = find(t, (p) => p.role === 'insert' || p.role === 'reload-new');
  const staying = find(t, (p) => p.role === 'stay');
  assert.strictEqual(leaving.length, 2);   // b's cell and a's old cell
  assert.strictEqual(arriving.length, 2);  // x and a's new cell
  for (const l of leaving) for (const a of arriving) assert.ok(l.z < a.z);
  for (const a of arriving) for (const s of staying) assert.ok(a.z < s.z);
});

test('fade: a delete fades out in place while the rows below slide up over it', () => {
  const state = [section('s', ['a', 'b', 'c'])];
  const t = plan(state, batchOf({ rows: { delete: [[0, 0]] } }));
  const [gone] = find(t, (p) => p.role === 'delete');
  assert.deepStrictEqual([at(gone, 0).opacity, at(gone, 0.5).opacity, at(gone, 1).opacity], [1, 0.5, 0]);
  assert.deepStrictEqual([at(gone, 0).y, at(gone, 1).y], [0, 0]);
  const b = find(t, (p) => p.role === 'stay')[0];
  assert.deepStrictEqual([at(b, 0).y, at(b, 0.5).y, at(b, 1).y], [40, 20, 0]);
  assert.ok(b.z > gone.z);
});

test('a leaving or arriving row keeps to its gap while rows above it come and go, as its neighbours do', () => {
  // UIKit gives a deleted cell a target rect in the new layout and an inserted
  // cell a start in the old: the gap after the nearest row above that stays
  // (_UITableViewUpdateSupport's gaps, "start of row after row").
  // Rows a b c d (40 each at 0 40 80 120); a and c deleted: b ends at 0, d at 40.
  const state = [section('s', ['a', 'b', 'c', 'd'])];
  let t = plan(state, batchOf({ rows: { delete: [[0, 0], [0, 2]] } }));
  const [, c] = find(t, (p) => p.role === 'delete');
  // c fades out on its way from 80 to b's new bottom (40), as b goes 40 -> 0.
  assert.deepStrictEqual([at(c, 0).y, at(c, 0.5).y, at(c, 1).y], [80, 60, 40]);
  assert.deepStrictEqual([at(c, 0.5).opacity], [0.5]);
  // With `top` it slides up behind b and stays behind it: it ends at 0, under b.
  t = plan(state, batchOf({ rows: { delete: [[0, 0], [0, 2]] } }), { delete: 'top' });
  const [, cTop] = find(t, (p) => p.role === 'delete');
  assert.deepStrictEqual([at(cTop, 0).y, at(cTop, 0.5).y, at(cTop, 1).y], [80, 40, 0]);
  // Inserting x at 0 and y at 2 of a b (new x a y b at 0 40 80 120): y starts
  // at a's old bottom (40) and comes down with a to 80 while it fades in.
  t = plan([section('s', ['a', 'b'])], batchOf({ rows: { insert: [[0, 0], [0, 2]] }, insertedRows: [row('x'), row('y')] }));
  const [x, y] = find(t, (p) => p.role === 'insert');
  assert.deepStrictEqual([at(x, 0).y, at(x, 1).y], [0, 0]);
  assert.deepStrictEqual([at(y, 0).y, at(y, 0.5).y, at(y, 1).y], [40, 60, 80]);
  // A reload's two cells glide together when a row above is deleted.
  t = plan(state, batchOf({ rows: { delete: [[0, 0]], reload: [[0, 2]] }, reloadedRows: [row('c')] }));
  const [old] = find(t, (p) => p.role === 'reload-old');
  const [fresh] = find(t, (p) => p.role === 'reload-new');
  assert.deepStrictEqual([at(old, 0).y, at(old, 0.5).y, at(old, 1).y], [80, 60, 40]);
  assert.deepStrictEqual([at(fresh, 0).y, at(fresh, 0.5).y, at(fresh, 1).y], [80, 60, 40]);
});

test('a reload is the old cell leaving and the new one arriving: fade crossfades in place', () => {
  const state = [section('s', ['a', 'b'])];
  const t = plan(state, batchOf({ rows: { reload: [[0, 1]] }, reloadedRows: [{ id: 'b', fields: [['title', 'B!']] }] }));
  const [old] = find(t, (p) => p.role === 'reload-old');
  const [fresh] = find(t, (p) => p.role === 'reload-new');
  assert.deepStrictEqual([at(old, 0.5).opacity, at(fresh, 0.5).opacity], [0.5, 0.5]);
  assert.deepStrictEqual([at(old, 0.5).y, at(fresh, 0.5).y], [40, 40]);
  assert.strictEqual(model.trace(state, batchOf({ rows: { reload: [[0, 1]] }, reloadedRows: [{ id: 'b', fields: [['title', 'B!']] }] }))
    .state[0].items[1].fields[0][1], 'B!');
});

test('a reload with the right style sends the old cell out to the right and brings the new one in from it', () => {
  const state = [section('s', ['a'])];
  const t = plan(state, batchOf({ rows: { reload: [[0, 0]] }, reloadedRows: [row('a')] }), { reload: 'right' });
  const [old] = find(t, (p) => p.role === 'reload-old');
  const [fresh] = find(t, (p) => p.role === 'reload-new');
  assert.deepStrictEqual([at(old, 0).x, at(old, 0.5).x, at(old, 1).x], [0, 150, 300]);
  assert.deepStrictEqual([at(fresh, 0).x, at(fresh, 0.5).x, at(fresh, 1).x], [300, 150, 0]);
});

test('top: a delete slides up behind the row above, an insert emerges downward from behind it', () => {
  const state = [section('s', ['a', 'b', 'c'])];
  const del = plan(state, batchOf({ rows: { delete: [[0, 1]] } }), { delete: 'top' });
  const [b] = find(del, (p) => p.role === 'delete');
  const a = find(del, (p) => p.role === 'stay')[0];
  assert.deepStrictEqual([at(b, 0).y, at(b, 0.5).y, at(b, 1).y], [40, 20, 0]);
  assert.strictEqual(at(b, 0.5).opacity, 1, 'top slides, it does not fade');
  assert.ok(b.z < a.z, 'behind the row above');
  const ins = plan(state, batchOf({ rows: { insert: [[0, 1]] }, insertedRows: [row('x')] }), { insert: 'top' });
  const [x] = find(ins, (p) => p.role === 'insert');
  const above = find(ins, (p) => p.role === 'stay')[0];
  assert.deepStrictEqual([at(x, 0).y, at(x, 1).y], [0, 40]);
  assert.ok(x.z < above.z);
});

test('bottom: a delete slides down behind the row below', () => {
  const state = [section('s', ['a', 'b', 'c'])];
  const t = plan(state, batchOf({ rows: { delete: [[0, 1]] } }), { delete: 'bottom' });
  const [b] = find(t, (p) => p.role === 'delete');
  assert.deepStrictEqual([at(b, 0).y, at(b, 1).y], [40, 80]);
  assert.ok(b.z < find(t, (p) => p.role === 'stay')[1].z);
});

test('automatic: bottom at a section\'s start and middle, top for the last row of a section', () => {
  const state = [section('s', ['a', 'b', 'c'])];
  const first = find(plan(state, batchOf({ rows: { delete: [[0, 0]] } }), { delete: 'automatic' }), (p) => p.role === 'delete')[0];
  const last = find(plan(state, batchOf({ rows: { delete: [[0, 2]] } }), { delete: 'automatic' }), (p) => p.role === 'delete')[0];
  // Deleting the last two rows: both are at the section's end once deleted.
  const both = find(plan(state, batchOf({ rows: { delete: [[0, 1], [0, 2]] } }), { delete: 'automatic' }), (p) => p.role === 'delete');
  assert.strictEqual(first.style, 'bottom');
  assert.strictEqual(last.style, 'top');
  assert.deepStrictEqual([at(last, 0).y, at(last, 1).y], [80, 40], 'the last row slides up');
  assert.deepStrictEqual(both.map((p) => p.style), ['top', 'top']);
});

test('middle: revealed from the middle of its growing slot', () => {
  const state = [section('s', ['a', 'b'])];
  const t = plan(state, batchOf({ rows: { insert: [[0, 1]] }, insertedRows: [row('x')] }), { insert: 'middle' });
  const [x] = find(t, (p) => p.role === 'insert');
  // Slot at y 40, height 40: half-way the slot is 20 high, the cell centred in it.
  const half = at(x, 0.5);
  assert.deepStrictEqual([half.y, half.clipTop, half.clipBottom], [30, 10, 10]);
  assert.deepStrictEqual([at(x, 0).clipTop, at(x, 0).clipBottom, at(x, 1).clipTop], [20, 20, 0]);
});

test('none: an insert is there at once, a delete has no leaving cell, and neighbours still slide', () => {
  const state = [section('s', ['a', 'b'])];
  const t = plan(state, batchOf({ rows: { insert: [[0, 0]], delete: [[0, 1]] }, insertedRows: [row('x')] }), { insert: 'none', delete: 'none' });
  const [x] = find(t, (p) => p.role === 'insert');
  assert.strictEqual(at(x, 0).opacity, 1);
  assert.strictEqual(find(t, (p) => p.role === 'delete').length, 0);
  const a = find(t, (p) => p.role === 'stay')[0];
  assert.deepStrictEqual([at(a, 0).y, at(a, 1).y], [0, 40]);
});

test('a deleted section leaves as one block: header, rows and footer, with no copies of its own rows', () => {
  const state = [section('one', ['a'], 'One', 'end'), section('two', ['b', 'c'], 'Two', 'end')];
  const t = plan(state, batchOf({ sections: { delete: [1] } }), { delete: 'automatic' });
  const leaving = find(t, (p) => p.side === 'old');
  assert.deepStrictEqual(leaving.map((p) => p.type), ['header', 'row', 'row', 'footer']);
  assert.ok(leaving.every((p) => p.unit === 'section' && p.style === 'top'), 'the last section slides up as a block');
  // The block (30 + 80 + 20 = 130 high, at y 90) moves up by its height; its rows go with it.
  const [header, b] = leaving;
  assert.deepStrictEqual([at(header, 0).y, at(header, 1).y, at(b, 0).y, at(b, 1).y], [90, -40, 120, -10]);
});

test('deleting the last section is seen: the list keeps its height while the block is visible', () => {
  const state = [section('one', ['a']), section('two', ['b'])];
  const t = plan(state, batchOf({ sections: { delete: [1] } }), { delete: 'fade' });
  assert.strictEqual(t.from, 80);
  assert.strictEqual(t.to, 40);
  // The fading block (y 40 to 80) keeps the list 80 high until it has gone.
  assert.strictEqual(model.sampleHeight(t.height, 0.5), 80);
  assert.strictEqual(model.sampleHeight(t.height, 1), 40);
});

test('the list\'s height follows the two layouts when nothing leaves below', () => {
  const state = [section('s', ['a'])];
  const t = plan(state, batchOf({ rows: { insert: [[0, 1], [0, 2]] }, insertedRows: [row('x'), row('y')] }));
  assert.deepStrictEqual([0, 0.25, 0.5, 1].map((p) => model.sampleHeight(t.height, p)), [40, 60, 80, 120]);
});

test('rows off-screen before and after do not animate, as UIKit has no cell for them', () => {
  const ids = Array.from({ length: 100 }, (_, i) => `r${i}`);
  const state = [section('s', ids)];
  // Row 90 moves to 95 while the list shows its top 200 px.
  const t = plan(state, batchOf({ rows: { move: [[[0, 90], [0, 95]]], delete: [[0, 50]], insert: [[0, 1]] }, insertedRows: [row('x')] }),
    {}, { top: 0, maxHeight: 200 });
  const moved = find(t, (p) => p.role === 'move')[0];
  assert.strictEqual(moved.animated, false);
  assert.deepStrictEqual([at(moved, 0).y, at(moved, 1).y], [95 * 40, 95 * 40]);
  assert.strictEqual(find(t, (p) => p.role === 'delete').length, 0, 'row 50 (y 2000) leaves unseen');
  assert.ok(find(t, (p) => p.animated).length < 10);
});

test('a long deleted section leaves copies only of the parts whose path crosses the screen', () => {
  // Section "long" (header 30, rows at y 100 + 40 i) between a one-row section
  // (70 high) and another long one; the list shows y 4,000 to 4,200 before and
  // after (the list stays long).
  const ids = (prefix) => Array.from({ length: 1000 }, (_, i) => `${prefix}${i}`);
  const state = [section('one', ['a'], 'One'), section('long', ids('r'), 'Long'), section('tail', ids('t'), 'Tail')];
  const deleteLong = batchOf({ sections: { delete: [1] } });
  const fading = plan(state, deleteLong, { delete: 'fade' }, { top: 4000, maxHeight: 200 });
  // Fade keeps every part in place: row 97 (y 3,980 .. 4,020) to row 102
  // (y 4,180 .. 4,220) are on screen; nothing else of the section is copied.
  assert.deepStrictEqual(find(fading, (p) => p.side === 'old').map((p) => p.r), [97, 98, 99, 100, 101, 102]);
  // Top slides the block up by its height (40,030): a row's path runs from
  // y - 40,030 to y + 40, so rows 97 to 999 pass the screen; the header
  // (y 70) and rows above 97 never reach it.
  const sliding = plan(state, deleteLong, { delete: 'top' }, { top: 4000, maxHeight: 200 });
  const old = find(sliding, (p) => p.side === 'old');
  assert.ok(old.every((p) => p.type === 'row'), 'the header never reaches the screen');
  assert.deepStrictEqual([old.length, old[0].r, old[old.length - 1].r], [903, 97, 999]);
});

test('a reload lands where deletes and inserts alone put it, in the batch it belongs to', () => {
  // A row moves up past the reloaded one: the reload keeps its index (rule 19).
  const state = [section('s', ['a', 'b', 'c'])];
  const batch = batchOf({ rows: { reload: [[0, 1]], delete: [[0, 0]] }, reloadedRows: [{ id: 'b', fields: [['title', 'B2']] }] });
  const traced = model.trace(state, batch);
  assert.deepStrictEqual(traced.state[0].items.map((r) => r.fields[0][1]), ['B2', 'c']);
  assert.deepStrictEqual(traced.rows[0].map((r) => r.how), ['reload', 'stay']);
  assert.deepStrictEqual(traced.leftRows, [{ how: 'delete', from: [0, 0] }, { how: 'reload', from: [0, 1] }]);
});

test('ease-in-out is CSS\'s cubic-bezier(.42, 0, .58, 1)', () => {
  assert.strictEqual(model.ease('ease-in-out', 0.5).toFixed(4), '0.5000');
  assert.ok(Math.abs(model.ease('ease-in-out', 0.25) - 0.1291) < 0.001);
  assert.strictEqual(model.ease('linear', 0.3), 0.3);
});

// Issue 29, item 1: the change must be in sight before a batch plays.
function scrollFor(state, batch, top, maxHeight) {
  const traced = model.trace(state, batch);
  return model.scrollForChanges(traced, model.layout(state, heightsOf(state)), model.layout(traced.state, heightsOf(traced.state)),
    { top, maxHeight });
}

test('a section deleted below the fold scrolls the list to a quarter above it; one in sight does not scroll', () => {
  // Three sections of three rows: each 30 + 120 + 20 = 170 tall; the list shows 200.
  const state = [section('a', ['a1', 'a2', 'a3'], 'A', 'a'), section('b', ['b1', 'b2', 'b3'], 'B', 'b'), section('c', ['c1', 'c2', 'c3'], 'C', 'c')];
  // Section c starts at 340: 340 - 200 / 4 = 290, and the old list (510 tall) scrolls to 310 at most.
  assert.strictEqual(scrollFor(state, batchOf({ sections: { delete: [2] } }), 0, 200), 290);
  // Row b1 (at 200 in the old list) is half in sight from 50: no scroll.
  assert.strictEqual(scrollFor(state, batchOf({ rows: { delete: [[1, 0]] } }), 50, 200), null);
  // A row inserted at the top while scrolled to the bottom: back to 0.
  assert.strictEqual(scrollFor(state, batchOf({ rows: { insert: [[0, 0]] }, insertedRows: [row('a0')] }), 310, 200), 0);
  // A list that does not scroll never moves.
  assert.strictEqual(scrollFor(state, batchOf({ sections: { delete: [2] } }), 0, 1000), null);
});

test('a spring of damping 1 starts at its velocity and never passes its end; under 1 it overshoots', () => {
  const critical = model.spring(1, 0, 0.5), bouncy = model.spring(0.3, 0, 0.5);
  let previous = 0;
  for (let k = 1; k <= 100; k++) {
    const x = critical(k / 100);
    assert.ok(x >= previous - 1e-9 && x <= 1 + 1e-9, `not monotone at ${k}: ${x}`);
    previous = x;
  }
  assert.ok(Math.max(...Array.from({ length: 99 }, (_, k) => bouncy((k + 1) / 100))) > 1.2);
  // Velocity 2 (two distances per second) at the start: slope of x over seconds.
  const pushed = model.spring(1, 2, 0.5);
  assert.ok(Math.abs(pushed(0.0001) / (0.0001 * 0.5) - 2) < 0.05);
  assert.strictEqual(critical(1), 1);
});

test('a leaving cell that reaches past the taller layout and comes back is never cut off in between', () => {
  // Found by `make fuzz` (frames, seed 20261262): a tall row deleted from a
  // section that a section inserted above pushes down. Its bottom passes
  // the taller layout's edge mid-way; the list's height, drawn straight
  // between sampled moments, dipped under it by 1.4 px until the moment
  // it crosses was sampled too. A property of the plan rather than numbers
  // written out: the keyframes are read straight (linear between offsets,
  // as the browser draws them), not through the model's own sampling.
  // test_frames.py checks the same seed on the page's real geometry.
  const straight = (frames, p, field) => {
    for (let k = 1; k < frames.length; k++) {
      const a = frames[k - 1], b = frames[k];
      if (p <= b.offset) return b.offset === a.offset ? b[field] : a[field] + (b[field] - a[field]) * (p - a.offset) / (b.offset - a.offset);
    }
    return frames[frames.length - 1][field];
  };
  const tall = { r1: 40, r3: 100, r4: 20, r6: 40, r7: 40, r8: 40 };
  const heights = (state) => state.map((s) => ({ header: 0, rows: s.items.map((item) => tall[item.id]), footer: 0 }));
  const state = [section('s0', ['r1', 'r3'])];
  const batch = batchOf({
    sections: { insert: [0] }, rows: { delete: [[0, 1]], insert: [[1, 1]] },
    insertedRows: [row('r4')], newSections: [section('new5', ['r6', 'r7', 'r8'])],
  });
  for (const style of ['right', 'left', 'fade', 'bottom', 'top', 'middle', 'automatic']) {
    const traced = model.trace(state, batch);
    const t = model.timeline({
      trace: traced, before: model.layout(state, heights(state)), after: model.layout(traced.state, heights(traced.state)),
      styles: { insert: 'fade', delete: style, reload: 'fade' }, width: WIDTH, viewport: null,
    });
    const ceiling = Math.max(t.from, t.to);
    for (let k = 0; k <= 1000; k++) {
      const p = k / 1000;
      for (const part of t.parts.filter((part) => part.side === 'old')) {
        const [y, h, opacity, clipTop, clipBottom] = ['y', 'h', 'opacity', 'clipTop', 'clipBottom'].map((field) => straight(part.frames, p, field));
        if (!(opacity > 0 && h - clipTop - clipBottom > 0)) continue;
        const needed = Math.min(ceiling, y + h - clipBottom);
        const drawn = straight(t.height, p, 'h');
        assert.ok(drawn >= needed - 1e-6, `${style}: at ${p} the list is ${drawn.toFixed(2)} high, the leaving cell reaches ${needed.toFixed(2)}`);
      }
    }
  }
});

test('in plain style a header scrolled past stays pinned at the top through a batch (issue 45, item 2)', () => {
  // One section of 10 rows under a 30 pt header, scrolled 120 pt into it:
  // the header is pinned at 120 before and after a row is inserted at the
  // end, and never drawn at its layout place (0, off screen).
  const ids = Array.from({ length: 10 }, (_, k) => 'r' + k);
  const state = [section('s', ids, 'Header')];
  const traced = model.trace(state, batchOf({ rows: { insert: [[0, 10]] } }));
  const options = {
    trace: traced, before: model.layout(state, heightsOf(state)), after: model.layout(traced.state, heightsOf(traced.state)),
    styles: { insert: 'fade', delete: 'fade', reload: 'fade' }, width: WIDTH, viewport: { top: 120, maxHeight: 200 },
  };
  const pinnedPlan = model.timeline(Object.assign({ pinHeaders: true }, options));
  const [header] = find(pinnedPlan, (p) => p.type === 'header');
  assert.deepStrictEqual([at(header, 0).y, at(header, 0.5).y, at(header, 1).y], [120, 120, 120]);
  // Grouped style (no pinning): where the layout puts it.
  const [free] = find(model.timeline(options), (p) => p.type === 'header');
  assert.deepStrictEqual([at(free, 0).y, at(free, 1).y], [0, 0]);
  // Not scrolled: at its own place.
  const top = model.timeline(Object.assign({}, options, { pinHeaders: true, viewport: { top: 0, maxHeight: 200 } }));
  assert.deepStrictEqual([at(find(top, (p) => p.type === 'header')[0], 0).y], [0]);
});
