// The player's model (templates/script/model.js) must replay every batch to
// exactly the state the Swift engine says the data source holds after it
// (`rowmotion diff --format json`). Needs the strict site that `make test`
// builds into .build/strict-site and the debug binary.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import { root, loadModel } from './player-model.mjs';
const site = process.env.ROWMOTION_SITE || path.join(root, '.build', 'strict-site');
const binary = process.env.ROWMOTION_BINARY || path.join(root, '.build', 'debug', 'rowmotion');


function pageData(file) {
  const html = fs.readFileSync(file, 'utf8');
  const match = html.match(/<script type="application\/json" class="rowmotion-data">([\s\S]*?)<\/script>/);
  assert.ok(match, `no player data in ${file}`);
  return JSON.parse(match[1]);
}

// The first snapshot as the page shows it (the player adopts these rows):
// section and row ids in document order, up to the player's data.
function pageRows(file) {
  const html = fs.readFileSync(file, 'utf8');
  const list = html.slice(html.indexOf('class="rowmotion-list"'), html.indexOf('class="rowmotion-data"'));
  const decode = (text) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]);
  const state = [];
  for (const match of list.matchAll(/data-(section|item)-id="([^"]*)"/g)) {
    if (match[1] === 'section') state.push({ id: decode(match[2]), header: null, footer: null, items: [] });
    else state[state.length - 1].items.push({ id: decode(match[2]), fields: [] });
  }
  return state;
}

const ids = (state) => state.map((section) => ({ id: section.id, items: section.items.map((row) => row.id) }));

const pages = fs.existsSync(path.join(site, 'examples'))
  ? fs.readdirSync(path.join(site, 'examples')).filter((name) => name.endsWith('.html')).sort()
  : [];

test('the strict site has example pages to check', () => {
  assert.ok(pages.length >= 11, `found ${pages.length} example pages in ${site}`);
});

for (const page of pages) {
  test(`model replays ${page} to the engine's states`, () => {
    const model = loadModel();
    const data = pageData(path.join(site, 'examples', page));
    const expected = JSON.parse(execFileSync(binary, ['diff', path.join('examples', data.example), '--format', 'json'],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));
    assert.strictEqual(data.steps.length, expected.steps.length);
    // (A virtual list's or grid's page shows its first rows only: its data holds the first snapshot.)
    let state = data.initial || pageRows(path.join(site, 'examples', page));
    data.steps.forEach((step, k) => {
      assert.strictEqual(step.batches.length, expected.steps[k].batches.length, `step ${k + 1}: batch count`);
      step.batches.forEach((batch, n) => {
        state = model.applyBatch(state, batch);
        assert.deepStrictEqual(ids(state), expected.steps[k].batches[n].after, `step ${k + 1}, batch ${n + 1}`);
      });
    });
  });
}

test('applyBatch leaves its input untouched', () => {
  const model = loadModel();
  const initial = [{ id: 's', header: null, footer: null, items: [{ id: 'a', fields: [] }, { id: 'b', fields: [] }] }];
  const copy = JSON.parse(JSON.stringify(initial));
  const batch = {
    sections: { delete: [], insert: [], move: [], reload: [] },
    rows: { delete: [[0, 0]], insert: [], move: [], reload: [] },
    insertedRows: [], reloadedRows: [], newSections: [],
  };
  assert.deepStrictEqual(ids(model.applyBatch(initial, batch)), [{ id: 's', items: ['b'] }]);
  assert.deepStrictEqual(initial, copy);
});
