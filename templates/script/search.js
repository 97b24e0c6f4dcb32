// The site's search box: the index the build writes (search-index.js),
// loaded from file:// too, and its ranking.

// The index (search-index.js, written at build time) is a script,
// so it loads from file:// too; it is loaded the first time the box is
// used. Every word of the query must appear in a page's title, headings
// or text; titles weigh most, then headings (the result then links to
// that section), then the text.
export function search(index, query, limit) {
  var terms = String(query).toLowerCase().split(/\s+/).filter(function (t) { return t.length > 0; });
  if (terms.length === 0) return [];
  var results = [];
  index.forEach(function (entry) {
    var title = entry.t.toLowerCase(), text = entry.x.toLowerCase();
    var headings = entry.h.map(function (h) { return h[0].toLowerCase(); });
    var score = 0, best = null, bestHits = 0;
    for (var i = 0; i < terms.length; i++) {
      var term = terms[i], found = false;
      if (title.indexOf(term) >= 0) { score += 10; found = true; }
      if ((' ' + title).indexOf(' ' + term) >= 0) score += 5;
      if (headings.some(function (h) { return h.indexOf(term) >= 0; })) { score += 4; found = true; }
      if (text.indexOf(term) >= 0) { score += 1; found = true; }
      if (!found) return;
    }
    headings.forEach(function (heading, n) {
      var hits = terms.filter(function (t) { return heading.indexOf(t) >= 0; }).length;
      if (hits > bestHits) { bestHits = hits; best = n; }
    });
    var at = text.indexOf(terms[0]);
    var snippet = at < 0 ? entry.x.slice(0, 120)
      : (at > 50 ? '…' : '') + entry.x.slice(Math.max(0, at - 50), at + 90) + (at + 90 < entry.x.length ? '…' : '');
    // Only ever a path: an address that reads as a scheme (`javascript:…`,
    // from a page of that name) gets './' before it, as the navigation's do.
    var address = String(entry.u);
    if (/^[^/?#]*:/.test(address)) address = './' + address;
    results.push({
      title: entry.t, url: address + (best === null ? '' : '#' + entry.h[best][1]),
      section: best === null ? null : entry.h[best][0], snippet: snippet, score: score
    });
  });
  results.sort(function (a, b) { return b.score - a.score || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0); });
  return results.slice(0, limit || 10);
}

export function setUpSearch(form) {
  var input = form.querySelector('input'), list = form.querySelector('ol');
  var root = form.getAttribute('data-root') || '', state = 'idle', pending = null;
  form.hidden = false;
  function show(query) {
    var index = window.RowmotionSearchIndex || [];
    list.textContent = '';
    search(index, query, 10).forEach(function (result) {
      var item = document.createElement('li'), link = document.createElement('a');
      link.href = root + result.url;
      link.textContent = result.section ? result.title + ' › ' + result.section : result.title;
      var snippet = document.createElement('span');
      snippet.className = 'site-search-snippet';
      snippet.textContent = result.snippet;
      item.appendChild(link);
      item.appendChild(snippet);
      list.appendChild(item);
    });
    if (query.trim() && !list.firstChild) {
      var none = document.createElement('li');
      none.textContent = 'No page matches.';
      list.appendChild(none);
    }
  }
  function load() {
    if (state !== 'idle') return;
    state = 'loading';
    var script = document.createElement('script');
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
    var first = list.querySelector('a');
    if (first) window.location.href = first.href;
  });
}
