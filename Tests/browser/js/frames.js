// Frame checks, run in the page by test_frames.py: holds batch `batch` of
// step `step` of player `index` at each fraction of its duration (every
// animation paused, `currentTime` set) and reports what is wrong at each,
// against the player's timeline model and against what the page showed
// before the step (rows must start where they were, and end where a
// settled step puts them). Returns {problems: [...], checked: n}.
const [index, step, batchIndex, fractions, done] = arguments;
const player = window.Rowmotion.players[index];
// Written here, not borrowed from the player: CSS's ease-in-out
// (cubic-bezier(.42, 0, .58, 1)) solved by bisection, and keyframes read the
// way Web Animations interpolates them (linearly between offsets).
function easeInOut(t) {
  const bezier = (a, b, u) => 3 * a * u * (1 - u) ** 2 + 3 * b * u * u * (1 - u) + u ** 3;
  let low = 0, high = 1;
  for (let i = 0; i < 50; i++) { const mid = (low + high) / 2; if (bezier(0.42, 0.58, mid) < t) low = mid; else high = mid; }
  return bezier(0, 1, (low + high) / 2);
}
const progressAt = (easing, t) => (easing === 'linear' ? t : easeInOut(t));
function frameAt(frames, p) {
  let k = frames.findIndex((frame) => frame.offset >= p);
  if (k <= 0) return frames[Math.max(0, k === -1 ? frames.length - 1 : 0)];
  const a = frames[k - 1], b = frames[k], f = (p - a.offset) / (b.offset - a.offset || 1);
  const at = {};
  for (const name of ['x', 'y', 'h', 'opacity', 'clipTop', 'clipBottom']) at[name] = a[name] + (b[name] - a[name]) * f;
  return at;
}
const heightAt = (height, p) => frameAt(height.map((f) => ({ offset: f.offset, h: f.h, x: 0, y: 0, opacity: 1, clipTop: 0, clipBottom: 0 })), p).h;
const element = player.element;
const list = element.querySelector('.rowmotion-list');
const container = element.querySelector('.rowmotion-sections');
const problems = [];
const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;
const say = (f, text) => problems.push(`step ${step} batch ${batchIndex + 1} at ${Math.round(f * 100)}%: ${text}`);

// Top and bottom insets of a computed clip-path (CSS shortens inset() lists).
function clipOf(value) {
  if (value === 'none') return { top: 0, bottom: 0 };
  const m = /^inset\(([^)]*)\)$/.exec(value);
  if (!m) return null;
  const v = m[1].trim().split(/\s+/).map(parseFloat);
  return { top: v[0], bottom: v.length >= 3 ? v[2] : v[0] };
}

function rowsNow() {
  const map = new Map();
  container.querySelectorAll('[data-item-id]').forEach((el) => map.set(el, el.getBoundingClientRect().top - container.getBoundingClientRect().top));
  return map;
}

