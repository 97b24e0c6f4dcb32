// The site's search box: the index the build writes (search-index.js),
// loaded from file:// too, and its ranking.

// The index (search-index.js, written at build time) is a script,
// so it loads from file:// too; it is loaded the first time the box is
// used. Every word of the query must appear in a page's title, headings
// or text; titles weigh most, then headings (the result then links to
// that section), then the text.
export function search(index, query, limit) {
  const terms = String(query).toLowerCase().split(/\s+/).filter(t => t.length > 0);
  if (terms.length === 0) return [];
  const results = [];
  index.forEach(function (entry) {
    let title = entry.t.toLowerCase(), text = entry.x.toLowerCase();
    const headings = entry.h.map(h => h[0].toLowerCase());
    let score = 0, best = null, bestHits = 0;
    for (let i = 0; i < terms.length; i++) {
      let term = terms[i], found = false;
      if (title.indexOf(term) >= 0) { score += 10; found = true; }
      if ((' ' + title).indexOf(' ' + term) >= 0) score += 5;
      if (headings.some(h => h.indexOf(term) >= 0)) { score += 4; found = true; }
      if (text.indexOf(term) >= 0) { score += 1; found = true; }
      if (!found) return;
    }
    headings.forEach(function (heading, n) {
      const hits = terms.filter(t => heading.indexOf(t) >= 0).length;
      if (hits > bestHits) { bestHits = hits; best = n; }
    });
    const at = text.indexOf(terms[0]);
    const snippet = at < 0 ? entry.x.slice(0, 120)
      : (at > 50 ? '…' : '') + entry.x.slice(Math.max(0, at - 50), at + 90) + (at + 90 < entry.x.length ? '…' : '');
    // Only ever a path: an address that reads as a scheme (`javascript:…`,
    // from a page of that name) gets './' before it, as the navigation's do.
    let address = String(entry.u);
    if (/^[^/?#]*:/.test(address)) address = './' + address;
    results.push({
      title: entry.t, url: address + (best === null ? '' : '#' + entry.h[best][1]),
      section: best === null ? null : entry.h[best][0], snippet: snippet, score: score
    });
  });
  results.sort((a, b) => b.score - a.score || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return results.slice(0, limit || 10);
}

export function setUpSearch(form) {
  let input = form.querySelector('input'), list = form.querySelector('ol');
  let root = form.getAttribute('data-root') || '', state = 'idle', pending = null;
  form.hidden = false;
  function show(query) {
    const index = window.RowmotionSearchIndex || [];
    list.textContent = '';
    search(index, query, 10).forEach(function (result) {
      let item = document.createElement('li'), link = document.createElement('a');
      link.href = root + result.url;
      link.textContent = result.section ? result.title + ' › ' + result.section : result.title;
      const snippet = document.createElement('span');
      snippet.className = 'site-search-snippet';
      snippet.textContent = result.snippet;
      item.appendChild(link);
      item.appendChild(snippet);
      list.appendChild(item);
    });
    if (query.trim() && !list.firstChild) {
      const none = document.createElement('li');
      none.textContent = 'No page matches.';
      list.appendChild(none);
    }
  }
  function load() {
    if (state !== 'idle') return;
    state = 'loading';
    const script = document.createElement('script');
    script.src = form.getAttribute('data-rowmotion-search');
    script.onload = function () { state = 'ready'; if (pending !== null) show(pending); };
    script.onerror = function () { state = 'failed'; list.textContent = 'The search index could not be loaded.'; };
    document.head.appendChild(script);
  }
  input.addEventListener('focus', load);
  input.addEventListener('input', function () {
    pending = input.value;
    if (state === 'ready') show(input.value); else load();
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    const first = list.querySelector('a');
    if (first) window.location.href = first.href;
  });
}
