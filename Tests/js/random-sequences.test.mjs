// Two models written apart agree on random input: the player's JavaScript
// model (templates/script/model.js) replays what `rowmotion diff --format json`
// says for seeded random sectioned sequences, and must end every batch in
// that batch's `after` and every step in the snapshot the generator made.
// The model places every reload as UIKit does (deletes and inserts alone, in
// both coordinates), so a batch UIKit would mis-place or reject cannot agree.
//
// ROWMOTION_JS_SEQUENCES (2,000) and ROWMOTION_JS_SEED choose the cases; a
// failure prints the one-line command that replays it. Needs the debug binary.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';

import { root, loadModel } from './player-model.mjs';
const binary = process.env.ROWMOTION_BINARY || path.join(root, '.build', 'debug', 'rowmotion');
const count = Number(process.env.ROWMOTION_JS_SEQUENCES || 2000);
const base = Number(process.env.ROWMOTION_JS_SEED || 20261123);


// ---- A seeded generator (mulberry32), one per sequence ------------------
import seededRandom from './seeded-random.js';
const { generator } = seededRandom;

const clone = (sections) => sections.map((s) => ({ id: s.id, header: s.header, items: s.items.map((r) => ({ ...r })) }));

/// 2 to 4 snapshots of 0 to 6 sections; each step deletes, inserts and moves
/// sections, changes headers, deletes, changes, moves (within, across, out of
/// deleted and into inserted sections) and inserts rows. Half the steps also
/// move a section past others whose rows change: the reloads UIKit places by
/// section deletes and inserts alone.
function randomSequence(seed) {
  const random = generator(seed);
  let serial = 0;
  const row = () => ({ id: `r${++serial}`, t: 'v0' });
  const section = (rows) => ({ id: `s${++serial}`, header: random.chance(0.5) ? `Header ${serial}` : null,
    items: Array.from({ length: rows }, row) });
  let current = Array.from({ length: random.int(0, 6) }, () => section(random.int(0, 5)));
  const snapshots = [clone(current)];
  const facts = new Set();
  for (let step = random.int(1, 3); step > 0; step--) {
    const intensity = random.next() * 0.5;
    const happens = () => random.chance(intensity);
    let next = clone(current);
    const deleted = next.filter(() => happens());
    if (deleted.length) facts.add('section delete');
    next = next.filter((s) => !deleted.includes(s));
    for (let k = random.int(0, 2); k > 0; k--) {
      if (happens() || next.length === 0) {
        next.splice(random.int(0, next.length), 0, section(random.int(0, 3)));
        facts.add('section insert');
      }
    }
    for (let k = random.int(0, 2); k > 0 && next.length > 1; k--) {
      if (!happens()) continue;
      const [moved] = next.splice(random.int(0, next.length - 1), 1);
      next.splice(random.int(0, next.length), 0, moved);
    }
    for (const s of next) {
      if (happens()) { s.header = `Changed ${serial++}`; facts.add('header change'); }
      s.items = s.items.filter(() => !happens());
      for (const r of s.items) if (happens()) { r.t = `v${serial++}`; facts.add('content change'); }
    }
    if (next.length > 1 && random.chance(0.5)) {
      // On purpose: one section jumps over others whose rows change.
      const from = random.int(0, next.length - 1);
      let to = random.int(0, next.length - 2);
      if (to >= from) to += 1;
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved);
      for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
        if (next[i] === moved) continue;
        for (const r of next[i].items) if (random.chance(0.5)) { r.t = `v${serial++}`; facts.add('displaced reload'); }
      }
    }
    if (next.length > 0) {
      const movers = deleted.flatMap((s) => s.items).filter(() => happens());
      for (const s of next) {
        const kept = [];
        for (const r of s.items) (happens() ? movers : kept).push(r);
        s.items = kept;
      }
      if (movers.length) facts.add('row changes section');
      for (const r of movers) {
        const target = random.pick(next);
        target.items.splice(random.int(0, target.items.length), 0, r);
      }
      for (const s of next) {
        for (let k = random.int(0, 2); k > 0; k--) if (happens()) s.items.splice(random.int(0, s.items.length), 0, row());
      }
    }
    const before = current.map((s) => s.id).filter((id) => next.some((s) => s.id === id));
    const after = next.map((s) => s.id).filter((id) => before.includes(id));
    if (before.join() !== after.join()) facts.add('section move');
    snapshots.push(next);
    current = clone(next);
  }
  return { snapshots, facts };
}

