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
  // JSON text (or an object, which is turned into JSON text) and returns JSON text. None of them
  // ever throws, whatever it is handed (issue row 16): a problem comes back as
  // {"error": ..., "problems": [{"path": ..., "message": ...}]}, as the core's own are. (The npm package `traincost` offers the same functions, taking
  // and returning objects.)
  var resolveReady;
  var MAX_BYTES = 1048576;  // the core's limit on a document (core/include/traincost/json_text.hpp)

  function reply(error, path, message) {
    return JSON.stringify({error: error, problems: [{path: path, message: message}]});
  }
  function describe(e) {
    try { return String(e && e.message ? e.message : e); } catch (ignored) { return 'an exception'; }
  }
  // The argument as the text the core reads, or {problem} when it cannot be one: objects through
  // JSON.stringify (a cycle or a throwing toJSON is a problem, not a throw), anything else through
  // String(). The text must be well-formed Unicode (a lone surrogate was silently merged with the
  // character after it on the way to UTF-8) and hold no NUL (C strings end there, and the text
  // after it was ignored), and is refused unread beyond the core's size limit.
  function asText(value) {
    var text;
    try {
      var object = value !== null && typeof value === 'object' && Object.prototype.toString.call(value) !== '[object String]';
      text = object ? JSON.stringify(value) : String(value);
    } catch (e) {
      return {problem: 'cannot be turned into JSON text (' + describe(e) + ')'};
    }
    if (typeof text !== 'string') return {problem: 'cannot be turned into JSON text'};
    if (text.length > MAX_BYTES) return {problem: 'is ' + text.length + ' characters long; at most ' + MAX_BYTES + ' bytes are accepted'};
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c === 0) return {problem: 'holds a NUL character (U+0000) at character ' + (i + 1) + ', which JSON text and links cannot hold'};
      if (c < 0xD800 || c > 0xDFFF) continue;
      var next = text.charCodeAt(i + 1);
      if (c <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) { i++; continue; }
      return {problem: 'is not well-formed Unicode: a lone surrogate U+' + c.toString(16).toUpperCase() + ' at character ' + (i + 1)};
    }
    return {text: text};
  }

  // Calls a core entry point (web/js_api.cpp) with texts; each argument is {value, error, path}:
  // what was handed over, and the error and path to answer with if it cannot be sent.
  function call(name, args) {
    try {
      if (!started) return reply('TrainCost is still loading; wait for TrainCost.ready', '', 'the module has not started yet');
      var texts = [];
      for (var a = 0; a < args.length; a++) {
        var t = asText(args[a].value);
        if (t.problem !== undefined) return reply(args[a].error, args[a].path, t.problem);
        texts.push(t.text);
      }
      // One entry point in the module (web/js_api.cpp) runs any function of the core's API by
      // name; each text goes with its length in bytes.
      var pointers = [], lengths = [];
      try {
        for (var k = 0; k < 3; k++) {
          var text = k === 0 ? name : (texts[k - 1] || '');
          var n = lengthBytesUTF8(text) + 1, p = Module._malloc(n);
          if (!p) return reply('out of memory', '', 'the text could not be handed to TrainCost');
          pointers.push(p);
          lengths.push(n - 1);
          stringToUTF8(text, p, n);
        }
        var result = Module._tc_api_call(pointers[0], pointers[1], lengths[1], pointers[2], lengths[2]);
        if (!result) return reply('out of memory', '', 'TrainCost could not allocate its answer');
        return takeString(result);
      } finally {
        pointers.forEach(function (q) { Module._free(q); });
      }
    } catch (e) {
      return reply('TrainCost failed', '', describe(e));
    }
  }
  function scenarioArgument(value) { return {value: value, error: 'invalid scenario', path: ''}; }
  var api = {
    version: null,
    ready: new Promise(function (resolve) { resolveReady = resolve; }),
    evaluate: function (scenarioJson) { return call('evaluate', [scenarioArgument(scenarioJson)]); },
    analyze: function (scenarioJson, options) {
      return call('analyze', [scenarioArgument(scenarioJson),
        {value: options === undefined ? '{}' : options, error: 'invalid options', path: 'options'}]);
    },
    explain: function (scenarioJson) { return call('explain', [scenarioArgument(scenarioJson)]); },
    sweep: function (scenarioJson, options) {
      return call('sweep', [scenarioArgument(scenarioJson),
        {value: options === undefined ? '{}' : options, error: 'invalid options', path: 'options'}]);
    },
    pilot: function (scenarioJson, options) {
      return call('pilot', [scenarioArgument(scenarioJson),
        {value: options === undefined ? '{}' : options, error: 'invalid options', path: 'options'}]);
    },
    encodeLink: function (scenarioJson) { return call('encode_link', [scenarioArgument(scenarioJson)]); },
    decodeLink: function (fragment) { return call('decode_link', [{value: fragment, error: 'invalid link', path: 'link'}]); },
    importHf: function (configJson) { return call('import_hf', [{value: configJson, error: 'invalid config', path: ''}]); },
    catalog: function () { return call('catalog', []); },
    schema: function () { return call('schema', []); },
    replay: function () { return call('replay', []); }
  };
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
      api.version = call('version', []);
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
