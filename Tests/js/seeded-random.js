// A seeded generator (mulberry32), shared by the node tests (require) and
// the in-page call fuzz (test_call_fuzz.py puts this file before its
// script). Not a test file: node --test runs only *.test.mjs here.
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low, high) => low + Math.floor(next() * (high - low + 1));
  return { next, int, chance: (p) => next() < p, pick: (list) => list[int(0, list.length - 1)] };
}
if (typeof module !== 'undefined') module.exports = { generator };
