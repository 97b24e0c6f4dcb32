// A player: its controls, timing and stepping, driving the motion of its
// list (motion.js) a batch at a time.
import { applyBatch, cssEasing, spring } from './model.js';
import { makeMotion, makeSurface, relayout, showScrolling, showState } from './motion.js';
import { counts, narrate } from './narration.js';
import { linkCalls } from './calls.js';
import { makeControls } from './controls.js';

function readData(element) {
  const script = element.querySelector('script.rowmotion-data');
  return JSON.parse(script.textContent);
}
let BASE_DURATION = 300, UXKIT_DURATION = 250, PAUSE_BETWEEN_STEPS = 600;
export const internals = new WeakMap();

function within(value, low, high) { return typeof value === 'number' && isFinite(value) && value >= low && value <= high; }

export function makePlayer(element) {
  const data = readData(element);
  if (data.cell && element.getAttribute('data-cell') !== data.cell) element.setAttribute('data-cell', data.cell);
  // The reloadData() pane of a strategy comparison jumps, as reloadData does.
  const jumps = element.getAttribute('data-strategy') === 'reloadData';
  const list = element.querySelector('.rowmotion-list');
  const surface = makeSurface(list, data.presentation, data.initial);
  showScrolling(element, list);
  const states = [surface.shown ? surface.shown.state : []];
  let timer = null, current = 0, pending = 0, speed = 1, linear = false;
  let chain = Promise.resolve(), generation = 0;
  const motion = makeMotion(element, list, surface, data);
  let held = null;      // {step, batch, fraction} while scrubbing

  function stateAt(n) {
    while (states.length <= n) {
      let k = states.length - 1;
      states.push(data.steps[k].batches.reduce(applyBatch, states[k]));
    }
    return states[n];
  }
  // The list's frame is as tall as the tallest snapshot (motion.js).
  surface.snapshots = function (n) { return n <= data.steps.length ? stateAt(n) : null; };

  // The sequence's own timing (`duration:`, `spring:`), else UIKit's 0.3 s
  // ease-in-out; the UXKit speed choice is 0.25 s linear whatever it says.
  // The data may come from a baseline report: numbers are checked here.
  const framing = data.presentation || {};
  const ownDuration = within(framing.duration, 0.05, 10) ? framing.duration * 1000 : BASE_DURATION;
  const ownSpring = framing.spring && within(framing.spring.damping, 0.05, 1)
    ? spring(framing.spring.damping, within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0, ownDuration / 1000) : null;
  const ownEasing = ownSpring ? cssEasing(ownSpring) : 'ease-in-out';
  const springValues = ownSpring ? { damping: framing.spring.damping, velocity: within(framing.spring.velocity, -50, 50) ? framing.spring.velocity : 0 } : null;
  if (within(framing.height, 120, 4000)) element.style.setProperty('--rowmotion-height', framing.height + 'px');
  if (within(framing.width, 240, 2000)) element.style.setProperty('--rowmotion-width', framing.width + 'px');
  if (['grouped', 'insetGrouped'].indexOf(framing.style) >= 0) element.setAttribute('data-table-style', framing.style);

  // How a batch plays now: its timing, its pace, whether it is held.
  function playing_() { return { held: !!held, speed: speed, timing: timing(), spring: springValues }; }

  function timing() {
    if (linear) return { duration: UXKIT_DURATION, easing: 'linear', fill: 'both' };
    return { duration: ownDuration, easing: ownEasing, fill: 'both', curve: ownSpring };
  }

  function clearMarks() {
    surface.container.querySelectorAll('[data-change],[data-changed]').forEach(function (node) {
      node.removeAttribute('data-change');
      node.removeAttribute('data-changed');
    });
  }

  function settle(target) {
    current = target;
    surface.shown.state = stateAt(target); // the same rows, as the step's own state
    element.setAttribute('data-current-step', String(target));
    if (element === document.querySelector('[data-rowmotion-player]')) {
      document.querySelectorAll('.step-list > li[id^="step-"]').forEach(function (item) {
        if (item.id === 'step-' + target) item.setAttribute('aria-current', 'step'); else item.removeAttribute('aria-current');
      });
    }
    playing = null;
    updateControls();
    return player;
  }

  let playing = null; // {step, batch, count, role} while a step animates

  // One step forward, batch after batch; anything else jumps.
  function run(target, token) {
    if (token !== generation) return Promise.resolve(player);
    clearMarks();
    showCompare(target);
    const skipped = target === current + 1 && !jumps ? skipReason(current) : '';
    element.removeAttribute('data-shown-at-once');
    if (target === current + 1 && !jumps && !skipped) {
      const step = data.steps[current];
      const from = current;
      // A stopped batch left its own state on screen: start from the step's.
      if (surface.shown.state !== stateAt(from)) showState(surface, stateAt(from));
      tellStep(from);
      let sequence = Promise.resolve();
      step.batches.forEach(function (batch, n) {
        sequence = sequence.then(function () {
          if (token !== generation) return;
          playing = { step: target, batch: n, count: step.batches.length, role: batch.role };
          updateControls();
          return motion.play(batch, { step: target, batch: n, count: step.batches.length }, step.changedFields || {}, playing_());
        });
      });
      return sequence.then(function () {
        if (token === generation) settle(target);
        return player;
      });
    }
    showState(surface, stateAt(target));
    settle(target);
    if (skipped) element.setAttribute('data-shown-at-once', '');
    if (skipped) tellStep(target - 1, '; ' + skipped);
    else announce('Snapshot ' + target + ' of ' + data.steps.length + ((data.labels || [])[target] ? ': ' + data.labels[target] : ''));
    return Promise.resolve(player);
  }

  // `skipAnimation:` a step that changes more than that share of the items
  // is shown at once, as an app would call reloadData() (SwiftDataTables
  // animates only below its threshold); the reason, in words, or ''.
  function skipReason(k) {
    const share = framing.skipAnimation;
    if (!within(share, 0, 1) || !data.steps[k]) return '';
    const c = counts(data.steps[k]);
    const changes = c.insert + c.delete + c.move + c.reload;
    const items = Math.max(1, Math.max(itemCount(stateAt(k)), itemCount(stateAt(k + 1))));
    if (changes / items <= share) return '';
    return 'shown at once, without animation: ' + changes + ' changes to ' + items + ' items, more than ' + Math.round(share * 100) + ' % (skipAnimation)';
  }
  function itemCount(state) { return state.reduce((sum, section) => sum + section.items.length, 0); }

  // One rule for superseding: next() waits behind the queue; goTo() and
  // prev() cancel it, and a cancelled step never touches the DOM again.
  function goTo(n, queued) {
    let target = Math.max(0, Math.min(data.steps.length, Math.floor(Number(n)) || 0));
    element.dispatchEvent(new CustomEvent('rowmotion:goto', { bubbles: true, detail: { step: target, queued: !!queued } }));
    pending = target;
    if (queued && !held) {
      const queuedToken = generation;
      chain = chain.then(() => run(target, queuedToken));
      return chain;
    }
    generation += 1;
    held = null;
    element.removeAttribute('data-held');
    motion.stop();
    playing = null;
    const token = generation;
    chain = run(target, token);
    return chain;
  }

  // ---- Scrubbing: hold a step's animation at any moment ------------------------
  // The slider runs over the batches of the step after the current one.
  function holdAt(position) {
    const step = data.steps[current];
    if (!step) return;
    pauseTimer();
    const count = step.batches.length;
    position = Math.max(0, Math.min(count, position));
    tell('hold', position / count);
    let index = Math.min(count - 1, Math.floor(position)), local = position - index;
    if (!held || held.batch !== index || !motion.running) {
      generation += 1;
      motion.stop();
      pending = current;
      showState(surface, stateAt(current));
      // reloadData() has no in-between: its pane shows the step's new
      // state at once, wherever the step is held.
      showCompare(current + 1);
      // Held, the words say the step being held (they said the step before it).
      if (!held || held.step !== current + 1) tellStep(current);
      held = { step: current + 1, batch: index, position: position };
      element.setAttribute('data-held', '');
      let state = stateAt(current);
      for (let k = 0; k < index; k++) { state = applyBatch(state, step.batches[k]); showState(surface, state); }
      playing = { step: current + 1, batch: index, count: count, role: step.batches[index].role };
      const promise = motion.play(step.batches[index], { step: current + 1, batch: index, count: count }, step.changedFields || {}, playing_());
      chain = promise.then(() => player);
    }
    held.position = position;
    if (motion.running) {
      const t = timing();
      motion.running.animations.forEach(function (animation) { animation.pause(); animation.currentTime = local * t.duration; });
    }
    parts.scrubber.value = String(Math.round(position / count * 1000));
    parts.describeScrub(current);
    updateControls();
  }

  function heldFraction() { return held ? held.position : 0; }

  const parts = makeControls(element, list, data, {
    pause: () => player.pause(), goTo: k => player.goTo(k), prev: () => player.prev(), next: () => player.next(),
    togglePlay: () => { if (timer) player.pause(); else player.play(); },
    setSpeed: value => setSpeed(value), highlight: on => highlightMoves(on), hold: position => holdAt(position),
    frame: delta => holdAt(heldFraction() + delta * (1000 / 60) / timing().duration),
    current: () => current
  });

  function highlightMoves(on) {
    parts.movesBox.checked = on;
    if (on) element.setAttribute('data-highlight-moves', ''); else element.removeAttribute('data-highlight-moves');
    tell('highlight', on);
  }
  function announce(text) { parts.say(text); }
  // What the step from snapshot k does, summed up, and whole in the fold.
  function tellStep(k, after) {
    const step = data.steps[k];
    parts.say(narrate(stateAt(k), step, framing) + (after || ''), narrate(stateAt(k), step, framing, true) + (after || ''));
  }

  // Panes that follow this one (a strategy comparison) hear what its
  // controls change: speed, a held moment (as a fraction of the step,
  // since panes may split a step into different batches), highlighting.
  function tell(kind, value) {
    element.dispatchEvent(new CustomEvent('rowmotion:control', { bubbles: true, detail: { kind: kind, value: value } }));
  }

  function setSpeed(value) {
    tell('speed', value);
    linear = value === 'uxkit';
    speed = linear ? 1 : Number(value) || 1;
    if (parts.speedSelect.value !== value) parts.speedSelect.value = value;
    // The batch already playing changes pace too.
    if (motion.running) motion.running.animations.forEach(function (animation) { animation.playbackRate = speed; });
  }

  // The "reloadData" pane jumps to each state when a step starts, beside
  // the animated list, so the two can be watched side by side.
  let compare = null;
  if (element.getAttribute('data-compare') === 'reloadData') {
    const sideBySide = document.createElement('div');
    sideBySide.className = 'rowmotion-side-by-side';
    const column = function (text) {
      const wrap = document.createElement('div');
      wrap.className = 'rowmotion-compare';
      const caption = document.createElement('p');
      caption.className = 'rowmotion-compare-caption';
      caption.textContent = text;
      wrap.appendChild(caption);
      sideBySide.appendChild(wrap);
      return wrap;
    };
    // At a phone's width the panes take turns in one place (the second
    // was below the fold): a switch between them, shown there only.
    const chooser = document.createElement('div');
    chooser.className = 'rowmotion-pane-switch';
    chooser.setAttribute('role', 'group');
    chooser.setAttribute('aria-label', 'Which pane to show');
    ['performBatchUpdates', 'reloadData()'].forEach(function (name, k) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = name;
      button.setAttribute('aria-pressed', k === 0 ? 'true' : 'false');
      button.addEventListener('click', function () {
        sideBySide.setAttribute('data-showing', String(k));
        chooser.querySelectorAll('button').forEach(function (other, j) { other.setAttribute('aria-pressed', j === k ? 'true' : 'false'); });
      });
      chooser.appendChild(button);
    });
    sideBySide.setAttribute('data-showing', '0');
    list.parentNode.insertBefore(chooser, list);
    list.parentNode.insertBefore(sideBySide, list);
    column('performBatchUpdates').appendChild(list);
    const pane = document.createElement('div');
    pane.className = 'rowmotion-list rowmotion-compare-list';
    pane.setAttribute('data-compare-pane', '');
    pane.setAttribute('role', 'group');
    pane.setAttribute('aria-label', 'The same steps with reloadData()');
    column('reloadData()').appendChild(pane);
    compare = makeSurface(pane, data.presentation, data.initial);
    compare.snapshots = surface.snapshots;
    // A data table's pane has its column titles too.
    const titles = surface.container.querySelector(':scope > .rowmotion-columns');
    if (titles) compare.container.insertBefore(titles.cloneNode(true), compare.container.firstChild);
  }

  function showCompare(target) {
    if (compare) showState(compare, stateAt(target));
  }

  function updateControls() {
    parts.update({ current: current, playing: playing, held: !!held, on: !!timer, advice: playing ? '' : adviceFor(current) });
  }

  // When animating is the wrong choice (as SwiftDataTables advises).
  function adviceFor(k) {
    if (k === 0) return 'first load: show it with reloadData(), not an animation';
    if (skipReason(k - 1)) return skipReason(k - 1);
    const c = counts(data.steps[k - 1]);
    let total = c.insert + c.delete + c.move + c.reload;
    const rows = stateAt(k - 1).reduce((sum, section) => sum + section.items.length, 0);
    if (total > 1000) return total + ' changes: reloadData() would serve better than an animation';
    // A short list reads fine even when most of it changes; a long one does not.
    if (rows >= 20 && total > rows / 2) return 'more than half the rows change: consider reloadData()';
    return '';
  }

  element.tabIndex = 0;
  const title = (data.title || data.example || 'list') + '';
  element.setAttribute('aria-label', 'Animated list: ' + title + ' (' + (data.steps.length + 1) + ' snapshots)');
  element.setAttribute('aria-keyshortcuts', 'Space ArrowLeft ArrowRight Home');
  // The list scrolls from the keyboard with Page Up/Down, and with the
  // arrows once it has focus itself (the player's keys act on the figure).
  list.tabIndex = 0;
  list.setAttribute('role', 'group');
  list.setAttribute('aria-label', 'Rows of ' + title);
  element.addEventListener('keydown', function (event) {
    if (event.target !== element) return;
    let handled = true;
    switch (event.key) {
      case ' ': if (timer) player.pause(); else player.play(); break;
      case 'ArrowLeft': player.pause(); player.prev(); break;
      case 'ArrowRight': player.pause(); player.next(); break;
      case 'Home': player.pause(); player.goTo(0); break;
      case 'PageDown': list.scrollTop += list.clientHeight * 0.9; break;
      case 'PageUp': list.scrollTop -= list.clientHeight * 0.9; break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  function pauseTimer() {
    if (timer !== null && timer !== true) clearTimeout(timer);
    timer = null;
  }

  const player = {
    element: element,
    stepCount: data.steps.length + 1,
    get step() { return current; },
    goTo: n => goTo(n, false),
    // Counted from where the queue will be, so quick presses add up.
    next: () => goTo(pending + 1, true),
    prev: () => goTo(pending - 1, false),
    play: function () {
      if (timer) return chain;
      return new Promise(function (resolve) {
        timer = true;
        updateControls();
        (function advance() {
          if (!timer) { resolve(player); return; }
          if (current >= data.steps.length && pending >= data.steps.length) {
            if (!parts.loopBox.checked) { timer = null; updateControls(); resolve(player); return; }
            goTo(0, false);
          }
          goTo(pending + 1, true).then(function () {
            if (!timer) { resolve(player); return; }
            timer = setTimeout(advance, PAUSE_BETWEEN_STEPS / speed);
          });
        })();
      });
    },
    pause: function () {
      pauseTimer();
      updateControls();
      if (held) return Promise.resolve(player);
      return chain.then(() => player);
    },
    // Additions to the contract, for reviewing: speed, and holding a step's
    // animation at a position (0 to its batch count).
    setSpeed: function (value) { setSpeed(String(value)); return player; },
    hold: function (position) { holdAt(Number(position) || 0); return player; },
    state: function () {
      // A virtual grid has elements for what is in sight only: its state is the shown one.
      if (surface.virtual && surface.shown) return surface.shown.state.map(section => ({ id: section.id, items: section.items.map(item => item.id) }));
      return Array.prototype.map.call(surface.container.querySelectorAll(':scope > [data-section-id]'), function (section) {
        return {
          id: section.getAttribute('data-section-id'),
          items: Array.prototype.map.call(section.querySelectorAll(':scope > [data-item-id]'), function (row) {
            return row.getAttribute('data-item-id');
          })
        };
      });
    }
  };
  linkCalls(element, list, data, stateAt, () => held ? held.step : Math.max(1, current));

  internals.set(element, {
    goTo: goTo,
    control: function (kind, value) {
      if (kind === 'speed') setSpeed(value);
      else if (kind === 'highlight') highlightMoves(value);
      else if (kind === 'hold' && data.steps[current]) holdAt(value * data.steps[current].batches.length);
    },
    // The parts a strategy comparison shows once, for all its panes.
    sharedParts: [parts.controls, parts.scrub, parts.status, parts.snapshots],
    live: parts.live
  });
  let start = Number(element.getAttribute('data-step')) || 0;
  const hash = /^#step-(\d+)$/.exec(window.location.hash || '');
  if (hash && element === document.querySelector('[data-rowmotion-player]')) start = Number(hash[1]);
  current = pending = Math.min(start, data.steps.length);
  showState(surface, stateAt(current), true);
  showCompare(current);
  settle(current);
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(function () {
      // Unmeasured, the list is measured after the first frame at
      // whatever width it has then; measuring here would lay every row
      // out a second time in the first frame.
      if (!motion.running && surface.shown && surface.shown.laid && surface.frame.clientWidth !== surface.width) relayout(surface);
      if (compare && compare.frame.clientWidth !== compare.width) relayout(compare);
    }).observe(list);
  }
  if (element.hasAttribute('data-autoplay')) player.play();
  return Object.freeze(player);
}