element.setAttribute('data-rowmotion-inspect', '');
// Leaving copies take no pointer events in the page; for hit-testing here
// they must, or elementFromPoint would look through them.
if (!document.getElementById('frames-hit-test')) {
  const style = document.head.appendChild(document.createElement('style'));
  style.id = 'frames-hit-test';
  style.textContent = '.rowmotion-ghost { pointer-events: auto !important; }';
}
const scrollTop = list.scrollTop;
player.goTo(step - 1).then(() => { try {
  list.scrollTop = scrollTop;
  if (!element.hasAttribute('data-keep-page-scroll')) element.scrollIntoView({ block: 'start' });
  const startHeight = container.getBoundingClientRect().height;
  let detail = null;
  const listen = (event) => { if (event.detail.batch === batchIndex) detail = event.detail; };
  element.addEventListener('rowmotion:batch', listen);
  const beforeHold = batchIndex > 0 ? null : rowsNow();
  player.hold(batchIndex);
  element.removeEventListener('rowmotion:batch', listen);
  if (!detail) { done({ problems: ['no rowmotion:batch event for the batch'], checked: 0 }); return; }
  const plan = detail.timeline;
  const animations = element.getAnimations ? container.getAnimations({ subtree: true }) : [];
  const parts = plan.parts.map((part, k) => ({ part, k, el: container.querySelector(`[data-rowmotion-part="${k}"]`) }));
  // (A virtual list keeps cells only for what is in sight: a part the batch never shows has none.)
  const virtual = !!container.querySelector('[data-virtual]');
  parts.filter((p) => !p.el && (p.part.shown || !virtual)).forEach((p) => say(0, `part ${p.k} (${p.part.role} ${p.part.type}) has no element`));
  let checked = 0;
  for (const f of fractions) {
    animations.forEach((a) => { a.pause(); a.currentTime = f * detail.duration; });
    const progress = progressAt(detail.easing, f);
    const box = container.getBoundingClientRect();
    const frame = list.getBoundingClientRect();
    // The list's height: the model's, between the two layouts.
    const wantHeight = heightAt(plan.height, progress);
    if (!near(box.height, wantHeight, 1)) say(f, `content height ${box.height}, model ${wantHeight}`);
    if (box.height < Math.min(plan.from, plan.to) - 1 || box.height > Math.max(plan.from, plan.to) + 1) {
      say(f, `content height ${box.height} outside the two layouts ${plan.from}..${plan.to}`);
    }
    if (f === 0 && beforeHold && !near(box.height, startHeight, 1)) say(f, `the list's height jumps at t = 0: ${startHeight} -> ${box.height}`);
    // A list whose content fits before and after never shows a scrollbar
    // mid-way (nothing a batch draws reaches past the content's height).
    const maxHeight = parseFloat(getComputedStyle(list).maxHeight);
    if (Math.max(plan.from, plan.to) < (isFinite(maxHeight) ? maxHeight : Infinity) - 1 && list.scrollHeight > list.clientHeight + 1) {
      say(f, `the list scrolls (${list.scrollHeight} in ${list.clientHeight}) although its content fits`);
    }
    for (const { part, k, el } of parts) {
      if (!el) continue;
      checked += 1;
      const want = frameAt(part.frames, progress);
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // x from the part's own place: an inset grouped cell sits 16 px in (a grid
      // section's header reaches over its inset with a negative margin: at 0).
      const y = rect.top - box.top, x = rect.left - box.left - Math.max(0, parseFloat(style.marginLeft));
      const label = `${part.role} ${part.type} "${el.textContent.slice(0, 24)}"`;
      if (!near(y, want.y, 1)) say(f, `${label} at y ${y.toFixed(1)}, model ${want.y.toFixed(1)}`);
      if (!near(x, want.x, 1)) say(f, `${label} at x ${x.toFixed(1)}, model ${want.x.toFixed(1)}`);
      if (!near(Number(style.opacity), want.opacity, 0.02)) say(f, `${label} opacity ${style.opacity}, model ${want.opacity.toFixed(2)}`);
      if (part.animated && f < 1 && Number(style.zIndex) !== part.z) say(f, `${label} z-index ${style.zIndex}, model ${part.z}`);
      if (part.style === 'middle') {
        const clip = clipOf(style.clipPath);
        if (!clip || !near(clip.top, want.clipTop, 1) || !near(clip.bottom, want.clipBottom, 1)) say(f, `${label} clip ${style.clipPath}, model ${want.clipTop} ${want.clipBottom}`);
      }
      // A row that stays or moves starts exactly where the page showed it.
      if (f === 0 && beforeHold && (part.role === 'stay' || part.role === 'move') && part.animated && beforeHold.has(el) && !near(y, beforeHold.get(el), 1)) {
        say(f, `${label} jumps at t = 0 from ${beforeHold.get(el).toFixed(1)} to ${y.toFixed(1)}`);
      }
      const visible = want.opacity > 0.02 && rect.height - want.clipTop - want.clipBottom > 1;
      const centre = { x: rect.left + rect.width / 2, y: rect.top + want.clipTop + (rect.height - want.clipTop - want.clipBottom) / 2 };
      const inFrame = centre.y > frame.top + 1 && centre.y < frame.bottom - 1 && centre.x > frame.left && centre.x < frame.right &&
        centre.y > 0 && centre.y < window.innerHeight;
      // A leaving cell is not cut off while it can be seen.
      // (Below the taller of the two layouts the list's edge is the "row
      // below" a bottom-sliding cell goes behind.)
      const shrunk = box.height < Math.max(plan.from, plan.to) - 1;
      if (part.side === 'old' && visible && shrunk && f < 1 && rect.top + want.clipTop < frame.bottom - 1) {
        if (rect.bottom - want.clipBottom > box.bottom + 1) say(f, `${label} is cut off by the list's bottom (${(rect.bottom - box.bottom).toFixed(1)} px)`);
      }
      // Painting order is the model's: what covers a part's centre is the
      // part itself or one the model draws above it (a row that stays is
      // never under a section sliding away behind it).
      if (visible && inFrame && f > 0 && f < 1) {
        const top = document.elementFromPoint(centre.x, centre.y);
        const owner = top && top.closest('[data-rowmotion-part]');
        const other = owner && owner !== el ? plan.parts[Number(owner.getAttribute('data-rowmotion-part'))] : null;
        if (other && other.z < part.z) say(f, `${label} (z ${part.z}) is drawn under ${other.role} ${other.type} "${owner.textContent.slice(0, 24)}" (z ${other.z})`);
      }
      // A row an explicit move carries is drawn above everything it passes.
      if (part.role === 'move' && part.animated && part.type === 'row' && el.hasAttribute('data-moving') && visible && inFrame && f > 0 && f < 1) {
        const top = document.elementFromPoint(centre.x, centre.y);
        const owner = top && top.closest('[data-rowmotion-part]');
        if (owner !== el) {
          const other = owner ? plan.parts[Number(owner.getAttribute('data-rowmotion-part'))] : null;
          if (!other || other.z < part.z) say(f, `${label} is hidden under ${owner ? owner.textContent.slice(0, 24) : (top ? top.tagName : 'nothing')}`);
        }
      }
    }
    // A reload crossfades: old and new content both partly shown mid-way.
    if (f === 0.5) {
      for (const { part, el } of parts) {
        // (A reloaded section's rows are new cells: only its header and footer pair up.)
        if (!el || part.role !== 'reload-old' || part.style !== 'fade' || (part.unit === 'section' && part.type === 'row')) continue;
        const partner = parts.find((p) => p.el && p.part.role === 'reload-new' && p.part.type === part.type && p.part.from &&
          p.part.from[0] === part.s && p.part.from[1] === part.r);
        if (partner && !partner.part.animated) continue;
        const o = Number(getComputedStyle(el).opacity);
        if (!(o > 0.05 && o < 0.95)) say(f, `a reload's old cell is at opacity ${o} mid-way`);
        if (!partner) say(f, 'a reload has no arriving cell');
        else {
          const n = Number(getComputedStyle(partner.el).opacity);
          if (!(n > 0.05 && n < 0.95)) say(f, `a reload's new cell is at opacity ${n} mid-way`);
        }
      }
    }
  }
  done({ problems, checked, parts: plan.parts.length, roles: plan.parts.reduce((c, p) => { c[p.role] = (c[p.role] || 0) + 1; return c; }, {}),
    reloadsNew: plan.parts.filter((p) => p.role === 'reload-new' && p.unit === 'row').length,
    animated: plan.parts.filter((p) => p.animated).length,
    animatedReloadRows: container.querySelectorAll('.rowmotion-row[data-rowmotion-part]').length });
} catch (error) { done({ problems: [`step ${step} batch ${batchIndex + 1}: the check threw ${error.stack}`], checked: 0 }); } });
