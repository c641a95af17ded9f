// The Saba controller's dashboard: keeps the page live without reloading it. Every two seconds (and at once when
// the filter, the order or a page link changes) it fetches the same view's live part, /status?…&part=live,
// rendered by the server for the filter and page asked, and swaps it in. Without this script the page still works:
// the filter is a form and the pages are links.
(function () {
  'use strict';
  var EVERY_MS = 2000;
  var live = document.getElementById('live');
  var form = document.getElementById('filter');
  var state = document.getElementById('state');
  var pause = document.getElementById('pause');
  var paused = false;
  var timer = null;
  var asked = 0;      // requests sent; an answer to an older one than the newest is dropped
  var updates = 0;    // live parts swapped in (tests and the curious read document.body.dataset.updates)
  var debounce = null;

  function query() {
    var p = new URLSearchParams(location.search);
    p.delete('part');
    return p;
  }

  function refresh() {
    var mine = ++asked;
    var p = query();
    p.set('part', 'live');
    return fetch(location.pathname + '?' + p.toString(), { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) {
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.text();
      })
      .then(function (html) {
        if (mine !== asked) { return; }
        live.innerHTML = html;
        updates++;
        document.body.dataset.updates = String(updates);
        state.className = 'state';
        state.textContent = (paused ? 'paused · ' : 'live · ') + 'updated ' + new Date().toLocaleTimeString();
      })
      .catch(function (e) {
        if (mine !== asked) { return; }
        state.className = 'state down';
        state.textContent = 'the controller does not answer (' + e.message + ') since ' +
          new Date().toLocaleTimeString() + '; still trying';
      });
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused && !document.hidden) {
      timer = setTimeout(function () { refresh().then(schedule); }, EVERY_MS);
    }
  }

  function show(params) {
    params.delete('part');
    if (params.get('q') === '') { params.delete('q'); }
    if (params.get('sort') === 'port') { params.delete('sort'); }   // the default order, as the server writes it
    var qs = params.toString();
    history.replaceState(null, '', location.pathname + (qs ? '?' + qs : ''));
    refresh().then(schedule);
  }

  function fromForm() {
    var p = query();
    new FormData(form).forEach(function (value, key) { p.set(key, value); });
    p.delete('page');       // a new filter or order starts at the first page
    p.delete('apps-page');
    show(p);
  }

  form.addEventListener('submit', function (e) { e.preventDefault(); fromForm(); });
  form.addEventListener('input', function () {
    clearTimeout(debounce);
    debounce = setTimeout(fromForm, 120);
  });
  form.addEventListener('change', fromForm);
  live.addEventListener('click', function (e) {
    var a = e.target.closest('a[data-nav]');
    if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault();
      show(new URL(a.href).searchParams);
    }
  });
  pause.hidden = false;
  pause.addEventListener('click', function () {
    paused = !paused;
    pause.textContent = paused ? 'resume' : 'pause';
    state.textContent = paused ? 'paused' : 'live';
    if (!paused) { refresh(); }
    schedule();
  });
  document.addEventListener('visibilitychange', function () {
    if (!document.hidden && !paused) { refresh(); }
    schedule();
  });
  state.textContent = 'live';
  schedule();
}());
