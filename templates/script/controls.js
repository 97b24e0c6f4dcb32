// A player's controls: the buttons, speed, loop and highlighting, the
// scrubber with its frame steps, the status lines and the timeline of
// snapshots, wired to what the player does (`act`) and shown by `update`.
import { GLYPHS, counts, describe, glyph } from './narration.js';

const SPEEDS = [['0.1', '0.1×'], ['0.25', '0.25×'], ['0.5', '0.5×'], ['1', '1×'], ['2', '2×'], ['uxkit', 'UXKit (0.25 s linear)']];
const ROLE_WORDS = { structure: 'structural', reloads: 'deferred reloads' };

// Builds the controls of the player `element` around its `list`. `act`
// holds what they do: pause, goTo(k), prev, next, togglePlay,
// setSpeed(value), highlight(on), hold(position), frame(delta) and
// current() (the step shown).
export function makeControls(element, list, data, act) {
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
  button('Restart', 'Restart (Home)', function () { act.pause(); act.goTo(0); });
  button('prev', 'Previous step (←)', function () { act.pause(); act.prev(); });
  // Its name says what a press does ("Play", "Pause"): a button whose
  // name changes is not also a toggle (aria-pressed), or a screen reader
  // says "Pause, pressed".
  const playButton = button('play', 'Play (space)', act.togglePlay);
  playButton.classList.add('rowmotion-play');
  button('next', 'Next step (→)', function () { act.pause(); act.next(); });
  const speedSelect = document.createElement('select');
  speedSelect.setAttribute('aria-label', 'Speed');
  SPEEDS.forEach(function (option) {
    const o = document.createElement('option');
    o.value = option[0];
    o.textContent = option[1];
    if (option[0] === '1') o.selected = true;
    speedSelect.appendChild(o);
  });
  speedSelect.addEventListener('change', function () { act.setSpeed(speedSelect.value); });
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
  const movesBox = checkbox('highlight moves', function () {
    act.highlight(movesBox.checked);
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
    const step = data.steps[act.current()];
    if (step) act.hold(Number(scrubber.value) / 1000 * step.batches.length);
  });
  function frameButton(label, title, delta) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', function () {
      if (data.steps[act.current()]) act.frame(delta);
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
  // Every change by name, folded: the narration above sums a long step up.
  const whole = document.createElement('details');
  whole.className = 'rowmotion-narration-all';
  whole.hidden = true;
  const wholeSummary = document.createElement('summary');
  wholeSummary.textContent = 'Every change by name';
  const wholeText = document.createElement('p');
  whole.appendChild(wholeSummary);
  whole.appendChild(wholeText);
  element.appendChild(whole);

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
    mark.addEventListener('click', (function (target) { return function () { act.pause(); act.goTo(target); }; })(k));
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
    act.pause();
    act.goTo(target);
    marks[target].tabIndex = 0;
    marks[target].focus();
  });
  // From any of the player's buttons, ← and → step as they do on the
  // player itself (a range or a menu keeps its own arrows).
  [controls, scrub].forEach(function (group) {
    group.addEventListener('keydown', function (event) {
      if (event.target.tagName !== 'BUTTON' || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
      event.preventDefault();
      act.pause();
      if (event.key === 'ArrowLeft') act.prev(); else act.next();
    });
  });

  // What the scrubber's value means, in words: "Step 2 of 5 (Dave replies),
  // 40 %, batch 1 of 2".
  function describeScrub(current) {
    const step = data.steps[current];
    if (!step) { scrubber.setAttribute('aria-valuetext', 'No next step'); return; }
    let count = step.batches.length, percent = Math.round(Number(scrubber.value) / 10);
    const batch = Math.min(count, Math.floor(Number(scrubber.value) / 1000 * count) + 1);
    const label = data.labels && data.labels[current + 1] ? ' (' + data.labels[current + 1] + ')' : '';
    scrubber.setAttribute('aria-valuetext', 'Step ' + (current + 1) + ' of ' + data.steps.length + label + ', ' + percent + ' %'
      + (count > 1 ? ', batch ' + batch + ' of ' + count : ''));
  }

  // Shows where the player is: `at` is {current, playing, held, on, advice}.
  function update(at) {
    const current = at.current, playing = at.playing;
    const labels = data.labels || [];
    let text;
    if (playing) {
      text = 'Step ' + current + ' → ' + playing.step + ' of ' + data.steps.length + (labels[playing.step] ? ': ' + labels[playing.step] : '');
      batchLine.textContent = 'batch ' + (playing.batch + 1) + ' of ' + playing.count + ': ' +
        (ROLE_WORDS[playing.role] || playing.role || 'structural') + (at.held ? ' (held)' : '');
    } else {
      text = 'Step ' + current + ' of ' + data.steps.length + (labels[current] ? ': ' + labels[current] : '');
      if (at.advice) text += ' — ' + at.advice;
      batchLine.textContent = current < data.steps.length
        ? 'next: ' + data.steps[current].batches.length + (data.steps[current].batches.length === 1 ? ' batch' : ' batches')
        : 'last snapshot';
    }
    status.textContent = text;
    const on = at.on;
    if (playButton.firstChild.getAttribute('data-glyph') !== (on ? 'pause' : 'play')) playButton.replaceChildren(glyph(on ? 'pause' : 'play'));
    playButton.title = on ? 'Pause (space)' : 'Play (space)';
    playButton.setAttribute('aria-label', on ? 'Pause' : 'Play');
    scrubber.disabled = current >= data.steps.length;
    if (!at.held) scrubber.value = '0';
    describeScrub(current);
    marks.forEach(function (mark, k) {
      if (k === current) mark.setAttribute('aria-current', 'step'); else mark.removeAttribute('aria-current');
      // One tab stop for the timeline: the current snapshot's mark.
      mark.tabIndex = k === current ? 0 : -1;
    });
  }

  // What a step does: its summary read out, and every row by name in the
  // fold when the summary left some out (the fold keeps its open state).
  function say(summary, all) {
    live.textContent = summary;
    const folded = !!all && all !== summary;
    whole.hidden = !folded;
    wholeText.textContent = folded ? all : '';
  }

  return {
    controls: controls, scrub: scrub, scrubber: scrubber, speedSelect: speedSelect, loopBox: loopBox, movesBox: movesBox,
    status: status, live: live, snapshots: snapshots, describeScrub: describeScrub, update: update, say: say
  };
}
