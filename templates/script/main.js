// The page: every player, linked comparisons, search, the navigation's
// scroll position; the one global, window.Rowmotion.
import { applyBatch, model } from './model.js';
import { internals, makePlayer } from './player.js';
import { search, setUpSearch } from './search.js';

Array.prototype.forEach.call(document.querySelectorAll('form[data-rowmotion-search]'), setUpSearch);

// The sidebar scrolls on its own: bring the current page's entry into
// view (a third of the way down), without scrolling the page.
const siteNav = typeof document.querySelector === 'function' ? document.querySelector('.site-nav') : null;
const currentEntry = siteNav && siteNav.querySelector('[aria-current="page"]');
if (currentEntry && siteNav.scrollHeight > siteNav.clientHeight) {
  const offset = currentEntry.getBoundingClientRect().top - siteNav.getBoundingClientRect().top + siteNav.scrollTop;
  siteNav.scrollTop = Math.max(0, offset - siteNav.clientHeight / 3);
}

// Content that scrolls sideways (wide tables) can be scrolled from the keyboard.
document.querySelectorAll('main table').forEach(function (table) {
  if (table.scrollWidth > table.clientWidth + 1 && !table.hasAttribute('tabindex')) {
    table.tabIndex = 0;
    table.setAttribute('role', 'region');
    table.setAttribute('aria-label', 'Table (scrolls sideways)');
  }
});

// The review page: each filmstrip scrolls the frame it outlines (the
// first step that animates differently) to its middle.
document.querySelectorAll('.filmstrip-mark').forEach(function (mark) {
  const box = mark.closest('.filmstrip-scroll');
  if (box) box.scrollLeft = Math.max(0, mark.offsetLeft - (box.clientWidth - mark.offsetWidth) / 2);
});

const players = Array.prototype.map.call(document.querySelectorAll('[data-rowmotion-player]'), makePlayer);
// A strategy comparison's panes follow whichever one is driven, the same
// way: a queued step queues in every pane, a jump jumps every pane.
// A baseline comparison (changes.html) links its two players alike; the
// one with fewer steps stops at its last.
// A strategy comparison shows one set of controls, above its panes: the
// first pane's, which drive the rest (speed, holding and highlighting
// too); only that pane announces steps.
document.querySelectorAll('[data-rowmotion-compare="strategies"], [data-rowmotion-compare="baseline"]').forEach(function (group) {
  const panes = players.filter(p => group.contains(p.element));
  let following = false;
  function follow(event, act) {
    if (following) return;
    following = true;
    try {
      panes.forEach(function (p) { if (p.element !== event.target) act(internals.get(p.element), p); });
    } finally {
      following = false;
    }
  }
  group.addEventListener('rowmotion:goto', function (event) {
    follow(event, function (inner, p) { inner.goTo(Math.min(event.detail.step, p.stepCount - 1), event.detail.queued); });
  });
  if (group.getAttribute('data-rowmotion-compare') !== 'strategies' || !panes.length) return;
  group.addEventListener('rowmotion:control', function (event) {
    follow(event, function (inner) { inner.control(event.detail.kind, event.detail.value); });
  });
  const shared = document.createElement('div');
  shared.className = 'rowmotion-shared-controls';
  shared.setAttribute('role', 'group');
  shared.setAttribute('aria-label', 'Controls for all ' + panes.length + ' panes');
  internals.get(panes[0].element).sharedParts.forEach(function (part) { shared.appendChild(part); });
  group.insertBefore(shared, group.firstChild);
  panes.slice(1).forEach(function (p) {
    const inner = internals.get(p.element);
    inner.sharedParts.forEach(function (part) { part.remove(); });
    inner.live.removeAttribute('aria-live');
  });
});
window.Rowmotion = Object.freeze({ players: Object.freeze(players), applyBatch: applyBatch, model: model, search: search });
