// The narration's words for where a row went: counted as people count
// ("the 2nd row"), never "row 2", which reads as the IndexPath(row: 2) the
// Swift calls beside it would write as IndexPath(row: 1) (issue 45, item 12).
import test from 'node:test';
import assert from 'node:assert';
// (The view module asks the window about reduced motion as it loads.)
globalThis.window ??= {};
const { narrate } = await import('../../templates/script/narration.js');

const none = { delete: [], insert: [], move: [], reload: [] };
const rows = (ids) => ids.map((id) => ({ id, fields: [] }));

test('a row moved down is said to reach the 2nd or 3rd row, a row moved up the top', () => {
  const state = [{ id: '', items: rows(['a', 'b', 'c']) }];
  const down = { batches: [{ sections: none, rows: { ...none, move: [[[0, 0], [0, 1]]] } }] };
  assert.strictEqual(narrate(state, down), 'a moved to the 2nd row');
  const further = { batches: [{ sections: none, rows: { ...none, move: [[[0, 0], [0, 2]]] } }] };
  assert.strictEqual(narrate(state, further), 'a moved to the 3rd row');
  const up = { batches: [{ sections: none, rows: { ...none, move: [[[0, 2], [0, 0]]] } }] };
  assert.strictEqual(narrate(state, up), 'c moved to the top');
});

test('ordinals past ten read as English writes them', () => {
  const ids = Array.from({ length: 24 }, (_, k) => 'r' + k);
  const state = [{ id: '', items: rows(ids) }];
  const said = (to) => narrate(state, { batches: [{ sections: none, rows: { ...none, move: [[[0, 0], [0, to]]] } }] });
  assert.strictEqual(said(10), 'r0 moved to the 11th row');
  assert.strictEqual(said(11), 'r0 moved to the 12th row');
  assert.strictEqual(said(12), 'r0 moved to the 13th row');
  assert.strictEqual(said(20), 'r0 moved to the 21st row');
  assert.strictEqual(said(21), 'r0 moved to the 22nd row');
  assert.strictEqual(said(22), 'r0 moved to the 23rd row');
});

test('a step of many moves is summed up: three by name, then how many more (issue 45, item 1)', () => {
  const ids = Array.from({ length: 60 }, (_, k) => 'r' + k);
  const state = [{ id: '', items: rows(ids) }];
  // Every other row of the first 20 moves to the end, one by one.
  const moves = Array.from({ length: 10 }, (_, k) => [[0, 2 * k], [0, 50 + k]]);
  const said = narrate(state, { batches: [{ sections: none, rows: { ...none, move: moves } }] });
  const parts = said.split('; ');
  assert.strictEqual(parts.length, 4, said);
  assert.match(parts[3], /^7 more moved$/);
  assert.ok(said.length < 200, said);
});
