// The search box's ranking (templates/script/search.js, Rowmotion.search) over
// an index shaped like the one the build writes (search-index.js).
import test from 'node:test';
import assert from 'node:assert';
import { loadModel } from './player-model.mjs';

const { search } = loadModel();
const index = [
  { t: 'Getting started', u: 'getting-started.html', h: [['Install', 'install'], ['First build', 'first-build']],
    x: 'Install the tool, then run make site to build the pages.' },
  { t: 'Batch updates', u: 'guide/batches.html', h: [['Moves and reloads', 'moves-and-reloads']],
    x: 'A reload of a moved row waits for a second batch.' },
  { t: 'Reload rules', u: 'guide/reloads.html', h: [],
    x: 'UIKit rejects a reload of a row that also moves.' },
];

test('every word must match somewhere; titles outrank text', () => {
  const results = search(index, 'reload', 10);
  assert.deepStrictEqual(results.map((r) => r.url), ['guide/reloads.html', 'guide/batches.html#moves-and-reloads']);
  assert.deepStrictEqual(search(index, 'reload install', 10), []);
});

test('a heading match links to its section, case-insensitively', () => {
  const [first] = search(index, 'FIRST build', 10);
  assert.strictEqual(first.url, 'getting-started.html#first-build');
  assert.strictEqual(first.section, 'First build');
});

test('snippets come from around the first word; empty queries find nothing', () => {
  const [result] = search(index, 'second', 10);
  assert.match(result.snippet, /second batch/);
  assert.deepStrictEqual(search(index, '   ', 10), []);
  assert.strictEqual(search(index, 'a', 2).length, 2);
});

test('an address that reads as a scheme is still a path (issue 28, item 10)', () => {
  const hostile = [{ t: 'Trap', u: 'javascript:window.__pwned=1;0.html', h: [['Part', 'part']], x: 'trap' },
                   { t: 'Fine', u: 'guide/a:b.html', h: [], x: 'fine' }];
  assert.strictEqual(search(hostile, 'trap', 10)[0].url, './javascript:window.__pwned=1;0.html');
  assert.strictEqual(search(hostile, 'part', 10)[0].url, './javascript:window.__pwned=1;0.html#part');
  assert.strictEqual(search(hostile, 'fine', 10)[0].url, 'guide/a:b.html');
});