function sequenceFile(snapshots, seed) {
  return JSON.stringify({
    title: `random sequence ${seed}`,
    steps: snapshots.map((sections) => ({
      sections: sections.map((s) => Object.assign({ id: s.id }, s.header === null ? {} : { header: s.header },
        { items: s.items.map((r) => ({ id: r.id, t: r.t })) })),
    })),
  });
}

function diff(file) {
  return new Promise((resolve, reject) => {
    execFile(binary, ['diff', file, '--format', 'json'], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file}: ${stderr || error.message}`)); else resolve(JSON.parse(stdout));
    });
  });
}

/// Runs `work` on every item, `width` at a time.
async function pool(items, width, work) {
  const results = new Array(items.length);
  let index = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (index < items.length) {
      const mine = index++;
      results[mine] = await work(items[mine], mine);
    }
  }));
  return results;
}

// A slot the model could not fill shows as null.
const idsOf = (state) => state.map((s) => ({ id: s.id, items: s.items.map((r) => (r ? r.id : null)) }));
const modelSection = (layout) => ({ id: layout.id, header: null, footer: null,
  items: layout.items.map((id) => ({ id, fields: [] })) });

/// The model's input for one batch of the JSON report: new cells come from
/// the data source after the batch (UIKit asks it for them), a reloaded
/// section's from where the data source holds it.
function modelBatch(batch, state) {
  const fresh = batch.sections.insert.concat(batch.sections.reload.map((old) =>
    batch.after.findIndex((s) => s.id === state[old].id))).sort((x, y) => x - y);
  return {
    sections: batch.sections, rows: batch.rows,
    insertedRows: batch.rows.insert.map((p) => ({ id: batch.after[p[0]].items[p[1]], fields: [] })),
    reloadedRows: [],
    newSections: fresh.map((index) => modelSection(batch.after[index])),
  };
}

/// What is wrong with the engine's report for one sequence, per the model.
function disagreements(model, snapshots, report) {
  const problems = [];
  let state = snapshots[0].map((s) => modelSection({ id: s.id, items: s.items.map((r) => r.id) }));
  report.steps.forEach((step, k) => {
    if (step.diagnostics.length) problems.push(`step ${k + 1}: the engine's own validator says ${step.diagnostics}`);
    step.batches.forEach((batch, n) => {
      state = model.applyBatch(state, modelBatch(batch, state));
      try {
        assert.deepStrictEqual(idsOf(state), batch.after);
      } catch {
        problems.push(`step ${k + 1}, batch ${n + 1}: the model ends in ${JSON.stringify(idsOf(state))}, the batch's after is ${JSON.stringify(batch.after)}`);
      }
    });
    const target = snapshots[k + 1].map((s) => ({ id: s.id, items: s.items.map((r) => r.id) }));
    try {
      assert.deepStrictEqual(idsOf(state), target);
    } catch {
      problems.push(`step ${k + 1}: the model ends in ${JSON.stringify(idsOf(state))}, the snapshot is ${JSON.stringify(target)}`);
    }
    state = snapshots[k + 1].map((s) => modelSection({ id: s.id, items: s.items.map((r) => r.id) }));
  });
  return problems;
}

test(`the player's model replays the engine on ${count} random sectioned sequences (seed ${base})`, async () => {
  const model = loadModel();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'rowmotion-random-'));
  try {
    const cases = Array.from({ length: count }, (_, i) => {
      const seed = base + i;
      const { snapshots, facts } = randomSequence(seed);
      const file = path.join(folder, `sequence-${seed}.json`);
      fs.writeFileSync(file, sequenceFile(snapshots, seed));
      return { seed, file, snapshots, facts };
    });
    const width = Math.max(2, os.cpus().length * 2);
    const failures = (await pool(cases, width, async (c) => {
      let problems;
      try {
        problems = disagreements(model, c.snapshots, await diff(c.file));
      } catch (error) {
        problems = [`replaying threw ${error.stack || error}`];
      }
      return problems.length ? `seed ${c.seed} (replay: ROWMOTION_JS_SEED=${c.seed} ROWMOTION_JS_SEQUENCES=1 node --test Tests/js): ${problems.join('; ')}` : null;
    })).filter(Boolean);
    assert.deepStrictEqual(failures.slice(0, 5), []);

    // The generator must keep producing every situation, or this proves less than it says.
    if (count >= 2000) {
      const seen = {};
      for (const c of cases) for (const fact of c.facts) seen[fact] = (seen[fact] || 0) + 1;
      for (const fact of ['section delete', 'section insert', 'section move', 'header change', 'content change',
        'row changes section', 'displaced reload']) {
        assert.ok((seen[fact] || 0) >= 100, `only ${seen[fact] || 0} sequences with ${fact}: ${JSON.stringify(seen)}`);
      }
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
