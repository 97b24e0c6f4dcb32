// The model for collection views (templates/script/model.js): a flow
// layout's frames, UICollectionView's appearing and disappearing items
// (their own frames, alpha 0: initialLayoutAttributesForAppearingItem(at:),
// finalLayoutAttributesForDisappearingItem(at:)), reflowed items gliding in
// two dimensions, a reconfigured item keeping its cell, an orthogonal
// line's sideways scroll and scroll anchoring. Expected numbers are worked
// out by hand from the contract (DESIGN.md), not from the model's helpers.
import test from 'node:test';
import assert from 'node:assert';
import { loadModel } from './player-model.mjs';

const { model } = loadModel();
const WIDTH = 332, SPACING = 8, HEADER = 30;
// Three columns: (332 - 16 - 16) / 3 = 100 points a tile.
const GRID = { layout: 'grid', columns: 3 };
const row = (id) => ({ id, fields: [['title', id]] });
const grid = (ids, header = null) => [{ id: 's', header, footer: null, items: ids.map(row) }];
const heights = (state) => state.map(() => ({ header: HEADER, rows: [], footer: 0 }));
const geometry = (state, kind = GRID, scrollX = 0) => ({ width: WIDTH, spacing: SPACING, sections: state.map(() => Object.assign({ scrollX }, kind)) });
const layOut = (state, kind, scrollX) => model.layout(state, heights(state), geometry(state, kind, scrollX));
const batchOf = (rows) => ({ sections: { delete: [], insert: [], move: [], reload: [] },
  rows: Object.assign({ delete: [], insert: [], move: [], reload: [] }, rows), insertedRows: (rows.insert || []).map((p) => row('new' + p[1])),
  reloadedRows: (rows.reload || []).map((p) => row('again' + p[1])), newSections: [] });

function plan(state, batch) {
  const traced = model.trace(state, batch);
  return model.timeline({ trace: traced, before: layOut(state), after: layOut(traced.state), styles: { insert: 'left', delete: 'right', reload: 'fade' },
    width: WIDTH, collection: true });
}
const at = (part, p) => model.sample(part.frames, p);

test('a grid lays item k out at column k mod columns, line k div columns, under its header', () => {
  const laid = layOut(grid(['a', 'b', 'c', 'd', 'e'], 'H'));
  assert.deepStrictEqual(laid.sections[0].rows.map((r) => [r.x, r.y, r.w, r.h]),
    [[8, 38, 100, 100], [116, 38, 100, 100], [224, 38, 100, 100], [8, 146, 100, 100], [116, 146, 100, 100]]);
  // Header, the spacing, two lines and the spacing between them, the bottom inset.
  assert.strictEqual(laid.height, 30 + 8 + 100 + 8 + 100 + 8);
});

test('an orthogonal line puts every item on one line, a quarter of the next peeking in, and scrolls sideways', () => {
  // Two to the width: (332 - 16 - 8) / 2.25 = 136.89 a card, 3:4.
  const laid = layOut(grid(['a', 'b', 'c']), { layout: 'orthogonal', columns: 2 }, 50);
  const w = 308 / 2.25;
  laid.sections[0].rows.forEach((r, k) => {
    assert.ok(Math.abs(r.x - (8 + k * (w + 8) - 50)) < 1e-9 && r.y === 8 && Math.abs(r.w - w) < 1e-9 && Math.abs(r.h - w * 0.75) < 1e-9);
  });
});

test('an inserted item fades in at its final frame, and the items after it reflow in two dimensions', () => {
  const t = plan(grid(['a', 'b', 'c']), batchOf({ insert: [[0, 0]] }));
  const inserted = t.parts.find((p) => p.role === 'insert');
  assert.strictEqual(inserted.style, 'fade', 'a collection view has no row animations: "left" is not used');
  for (const p of [0, 0.5, 1]) assert.deepStrictEqual([at(inserted, p).x, at(inserted, p).y, at(inserted, p).opacity], [8, 8, p]);
  // c goes from the end of line 1 to the start of line 2, straight.
  const c = t.parts.find((p) => p.side === 'new' && p.r === 3);
  assert.deepStrictEqual([at(c, 0).x, at(c, 0).y], [224, 8]);
  assert.deepStrictEqual([at(c, 0.5).x, at(c, 0.5).y], [116, 62]);
  assert.deepStrictEqual([at(c, 1).x, at(c, 1).y], [8, 116]);
});

