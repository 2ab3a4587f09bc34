// The calculator page's loader and the few browser services the WebAssembly module asks for
// (downloads, file picking, clipboard fallback, canvas snapshots, the text mirror of results),
// plus window.TrainCost: the JavaScript API over the same core.
(function () {
  'use strict';

  var canvas = document.getElementById('canvas');
  var overlay = document.getElementById('overlay');
  var overlayText = document.getElementById('overlay-text');
  var overlayProgress = document.getElementById('overlay-progress');
  var mirror = document.getElementById('mirror-body');
  var started = false;

  function setOverlay(text, busy) {
    if (!text) { overlay.hidden = true; return; }
    overlay.hidden = false;
    overlayText.textContent = text;
    overlayProgress.hidden = !busy;
  }

  function wake() { if (started) Module._tc_wake(); }

  function download(blob, filename) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  // Copies a JS string into the module's memory for one call.
  function withString(text, fn) {
    var n = lengthBytesUTF8(text) + 1;
    var p = Module._malloc(n);
    stringToUTF8(text, p, n);
    try { return fn(p); } finally { Module._free(p); }
  }

  // Calls an exported function that returns a malloc'd UTF-8 string, and frees it.
  function takeString(p) {
    var s = UTF8ToString(p);
    Module._free(p);
    return s;
  }

  if (!document.createElement('canvas').getContext('webgl2')) {
    setOverlay('This calculator needs WebGL2, which this browser or device does not provide. ' +
               'The methodology and hardware data pages work without it.', false);
    return;
  }
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    setOverlay('The graphics context was lost (the GPU was reset or the tab was in the background too long). ' +
               'Reloading keeps your scenario.', true);
  }, false);
  canvas.addEventListener('webglcontextrestored', function () { window.location.reload(); }, false);

  var shell = {
    setOverlay: function (text) { setOverlay(text, false); },
    copyFallback: function (text) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      try { document.execCommand('copy'); } catch (e) {}
      area.remove();
      canvas.focus({preventScroll: true});
    },
    downloadText: function (filename, mime, text) { download(new Blob([text], {type: mime}), filename); },
    // Only web pages of this site or http(s) addresses: never javascript: or data: URLs.
    openUrl: function (url, newTab) {
      if (!/^(https?:\/\/|[\w\-\/.]+\.html(#[\w\-]*)?$)/i.test(url)) return;
      if (newTab) window.open(url, '_blank', 'noopener'); else window.location.href = url;
    },
    // Called right after a frame is drawn, while the WebGL drawing buffer still holds it: copies a
    // rectangle (CSS pixels) into a 2D canvas and downloads it as a PNG.
    requestCanvasPng: function (filename, x, y, w, h) {
      var ratio = canvas.width / canvas.clientWidth;
      var out = document.createElement('canvas');
      out.width = Math.max(1, Math.round(w * ratio));
      out.height = Math.max(1, Math.round(h * ratio));
      out.getContext('2d').drawImage(canvas, x * ratio, y * ratio, w * ratio, h * ratio, 0, 0, out.width, out.height);
      out.toBlob(function (blob) { download(blob, filename); }, 'image/png');
    },
    pickJsonFile: function () {
      var input = document.createElement('input');
      input.type = 'file';
      input.accept = '.json,application/json';
      input.addEventListener('change', function () {
        var file = input.files && input.files[0];
        if (!file) return;
        if (file.size > 1048576) { withString('{"__too_large__":' + file.size + '}', Module._tc_on_file_loaded); return; }
        file.text().then(function (text) { withString(text, Module._tc_on_file_loaded); canvas.focus({preventScroll: true}); });
      });
      input.click();
    },
    // The verdict and results table as plain text in the DOM (textContent only, never HTML).
    publishResults: function (json) {
      var data;
      try { data = JSON.parse(json); } catch (e) { return; }
      function add(tag, className, text) {
        var node = document.createElement(tag);
        if (className) node.className = className;
        node.textContent = text;
        return mirror.appendChild(node);
      }
      while (mirror.firstChild) mirror.removeChild(mirror.firstChild);
      (data.workloads || []).forEach(function (w, wi) {
        add('h2', '', w.name);
        add('p', 'verdict', w.verdict).setAttribute('data-workload', String(wi));
        var table = document.createElement('table');
        var head = table.insertRow();
        (data.columns || []).forEach(function (c) {
          var th = document.createElement('th');
          th.textContent = c;
          head.appendChild(th);
        });
        (w.rows || []).forEach(function (row) {
          var tr = table.insertRow();
          row.forEach(function (cell) { tr.insertCell().textContent = cell; });
        });
        mirror.appendChild(table);
      });
      if (data.portfolio) add('p', 'portfolio', data.portfolio);
      (data.banners || []).forEach(function (b) {
        add('p', 'banner ' + b.kind, b.text).setAttribute('role', b.kind === 'error' ? 'alert' : 'status');
      });
      if (data.status) add('p', 'status', data.status);
    }
  };
  window.TrainCostShell = shell;

  // window.TrainCost: the same core as the page, for scripts and wiki pages. Every function takes
  // and returns JSON text; errors come back as {"error": ..., "problems": [...]}, never as a throw
  // that would stop the module. (The npm package `traincost` offers the same functions, taking
  // and returning objects.)
  var resolveReady;
  function json(value) { return typeof value === 'string' ? value : JSON.stringify(value); }
  var api = {
    version: null,
    ready: new Promise(function (resolve) { resolveReady = resolve; }),
    evaluate: function (scenarioJson) { return call('evaluate', String(scenarioJson)); },
    analyze: function (scenarioJson, options) {
      return call('analyze', String(scenarioJson), options === undefined ? '{}' : json(options));
    },
    sweep: function (scenarioJson, options) {
      return call('sweep', String(scenarioJson), options === undefined ? '{}' : json(options));
    },
    explain: function (scenarioJson) { return call('explain', String(scenarioJson)); },
    encodeLink: function (scenarioJson) { return call('encode_link', String(scenarioJson)); },
    decodeLink: function (fragment) { return call('decode_link', String(fragment)); },
    importHf: function (configJson) { return call('import_hf', String(configJson)); },
    catalog: function () { return call('catalog'); },
    schema: function () { return call('schema'); }
  };
  // One entry point in the module (web/js_api.cpp) runs any function of the core's API by name.
  function call(name, first, second) {
    if (!started) return JSON.stringify({error: 'TrainCost is still loading; wait for TrainCost.ready'});
    var texts = [name, first || '', second || ''].map(function (a) {
      var n = lengthBytesUTF8(a) + 1, p = Module._malloc(n);
      stringToUTF8(a, p, n);
      return {pointer: p, length: n - 1};
    });
    try {
      var reply = Module._tc_api_call(texts[0].pointer, texts[1].pointer, texts[1].length, texts[2].pointer, texts[2].length);
      return reply ? takeString(reply) : JSON.stringify({error: 'out of memory', problems: []});
    } finally { texts.forEach(function (t) { Module._free(t.pointer); }); }
  }
  window.TrainCost = api;

  var fontFiles = ['fonts/Inter-Regular.otf', 'fonts/Inter-SemiBold.otf'];
  var fontData = [];
  window.Module = {
    canvas: canvas,
    preRun: [function () {
      Module.addRunDependency('fonts');
      Promise.all(fontFiles.map(function (f) {
        return fetch(f).then(function (r) {
          if (!r.ok) throw new Error(f + ': HTTP ' + r.status);
          return r.arrayBuffer();
        });
      })).then(function (buffers) {
        fontData = buffers;
        Module.removeRunDependency('fonts');
      }).catch(function (e) { setOverlay('The calculator could not load its fonts (' + e.message + ').', false); });
    }],
    onRuntimeInitialized: function () {
      fontData.forEach(function (buffer, i) {
        var bytes = new Uint8Array(buffer), p = Module._malloc(bytes.length);
        writeArrayToMemory(bytes, p);
        Module._tc_font_data(i, p, bytes.length);
        Module._free(p);
      });
      started = true;
      api.version = call('version');
      resolveReady(api);
    },
    setStatus: function (text) { if (text) setOverlay('Loading the calculator… ' + text.replace(/\(.*\)/, ''), true); },
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    onAbort: function (what) { setOverlay('The calculator stopped unexpectedly (' + what + '). Reload the page; your scenario is kept.', false); }
  };

  window.addEventListener('resize', wake);
  window.addEventListener('hashchange', function () { if (started) Module._tc_on_hashchange(); });
  window.addEventListener('focus', wake);
  document.addEventListener('visibilitychange', wake);
  if (window.matchMedia) {
    var dark = window.matchMedia('(prefers-color-scheme: dark)');
    if (dark.addEventListener) dark.addEventListener('change', function () { if (started) Module._tc_on_theme_change(); });
  }
  // Pasting into the canvas: hand the text to the focused ImGui field.
  document.addEventListener('paste', function (e) {
    if (!started || !e.clipboardData) return;
    var text = e.clipboardData.getData('text/plain');
    if (text) withString(text, Module._tc_on_paste);
  });
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });

  var script = document.createElement('script');
  script.src = 'traincost.js';
  script.async = true;
  script.onerror = function () { setOverlay('The calculator could not be downloaded. Check the connection and reload.', false); };
  document.body.appendChild(script);
  setOverlay('Loading the calculator…', true);
  // Keyboard input goes to the canvas; but inside an iframe, taking focus would scroll the host
  // page to the frame and steal the reader's keyboard, so there the user clicks in first.
  if (window.self === window.top) canvas.focus({preventScroll: true});
})();
