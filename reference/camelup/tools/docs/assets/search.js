// The site's search: rulings, variants and clauses found by their ID or by the words of their
// question and text. The index (window.camelupSearchIndex) is written by the site build into
// search-index.js and loaded the first time the box is used, so a page that is only read does
// not carry it; nothing is fetched from outside the site.
//
// Ranking: the ID typed exactly; then, when the text typed looks like part of an ID (it holds
// a dot, a dash or a digit: "crazy.no-w", "RUL-4"), the IDs that start with it, then those
// that contain it; then the entries holding every typed word (as the start of one of their
// words): rulings, then variants, then clauses, each those whose title holds the words first.
// A plain word ("crazy") thus lists the rulings before the many clause IDs that hold it.
//
// Keyboard: "/" focuses the box; the Down and Up arrows move through the results; Enter opens
// the chosen result (the first one when none is chosen); Escape clears the box.
(function () {
  "use strict";
  var input = document.getElementById("site-search");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var root = document.body.getAttribute("data-root");
  var LIMIT = 40;
  var KIND_ORDER = { ruling: 0, variant: 1, clause: 2 };
  var prepared = null;
  var waiting = [];  // what to do once the index has loaded

  function wordsOf(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  }

  function prepare() {
    prepared = window.camelupSearchIndex.map(function (entry, position) {
      return {
        entry: entry,
        position: position,
        id: entry.id.toLowerCase(),
        titleWords: wordsOf(entry.label + " " + entry.title),
        allWords: wordsOf(entry.label + " " + entry.title + " " + entry.words),
      };
    });
  }

  function load(then) {
    if (prepared) { then(); return; }
    waiting.push(then);
    if (waiting.length > 1) { return; }  // already loading
    var script = document.createElement("script");
    script.src = root + "assets/search-index.js";
    script.onload = function () {
      prepare();
      waiting.splice(0).forEach(function (task) { task(); });
    };
    document.head.appendChild(script);
  }

  function holdsAll(words, query) {
    return query.every(function (wanted) {
      return words.some(function (word) { return word.indexOf(wanted) === 0; });
    });
  }

  function rank(item, typed, query) {
    if (item.id === typed) { return 0; }
    if (/[.\-\d]/.test(typed)) {
      if (item.id.indexOf(typed) === 0) { return 1; }
      if (item.id.indexOf(typed) > 0) { return 2; }
    }
    if (!query.length) { return -1; }
    var kind = 3 + 2 * KIND_ORDER[item.entry.kind];
    if (holdsAll(item.titleWords, query)) { return kind; }
    if (holdsAll(item.allWords, query)) { return kind + 1; }
    return -1;
  }

  function matches(text) {
    var typed = text.trim().toLowerCase();
    if (!typed || !prepared) { return []; }
    var query = wordsOf(typed);
    var found = [];
    prepared.forEach(function (item) {
      var score = rank(item, typed, query);
      if (score >= 0) { found.push({ score: score, item: item }); }
    });
    found.sort(function (a, b) {
      return a.score - b.score || a.item.position - b.item.position;
    });
    return found.map(function (hit) { return hit.item.entry; });
  }

  function show() {
    var found = matches(input.value);
    list.textContent = "";
    found.slice(0, LIMIT).forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + entry.href;
      link.title = entry.title;
      var label = document.createElement("strong");
      label.textContent = entry.label;
      link.appendChild(label);
      link.appendChild(document.createTextNode(" " + entry.title));
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = found.length === 0;
    if (!input.value.trim()) { status.textContent = ""; }
    else if (found.length > LIMIT) {
      status.textContent = found.length + " found, the first " + LIMIT + " shown: add a word";
    } else { status.textContent = found.length + " found"; }
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }

  function move(step) {
    var all = links();
    if (!all.length) { return; }
    var at = all.indexOf(document.activeElement);
    var next = at + step;
    if (next < 0) { input.focus(); return; }
    all[Math.min(next, all.length - 1)].focus();
  }

  input.addEventListener("focus", function () { load(show); });
  input.addEventListener("input", function () { load(show); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
    else if (event.key === "Escape") { input.value = ""; show(); }
  });
  list.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); move(-1); }
    else if (event.key === "Escape") { input.focus(); }
  });
  input.form.addEventListener("submit", function (event) {
    event.preventDefault();
    load(function () {
      var found = matches(input.value);
      if (found.length) { window.location.href = root + found[0].href; }
    });
  });
  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (event.key === "/" && !typing) { event.preventDefault(); input.focus(); }
  });
})();