test('a deleted item fades out at its initial frame; nothing slides to close the gap before the others glide', () => {
  const t = plan(grid(['a', 'b', 'c', 'd']), batchOf({ delete: [[0, 1]] }));
  const gone = t.parts.find((p) => p.role === 'delete');
  for (const p of [0, 0.5, 1]) assert.deepStrictEqual([at(gone, p).x, at(gone, p).y, at(gone, p).opacity], [116, 8, 1 - p]);
});

test('a reload in a collection view reconfigures the item: no leaving copy, its cell glides where it goes', () => {
  const t = plan(grid(['a', 'b', 'c']), batchOf({ delete: [[0, 0]], reload: [[0, 2]] }));
  assert.deepStrictEqual(t.parts.filter((p) => p.role === 'reload-old'), []);
  const kept = t.parts.find((p) => p.role === 'reload-new');
  assert.deepStrictEqual([at(kept, 0).x, at(kept, 1).x, at(kept, 0.5).opacity], [224, 116, 1]);
});

test('an orthogonal line scrolls to its change when none is in sight, and each layout clamps it to its content', () => {
  const kind = { layout: 'orthogonal', columns: 2 }, w = 308 / 2.25, pitch = w + 8;
  // Five cards: content 16 + 5w + 32 wide; the last deleted while the line is at 0.
  const most5 = 16 + 5 * w + 4 * 8 - WIDTH, most4 = 16 + 4 * w + 3 * 8 - WIDTH;
  const scroll = model.sidewaysScroll(kind, WIDTH, 8, 5, 4, 0, [4], []);
  assert.ok(Math.abs(scroll.before - Math.min(most5, 4 * pitch)) < 1e-9 && Math.abs(scroll.after - most4) < 1e-9);
  // A change in sight: the line stays where it is.
  assert.deepStrictEqual(model.sidewaysScroll(kind, WIDTH, 8, 5, 5, 0, [], [0]), { before: 0, after: 0 });
});

test('a disappearing card of an orthogonal line rides with the line as it scrolls back', () => {
  const kind = { layout: 'orthogonal', columns: 2 };
  const state = grid(['a', 'b', 'c']);
  const traced = model.trace(state, batchOf({ delete: [[0, 2]] }));
  const before = model.layout(state, heights(state), geometry(state, kind, 100));
  const after = model.layout(traced.state, heights(traced.state), geometry(traced.state, kind, 40));
  const t = model.timeline({ trace: traced, before, after, styles: { insert: 'fade', delete: 'fade', reload: 'fade' }, width: WIDTH, collection: true });
  const gone = t.parts.find((p) => p.role === 'delete');
  const x0 = before.sections[0].rows[2].x;
  assert.deepStrictEqual([at(gone, 0).x, at(gone, 0.5).x, at(gone, 1).x], [x0, x0 + 30, x0 + 60]);
});

test('anchoring keeps the first item in sight where it is; a deleted anchor falls back to the nearest survivor; at the top nothing moves', () => {
  const list = (ids) => [{ id: 's', header: null, footer: null, items: ids.map(row) }];
  const h = (state) => state.map((s) => ({ header: 0, rows: s.items.map(() => 40), footer: 0 }));
  const anchor = (from, batch, top) => {
    const traced = model.trace(list(from), batch);
    return model.anchorShift(traced, model.layout(list(from), h(list(from))), model.layout(traced.state, h(traced.state)), top, 0);
  };
  // Two rows inserted above what is seen (from 100: c is first in sight): down by 80.
  assert.strictEqual(anchor(['a', 'b', 'c', 'd', 'e'], batchOf({ insert: [[0, 0], [0, 1]] }), 100), 80);
  // c, the first in sight, deleted with a above it: d, the nearest
  // survivor below, anchors; it goes from 120 to 40, so up by 80.
  assert.strictEqual(anchor(['a', 'b', 'c', 'd', 'e'], batchOf({ delete: [[0, 0], [0, 2]] }), 100), -80);
  // At the top: the inserted row is seen arriving.
  assert.strictEqual(anchor(['a', 'b'], batchOf({ insert: [[0, 0]] }), 0), 0);
});
