// Random call sequences, run in the page by test_call_fuzz.py: for each seed,
// a player (or a pane of a linked group) gets 3 to 9 calls — next, prev,
// goTo, play, pause, speed changes, clicks on the timeline and the buttons,
// keys — at random delays; then everything is paused and left to settle, and
// `step`, `state()`, the DOM (order and geometry), the timeline mark and
// every linked pane must agree with the snapshot the Swift side reports.
// Returns the failures, each with its seed and calls.
const [indexes, expected, seeds, done] = arguments;
const players = indexes.map((i) => window.Rowmotion.players[i]);

// generator(seed): Tests/js/seeded-random.js, put before this script.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Where a player's controls are: its own, or, for a pane of a strategy
// comparison, the one set the comparison shows above its panes.
function controlsOf(player) {
  const group = player.element.closest('[data-rowmotion-compare="strategies"]');
  return group ? group.querySelector('.rowmotion-shared-controls') : player.element;
}

function act(random, player, log) {
  const count = player.stepCount;
  const buttons = controlsOf(player).querySelectorAll('.rowmotion-controls button');
  const kind = random.pick(['next', 'next', 'prev', 'goTo', 'play', 'pause', 'speed', 'mark', 'button', 'key']);
  switch (kind) {
    case 'next': log.push('next()'); player.next(); break;
    case 'prev': log.push('prev()'); player.prev(); break;
    case 'goTo': { const k = random.int(-1, count); log.push(`goTo(${k})`); player.goTo(k); break; }
    case 'play': log.push('play()'); player.play(); break;
    case 'pause': log.push('pause()'); player.pause(); break;
    case 'speed': {
      const select = controlsOf(player).querySelector('.rowmotion-controls select');
      const option = random.pick(Array.from(select.options)).value;
      log.push(`speed ${option}`);
      select.value = option;
      select.dispatchEvent(new Event('change'));
      break;
    }
    case 'mark': {
      const marks = controlsOf(player).querySelectorAll('.rowmotion-timeline button');
      const k = random.int(0, marks.length - 1);
      log.push(`click mark ${k}`);
      marks[k].click();
      break;
    }
    case 'button': {
      const k = random.int(0, buttons.length - 1);
      log.push(`click ${buttons[k].getAttribute('aria-label')}`);
      buttons[k].click();
      break;
    }
    default: {
      const key = random.pick(['ArrowRight', 'ArrowLeft', 'Home', ' ']);
      log.push(`key ${JSON.stringify(key)}`);
      player.element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    }
  }
}

function geometryProblems(player) {
  const problems = [];
  const container = player.element.querySelector('.rowmotion-sections');
  // A virtual list places the run of rows in sight by their tops: each
  // starts where the one before it ends.
  if (container.querySelector('[data-virtual]')) {
    container.querySelectorAll('.rowmotion-section[data-virtual]').forEach((section) => {
      let end = null;
      section.querySelectorAll(':scope > [data-item-id]').forEach((row) => {
        const rect = row.getBoundingClientRect();
        if (end !== null && Math.abs(rect.top - end) > 1) problems.push(`${row.textContent.slice(0, 20)} starts ${(rect.top - end).toFixed(1)} px from the row before it`);
        end = rect.bottom;
      });
    });
    return problems;
  }
  const box = container.getBoundingClientRect();
  let y = 0;
  container.querySelectorAll(':scope > .rowmotion-content > .rowmotion-section > *').forEach((part) => {
    const rect = part.getBoundingClientRect();
    if (Math.abs(rect.top - box.top - y) > 1) problems.push(`${part.textContent.slice(0, 20)} at ${(rect.top - box.top).toFixed(1)}, expected ${y.toFixed(1)}`);
    y = rect.bottom - box.top;
  });
  if (Math.abs(box.height - y) > 1) problems.push(`content height ${box.height}, parts end at ${y}`);
  return problems;
}

(async () => {
  const failures = [];
  for (const seed of seeds) {
    const random = generator(seed);
    for (const p of players) { await p.goTo(0); }
    const log = [];
    const calls = random.int(3, 9);
    for (let i = 0; i < calls; i++) {
      act(random, random.pick(players), log);
      await sleep(random.int(0, 150));
    }
    await Promise.all(players.map((p) => p.pause()));
    // Settled: nothing playing, no animation, no copy left, for 2 frames.
    const deadline = performance.now() + 15000;
    while (performance.now() < deadline) {
      const busy = players.some((p) => p.element.hasAttribute('data-playing-batch') ||
        p.element.querySelector('.rowmotion-ghost') || p.element.querySelector('.rowmotion-sections').getAnimations({ subtree: true }).length);
      if (!busy) break;
      await sleep(50);
      await Promise.all(players.map((p) => p.pause()));
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const problems = [];
    const step = players[0].step;
    for (const p of players) {
      if (p.step !== step) problems.push(`panes disagree: step ${p.step} vs ${step}`);
      if (!same(p.state(), expected[p.step])) problems.push(`step ${p.step}: state ${JSON.stringify(p.state())} is not the snapshot ${JSON.stringify(expected[p.step])}`);
      if (p.element.getAttribute('data-current-step') !== String(p.step)) problems.push(`data-current-step ${p.element.getAttribute('data-current-step')} vs step ${p.step}`);
      const mark = controlsOf(p).querySelector('.rowmotion-timeline button[aria-current]');
      if (!mark || mark.textContent !== String(p.step)) problems.push(`timeline marks ${mark && mark.textContent} vs step ${p.step}`);
      if (p.element.querySelector('.rowmotion-ghost')) problems.push('a leaving copy is left');
      if (p.element.querySelector('.rowmotion-sections').getAnimations({ subtree: true }).length) problems.push('animations still running');
      problems.push(...geometryProblems(p));
    }
    if (problems.length) failures.push({ seed, calls: log, problems: problems.slice(0, 4) });
    if (failures.length >= 5) break;
  }
  done(failures);
})().catch((error) => done([{ seed: null, calls: [], problems: [String(error.stack)] }]));
