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
  // Long figures (the sweep's ~200 lines) sit outside the live region: a screen reader would read
  // them again after every edit.
  var mirrorDetail = document.getElementById('mirror-detail');
  var started = false;

  // The answer before the canvas. The default example's answer comes pre-rendered in the page
  // (#first-answer); it is shown only when the page will open that example (no scenario in the
  // address, none saved in this browser). A scenario of the reader's own gets its card from the
  // card module (showOwnCard, below) before the calculator is fetched. As soon as the core has
  // computed the answer, the text mirror itself is shown in its place, and once the canvas has
  // drawn its first frame both make way for it (the mirror goes back to being visually hidden,
  // for screen readers and tests).
  var firstAnswer = document.getElementById('first-answer');
  var mirrorSection = document.getElementById('results-mirror');
  var handedOver = false;
  // The query read as the core reads it (web/platform_web.cpp, url_query): ?embed=%31 is an
  // embed, ?embed=1x is not, so the card and the calculator agree on which scenario opens.
  var embed = false;
  try { embed = new URLSearchParams(window.location.search).get('embed') === '1'; } catch (e) { /* not an embed */ }
  // The scenario the page will open when it is not the default example, as web/app.cpp's
  // load_initial_scenario picks it: the link in the address, else the autosave (which the embed
  // never reads, and which holds scenario JSON, never a link); null for the default example.
  function ownScenario() {
    var hash = window.location.hash.replace(/^#/, '');
    if (/^s=/.test(hash)) return {text: hash, link: true};
    if (embed) return null;
    var saved = '';
    try { saved = window.localStorage.getItem('traincost.autosave') || ''; } catch (e) { /* none */ }
    return saved ? {text: saved, link: false} : null;
  }
  var own = ownScenario();
  function showFirstAnswer() {
    firstAnswer.hidden = false;
    document.body.classList.add('answer-shown');
  }
  if (firstAnswer && firstAnswer.querySelector('.verdict') && !own) showFirstAnswer();
  // Makes `parent`'s children those of `fresh` (a fragment), keeping each one that is equal
  // already, so that the browser lays out only what changed.
  function patchChildren(parent, fresh) {
    var next = Array.prototype.slice.call(fresh.childNodes);
    for (var i = 0; i < next.length; i++) {
      var old = parent.childNodes[i];
      if (!old) parent.appendChild(next[i]);
      else if (!old.isEqualNode(next[i])) parent.replaceChild(next[i], old);
    }
    while (parent.childNodes.length > next.length) parent.removeChild(parent.lastChild);
  }
  function showMirror() {
    if (handedOver) return;
    if (firstAnswer) firstAnswer.hidden = true;
    mirrorSection.classList.remove('visually-hidden');
    mirrorSection.classList.add('first-answer');
    document.body.classList.add('answer-shown');
  }
  function handOver() {
    if (handedOver) return;
    handedOver = true;
    if (firstAnswer) firstAnswer.hidden = true;
    mirrorSection.classList.remove('first-answer');
    mirrorSection.classList.add('visually-hidden');
    document.body.classList.remove('answer-shown');
  }
  // Polled on animation frames once the module runs: the canvas's first frame is the signal.
  function handOverAfterFirstFrame() {
    if (window.Module && Module._tc_frames_drawn && Module._tc_frames_drawn() >= 1) handOver();
    else requestAnimationFrame(handOverAfterFirstFrame);
  }


  function setOverlay(text, busy) {
    if (!text) {
      overlay.hidden = true;
      if (started) handOverAfterFirstFrame();
      return;
    }
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
    // The length too: a NUL character is a 0 byte inside the text, not its end (issue 33, item 1).
    try { return fn(p, n - 1); } finally { Module._free(p); }
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

  // The wasm and the fonts are fetched at once, in parallel with the module (which calculator.html
  // preloads), rather than each after the file that names it: on a slow connection every round
  // trip saved is 100 ms or more.
  // In an iframe sandboxed without allow-same-origin the page has an opaque origin, and its own
  // files are cross-origin requests: they load only from a host that allows those (the one
  // scripts/serve starts does, as GitHub Pages does). Elsewhere the reader is told what to change.
  function fetchBytes(f) {
    return fetch(f, {credentials: 'same-origin'}).then(function (r) {
      if (!r.ok) throw new Error(f + ': HTTP ' + r.status);
      return r;
    }, function (e) {
      if (window.origin === 'null') {
        throw new Error('this sandboxed frame blocks the calculator\'s own files (' + f + '); the iframe needs ' +
                        'sandbox="allow-scripts allow-same-origin", or the calculator a host that allows cross-origin requests');
      }
      throw e;
    });
  }
  // Started by startCalculator, once the answer is on screen (see the end of this file).
  var wasmResponse = null, fontBuffers = null;
  function fetchCalculatorFiles() {
    wasmResponse = fetchBytes('traincost.wasm');
    var fontFiles = ['fonts/Inter-Regular.otf', 'fonts/Inter-SemiBold.otf', 'fonts/Symbols.ttf'];
    fontBuffers = Promise.all(fontFiles.map(function (f) { return fetchBytes(f).then(function (r) { return r.arrayBuffer(); }); }));
    // Nothing waits on these before the module asks; a failure is reported then, not twice.
    wasmResponse.catch(function () {});
    fontBuffers.catch(function () {});
  }

  // The accessible form (web/dom_form.hpp): every input the field table declares, as labelled
  // DOM controls, rebuilt from the scenario after each change from either side. Each control sends
  // its own field to the core (Module._tc_form_edit), which edits the scenario through the same
  // path as the canvas (undo, link and autosave follow). Text goes in through textContent and
  // value only, never as HTML. A control being typed in keeps its text and its focus.
  var formFields = document.getElementById('edit-form-fields');
  var formStatus = document.getElementById('edit-form-status');
  var formHeading = document.getElementById('edit-form-title');
  var formShape = '';
  var formDirty = {};    // path -> the text typed into it and not yet sent (a rebuilt control gets it back)
  var formRefused = {};  // path -> why the core refused what was typed (until it is edited again)
  function hasOwn(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function controlId(path) { return 'f-' + path.replace(/[^A-Za-z0-9]/g, '-'); }
  function shown(c) {
    if (c.kind !== 'number') return c.value === null || c.value === undefined ? '' : String(c.value);
    if (c.value === null || c.value === undefined) return '';
    return String(Number((c.value * (c.scale || 1)).toPrecision(12)));
  }
  function formEdit(path, value) {
    if (!started) return 'The calculator is still loading.';
    var answer = '';
    var p = Module._malloc(lengthBytesUTF8(path) + 1);
    stringToUTF8(path, p, lengthBytesUTF8(path) + 1);
    try { answer = withString(value, function (v, n) { return takeString(Module._tc_form_edit(p, v, n)); }); } finally { Module._free(p); }
    return answer;
  }
  function showProblem(control, text) {
    var note = document.getElementById(control.id + '-problem');
    if (note && note.textContent !== text) note.textContent = text;
    if (text) control.setAttribute('aria-invalid', 'true'); else control.removeAttribute('aria-invalid');
  }
  function commitControl(control) {
    var path = control.getAttribute('data-path');
    if (control.tagName !== 'SELECT' && !hasOwn(formDirty, path)) return;
    delete formDirty[path];
    delete formRefused[path];
    // An accepted edit redraws the form from the scenario before this returns (publishForm).
    var problem = formEdit(path, control.value);
    formStatus.textContent = problem;
    if (problem) {
      formRefused[path] = problem;
      formDirty[path] = control.value;  // what was typed stays, to be corrected
      showProblem(control, problem);
    }
  }
  function runAction(path, label) {
    var problem = formEdit(path, '');
    formStatus.textContent = problem || (label + ': done.');
  }
  function shapeOf(form) {
    return JSON.stringify(form.groups.map(function (g) {
      return [g.id, g.controls.map(function (c) { return [c.path, c.kind, c.label, (c.choices || []).map(function (x) { return x.value + '\u0000' + x.text; })]; }),
              g.actions.map(function (a) { return a.path + '\u0000' + a.label; })];
    }));
  }
  // One group of controls (a fieldset with its legend, labelled controls and action buttons).
  function buildGroup(g) {
    var set = document.createElement('fieldset');
    set.id = 'g-' + g.id;
    var legend = document.createElement('legend');
    legend.textContent = g.title;
    set.appendChild(legend);
    g.controls.forEach(function (c) {
      var row = document.createElement('div');
      row.className = 'field';
      var id = controlId(c.path);
      var label = document.createElement('label');
      label.htmlFor = id;
      label.textContent = c.label;
      var control;
      if (c.kind === 'select') {
        control = document.createElement('select');
        (c.choices || []).forEach(function (x) {
          var option = document.createElement('option');
          option.value = x.value;
          option.textContent = x.text;
          control.appendChild(option);
        });
        control.addEventListener('change', function () { commitControl(control); });
      } else {
        control = document.createElement('input');
        control.type = 'text';
        control.autocomplete = 'off';
        control.spellcheck = false;
        if (c.kind === 'number') control.inputMode = 'decimal';
        control.addEventListener('input', function () { formDirty[c.path] = control.value; });
        control.addEventListener('change', function () { commitControl(control); });
      }
      control.id = id;
      control.setAttribute('data-path', c.path);
      var note = document.createElement('p');
      note.className = 'field-problem';
      note.id = id + '-problem';
      control.setAttribute('aria-describedby', note.id);
      row.appendChild(label);
      row.appendChild(control);
      row.appendChild(note);
      set.appendChild(row);
    });
    g.actions.forEach(function (a) {
      var button = document.createElement('button');
      button.type = 'button';
      button.id = controlId(a.path);
      button.textContent = a.label;
      button.addEventListener('click', function () { runAction(a.path, a.label); });
      set.appendChild(button);
    });
    return set;
  }
  // A heavy scenario's form has over a thousand controls and options (16 workloads × 8 options):
  // built in one go with the page's first answer, it held the main thread for a tenth of a
  // second. While the focus is elsewhere it is built a few groups per task (issue 33 item 5);
  // with the focus in it (an edit from the form that adds or removes controls) it is built at
  // once, so the focus comes back to where it was.
  var formBuilding = null;  // {groups, next} while groups remain to be built
  var formLatest = null;    // the last form published: its values go in once it is built
  function buildForm(form) {
    var focusedId = formFields.contains(document.activeElement) ? document.activeElement.id : '';
    while (formFields.firstChild) formFields.removeChild(formFields.firstChild);
    formBuilding = {groups: form.groups, next: 0};
    if (!focusedId) { buildSomeGroups(); return; }
    while (formBuilding.next < formBuilding.groups.length) formFields.appendChild(buildGroup(formBuilding.groups[formBuilding.next++]));
    formBuilding = null;
    var again = document.getElementById(focusedId);
    (again || formHeading).focus({preventScroll: true});
  }
  function buildSomeGroups() {
    var b = formBuilding;
    if (!b) return;
    var began = performance.now();
    // Each group's style and layout in this task and within its time (reading offsetHeight): left to
    // the next frame they came to 40-90 ms there, on top of drawing the canvas.
    while (b.next < b.groups.length && (b.next === 0 || performance.now() - began < 8)) {
      formFields.appendChild(buildGroup(b.groups[b.next]));
      fillGroup(b.groups[b.next++]);
      void formFields.offsetHeight;
    }
    if (b.next < b.groups.length) { setTimeout(buildSomeGroups, 0); return; }
    if (formBuilding === b) { formBuilding = null; fillForm(formLatest); }
  }
  function renderForm(form) {
    if (!form || !form.groups) return;
    formLatest = form;
    var shape = shapeOf(form);
    if (shape !== formShape) {
      formShape = shape;
      // Typed text and refusals of controls the form no longer has are forgotten.
      var paths = {};
      form.groups.forEach(function (g) { g.controls.forEach(function (c) { paths[c.path] = true; }); });
      [formDirty, formRefused].forEach(function (m) { Object.keys(m).forEach(function (k) { if (!paths[k]) delete m[k]; }); });
      buildForm(form);
    }
    if (!formBuilding) fillForm(form);
  }
  // A group's values, title and problems as the scenario has them now; only what differs is set
  // (a placeholder set again is laid out again).
  function fillGroup(g) {
    var set = document.getElementById('g-' + g.id);
    if (set && set.firstChild.textContent !== g.title) set.firstChild.textContent = g.title;
    g.controls.forEach(function (c) {
      var control = document.getElementById(controlId(c.path));
      if (!control) return;
      var value = hasOwn(formDirty, c.path) ? formDirty[c.path] : shown(c);
      if (control.value !== value) control.value = value;
      if (c.placeholder && control.placeholder !== c.placeholder) control.placeholder = c.placeholder;
      showProblem(control, formRefused[c.path] || (c.problem ? c.label + ': ' + c.problem : ''));
    });
  }
  // The form's values, titles and problems as the scenario has them now.
  function fillForm(form) {
    form.groups.forEach(fillGroup);
    // aria-disabled rather than disabled: the button keeps the focus after the last undo.
    document.getElementById('form-undo').setAttribute('aria-disabled', String(!form.can_undo));
    document.getElementById('form-redo').setAttribute('aria-disabled', String(!form.can_redo));
  }
  document.getElementById('form-undo').addEventListener('click', function () { runAction('undo', 'Undo'); });
  document.getElementById('form-redo').addEventListener('click', function () { runAction('redo', 'Redo'); });
  function openForm() {
    var first = formFields.querySelector('input, select, button');
    (first || formHeading).focus();
  }
  document.getElementById('skip-to-form').addEventListener('click', openForm);
  // Keys typed in the form are the form's: the canvas's key listeners (GLFW's, on the window) never
  // see them, so typing there does not also type, tab or press Enter in the canvas. Enter sends a
  // text field's value. On the canvas, Ctrl+Shift+F moves to the form (Tab stays the canvas's).
  ['keydown', 'keypress', 'keyup'].forEach(function (type) {
    window.addEventListener(type, function (e) {
      var target = e.target;
      if (type === 'keydown' && target === canvas && e.ctrlKey && e.shiftKey && (e.key === 'F' || e.key === 'f')) {
        e.preventDefault();
        e.stopImmediatePropagation();
        openForm();
        return;
      }
      // Select-all on the canvas is ImGui's (the field being edited): the browser's would select the
      // whole document, and laying out the form it selects held the main thread 100 ms on the heavy link.
      if (type === 'keydown' && target === canvas && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && (e.key === 'a' || e.key === 'A')) {
        e.preventDefault();
        return;
      }
      if (!target || !target.closest || !target.closest('#edit-form, #skip-to-form')) return;
      if (type === 'keydown' && e.key === 'Enter' && target.tagName === 'INPUT') {
        e.preventDefault();
        commitControl(target);
      }
      e.stopImmediatePropagation();
    }, true);
  });

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
    // Only web pages of this site or http(s) addresses: never javascript: or data: URLs. A page
    // of this site may carry a scenario link (#s=1.…) or a section anchor.
    openUrl: function (url, newTab) {
      if (!/^(https?:\/\/[^\s]+|[\w\-\/.]+\.html(\?[\w=&\-]*)?(#[\w\-=.]*)?)$/i.test(url)) return;
      var absolute = new URL(url, window.location.href).href;
      if (newTab) window.open(absolute, '_blank', 'noopener'); else window.location.href = absolute;
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
        // The size goes beside the bytes, never inside them (a file holding {"__too_large__":1}
        // read as too large: issue 33, item 12); a file over the limit is not read at all. The
        // bytes go as they are, not decoded (file.text() turned invalid UTF-8 and UTF-16 into
        // text, and a NUL ended the C string early): the core reads them as the CLI does.
        if (file.size > 1048576) { Module._tc_on_file_loaded(0, 0, file.size); return; }
        file.arrayBuffer().then(function (buffer) {
          var bytes = new Uint8Array(buffer), p = Module._malloc(bytes.length + 1);
          writeArrayToMemory(bytes, p);
          try { Module._tc_on_file_loaded(p, bytes.length, file.size); } finally { Module._free(p); }
          canvas.focus({preventScroll: true});
        });
      });
      input.click();
    },
    // The verdict and results table as plain text in the DOM (textContent only, never HTML).
    publishResults: function (json) {
      var data;
      try { data = JSON.parse(json); } catch (e) { return; }
      // Built aside, then only what changed replaces what the page holds: a heavy scenario's
      // mirror has thousands of nodes, and laying them all out again at every publish held the
      // main thread for tens of milliseconds (issue 33 item 5).
      var body = document.createDocumentFragment(), detail = document.createDocumentFragment();
      function add(tag, className, text, parent) {
        var node = document.createElement(tag);
        if (className) node.className = className;
        node.textContent = text;
        return (parent || body).appendChild(node);
      }
      showMirror();
      (data.workloads || []).forEach(function (w, wi) {
        add('h2', '', w.name);
        add('p', 'verdict', w.verdict).setAttribute('data-workload', String(wi));
        if (w.headline) add('p', 'headline', w.headline).setAttribute('data-workload', String(wi));
        (w.warnings || []).forEach(function (text) { add('p', 'warning', text).setAttribute('data-workload', String(wi)); });
        if (w.holds_while) add('p', 'holds-while', w.holds_while).setAttribute('data-workload', String(wi));
        // What would change the answer: a list, not a table (tables are the results, one per workload).
        if (w.thresholds && w.thresholds.length) {
          var list = add('ul', 'thresholds', '');
          list.setAttribute('data-workload', String(wi));
          w.thresholds.forEach(function (t) {
            var li = document.createElement('li');
            li.setAttribute('data-input', t.input);
            li.textContent = t.condition;
            list.appendChild(li);
          });
        }
        if (w.pilot) add('p', 'pilot', w.pilot.recommendation + ': ' + w.pilot.summary).setAttribute('data-workload', String(wi));
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
        body.appendChild(table);
        if (w.estimates) add('p', 'estimates', w.estimates).setAttribute('data-workload', String(wi));
      });
      if (data.portfolio) add('p', 'portfolio', data.portfolio);
      if (data.prices && data.prices.text) add('p', 'prices' + (data.prices.stale ? ' stale' : ''), data.prices.text);
      // The cluster-size sweep of the selected workload: the chart's figures as the CLI prints
      // them, and as its JSON for scripts and tests.
      if (data.sweep && data.sweep.text) {
        var sweep = add('pre', 'sweep', data.sweep.text, detail);
        sweep.setAttribute('data-workload', String(data.sweep.workload));
        sweep.setAttribute('data-json', JSON.stringify(data.sweep.data));
      }
      // The "By chip" tab's table once computed: as `traincost compare` prints it, and its JSON.
      if (data.comparison && data.comparison.text) {
        var comparison = add('pre', 'comparison', data.comparison.text, detail);
        comparison.setAttribute('data-workload', String(data.comparison.workload));
        comparison.setAttribute('data-json', JSON.stringify(data.comparison.data));
      }
      (data.banners || []).forEach(function (b) {
        add('p', 'banner ' + b.kind, b.text).setAttribute('role', b.kind === 'error' ? 'alert' : 'status');
      });
      if (data.status) add('p', 'status', data.status);
      if (data.updating) add('p', 'updating', data.updating);
      if (data.announce) add('p', 'announce', data.announce);
      patchChildren(mirror, body);
      patchChildren(mirrorDetail, detail);
      void mirror.offsetHeight;  // laid out in the task that changed it, not in the next frame's with the canvas
    },
    // The accessible form's controls (web/dom_form.cpp), sent after the results in a task of their own.
    publishForm: function (json) {
      var form;
      try { form = JSON.parse(json); } catch (e) { return; }
      renderForm(form);
    }
  };
  window.TrainCostShell = shell;

  // window.TrainCost: the same core as the page, for scripts and wiki pages. Every function takes
  // JSON text (or an object, which is turned into JSON text) and returns JSON text. None of them
  // ever throws, whatever it is handed (issue row 16): a problem comes back as
  // {"error": ..., "problems": [{"path": ..., "message": ...}]}, as the core's own are. (The npm package `traincost` offers the same functions, taking
  // and returning objects.)
  var resolveReady;
  var MAX_BYTES = 1048576;  // the core's limit on a document (core/include/traincost/base/json_text.hpp)

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
    replay: function () { return call('replay', []); },
    readLog: function (logText) { return call('read_log', [{value: logText, error: 'unreadable log', path: ''}]); },
    card: function (scenarioJson, options) {
      return call('card', [scenarioArgument(scenarioJson),
        {value: options === undefined ? '{}' : options, error: 'invalid options', path: 'options'}]);
    },
    // model: scenario or config JSON, or a workload preset's name as plain text.
    compare: function (model, options) {
      var name = typeof model === 'string' && !/^\s*[{["]/.test(model);
      return call('compare', [{value: name ? JSON.stringify(model) : model, error: 'invalid input', path: ''},
        {value: options === undefined ? '{}' : options, error: 'invalid options', path: 'options'}]);
    }
  };
  window.TrainCost = api;

  window.Module = {
    canvas: canvas,
    preRun: [function () {
      Module.addRunDependency('fonts');
      fontBuffers.then(function (buffers) {
        Module.tcFonts = buffers;  // main() copies them (platform_web.cpp, font_file)
        Module.removeRunDependency('fonts');
      }).catch(function (e) { setOverlay('The calculator could not load its fonts (' + e.message + ').', false); });
    }],
    // The wasm fetched above, compiled while it streams in when the server says application/wasm.
    instantiateWasm: function (imports, receive) {
      wasmResponse.then(function (response) {
        var type = response.headers.get('Content-Type') || '';
        if (WebAssembly.instantiateStreaming && type.indexOf('application/wasm') === 0) return WebAssembly.instantiateStreaming(response, imports);
        return response.arrayBuffer().then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
      }).then(function (result) {
        receive(result.instance, result.module);
      }).catch(function (e) {
        setOverlay('The calculator could not be downloaded (' + describe(e) + ').' + (window.origin === 'null' ? '' : ' Check the connection and reload.'), false);
      });
      return {};
    },
    onRuntimeInitialized: function () {
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
  window.addEventListener('hashchange', function () {
    if (started) { Module._tc_on_hashchange(); return; }
    // The address changed before the calculator runs: the answer on screen (the pre-rendered one,
    // or a card, in the making or offered in an embed) is of the old address. It goes; the
    // calculator opens the new one, and says so itself if that link is wrong.
    ++cardRun;
    if (firstAnswer && !handedOver) {
      firstAnswer.hidden = true;
      document.body.classList.remove('answer-shown', 'card-offered');
      var actions = document.getElementById('card-actions');
      if (actions) actions.hidden = true;
    }
    startCalculator();
  });
  window.addEventListener('popstate', function () { if (started) Module._tc_on_popstate(); });
  window.addEventListener('focus', wake);
  document.addEventListener('visibilitychange', wake);
  if (window.matchMedia) {
    var dark = window.matchMedia('(prefers-color-scheme: dark)');
    if (dark.addEventListener) dark.addEventListener('change', function () { if (started) Module._tc_on_theme_change(); });
  }
  // Pasting into the canvas: hand the text to the focused ImGui field.
  document.addEventListener('paste', function (e) {
    if (!started || !e.clipboardData) return;
    if (e.target && e.target.closest && e.target.closest('#edit-form')) return;  // the form's own field takes it
    var text = e.clipboardData.getData('text/plain');
    if (text) withString(text, Module._tc_on_paste);
  });
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });

  // Touch. Emscripten's GLFW turns touches into mouse presses (and the browser adds mouse events
  // of its own), which ImGui cannot tell from clicks; so the page handles touch itself, before
  // GLFW's listeners (registered later, when the module starts): a tap is a click, a long press
  // shows the tooltip, a swipe scrolls what is under the finger and keeps gliding, and two-finger
  // gestures (pinch) are ignored, so they neither zoom nor break the layout.
  var touch = null, glide = null;
  // A phone's keyboard only opens for a focused text input: a tap on a text field focuses this
  // hidden one, placed where the field is. Keys reach the page through window listeners as usual;
  // what a keyboard sends as composition ("Unidentified" keys) comes through its input events.
  var proxy = document.getElementById('text-proxy');
  var composing = false, touchSeen = false;
  proxy.addEventListener('keydown', function (e) { composing = e.keyCode === 229 || e.key === 'Unidentified'; });
  proxy.addEventListener('input', function (e) {
    if (composing && started) {
      if (e.inputType === 'deleteContentBackward') Module._tc_key(259);  // GLFW_KEY_BACKSPACE
      else if (e.data) withString(e.data, Module._tc_type_text);
    }
    proxy.value = '';
  });
  shell.blurTextProxy = function () {
    if (document.activeElement === proxy) { proxy.blur(); canvas.focus({preventScroll: true}); }
  };
  var TAP_SLOP = 8, LONG_PRESS_MS = 500;
  function point(t) {
    var r = canvas.getBoundingClientRect();
    return {x: t.clientX - r.left, y: t.clientY - r.top};
  }
  function stopGlide() { if (glide) { cancelAnimationFrame(glide.frame); glide = null; } }
  function swallow(e) { e.preventDefault(); e.stopImmediatePropagation(); }
  canvas.addEventListener('touchstart', function (e) {
    swallow(e);
    stopGlide();
    if (!started) return;
    // The page records where its widgets are from the first touch on (to know a text field).
    if (!touchSeen) { touchSeen = true; Module._tc_record_items(1); }
    if (touch && touch.timer) clearTimeout(touch.timer);
    if (e.touches.length !== 1) { touch = null; return; }
    var p = point(e.changedTouches[0]);
    touch = {x0: p.x, y0: p.y, x: p.x, y: p.y, t0: e.timeStamp, t: e.timeStamp, moved: false, long: false, vx: 0, vy: 0, timer: 0};
    touch.timer = setTimeout(function () {
      if (touch && !touch.moved) { touch.long = true; Module._tc_touch(1, touch.x, touch.y, 0, 0); }
    }, LONG_PRESS_MS);
  }, {capture: true, passive: false});
  canvas.addEventListener('touchmove', function (e) {
    swallow(e);
    if (!touch || e.touches.length !== 1) { if (touch) clearTimeout(touch.timer); touch = null; return; }
    // Speeds from the events' own times (when the finger was there, not when the page got to it).
    var p = point(e.changedTouches[0]), now = e.timeStamp;
    if (!touch.moved && Math.hypot(p.x - touch.x0, p.y - touch.y0) > TAP_SLOP) { touch.moved = true; clearTimeout(touch.timer); }
    if (touch.moved) {
      var dx = p.x - touch.x, dy = p.y - touch.y, dt = Math.max(1, now - touch.t);
      Module._tc_touch(2, p.x, p.y, -dx, -dy);
      touch.vx = 0.7 * (-dx / dt) + 0.3 * touch.vx;
      touch.vy = 0.7 * (-dy / dt) + 0.3 * touch.vy;
    }
    touch.x = p.x; touch.y = p.y; touch.t = now;
  }, {capture: true, passive: false});
  canvas.addEventListener('touchend', function (e) {
    swallow(e);
    if (!touch) return;
    var t = touch;
    touch = null;
    clearTimeout(t.timer);
    // How long the finger was down comes from the events' own times: on a busy phone the timer
    // can run before a short tap's lift is handled (that is still a tap), or not yet have run when
    // a long press's lift is (that still shows the tooltip).
    var held = e.timeStamp - t.t0;
    if (!t.moved && held >= LONG_PRESS_MS && !t.long) { t.long = true; Module._tc_touch(1, t.x, t.y, 0, 0); }
    if (!t.moved && held < LONG_PRESS_MS) {
      Module._tc_touch(0, t.x, t.y, 0, 0);
      if (Module._tc_text_input_at(t.x, t.y)) {
        proxy.style.left = t.x + 'px';
        proxy.style.top = t.y + 'px';
        proxy.value = '';
        proxy.focus({preventScroll: true});
      } else {
        canvas.focus({preventScroll: true});
      }
      return;
    }
    canvas.focus({preventScroll: true});
    if (!t.moved) return;
    // Momentum: the swipe keeps gliding and slows down (time constant about 325 ms), from at
    // most 3 px/ms (a flick).
    var cap = function (v) { return Math.max(-3, Math.min(3, v)); };
    var vx = cap(t.vx), vy = cap(t.vy), last = performance.now();
    if (Math.hypot(vx, vy) < 0.05) return;
    glide = {frame: 0};
    // Position follows time, however slowly frames come: v·τ·(1 − e^(−dt/τ)) in each step.
    var TAU = 325;
    var step = function (now) {
      var dt = Math.max(0, now - last);
      last = now;
      var travelled = TAU * (1 - Math.exp(-dt / TAU)), decay = Math.exp(-dt / TAU);
      var dx = vx * travelled, dy = vy * travelled;
      vx *= decay; vy *= decay;
      if (dx || dy) Module._tc_touch(2, t.x, t.y, dx, dy);
      if (Math.hypot(vx, vy) < 0.02) { glide = null; return; }
      glide.frame = requestAnimationFrame(step);
    };
    glide.frame = requestAnimationFrame(step);
  }, {capture: true, passive: false});
  canvas.addEventListener('touchcancel', function (e) {
    swallow(e);
    if (touch) clearTimeout(touch.timer);
    touch = null;
  }, {capture: true, passive: false});

  // The calculator: its wasm and fonts (in parallel with its script), then the module.
  var calculatorRequested = false;
  function startCalculator() {
    if (calculatorRequested) return;
    calculatorRequested = true;
    fetchCalculatorFiles();
    var script = document.createElement('script');
    script.src = 'traincost.js';
    script.async = true;
    script.onerror = function () { setOverlay('The calculator could not be downloaded. Check the connection and reload.', false); };
    document.body.appendChild(script);
    setOverlay('Loading the calculator…', true);
    // Keyboard input goes to the canvas; but inside an iframe, taking focus would scroll the host
    // page to the frame and steal the reader's keyboard, so there the user clicks in first.
    if (window.self === window.top) canvas.focus({preventScroll: true});
  }

  // The card of the reader's own scenario, from the card module (traincost-card.js, a fraction of
  // the calculator's bytes: web/card/card_main.cpp), shown in #first-answer as the pre-rendered
  // one is. Resolves to whether it is shown. Anything that goes wrong (a link the core refuses, a
  // failed download) resolves to false, silently: the calculator then opens as it always did and
  // says what is wrong with the link itself.
  var CARD_UNITS_PER_TASK = 16;  // the examples' cards take one or two tasks; a heavy scenario's unit about half a millisecond
  var cardRun = 0;  // the card being made; a change of address before the calculator runs ends it
  function showOwnCard(own) {
    var run = ++cardRun, text = own.text;
    return new Promise(function (resolve) {
      var script = document.createElement('script');
      script.src = 'traincost-card.js';
      script.onload = function () { resolve(typeof window.TrainCostCard === 'function'); };
      script.onerror = function () { resolve(false); };
      document.head.appendChild(script);
    }).then(function (loaded) {
      if (!loaded) return false;
      return window.TrainCostCard({print: function () {}, printErr: function () {}}).then(function (card) {
        var n = card.lengthBytesUTF8(text) + 1, p = card._malloc(n), started = 0;
        if (!p) return false;
        card.stringToUTF8(text, p, n);
        try { started = card._tc_card_start(p, n - 1, own.link ? 1 : 0); } finally { card._free(p); }
        if (!started) return false;
        // The evaluation a few units of work per task (web/card/card_main.cpp), the browser free
        // to draw and answer input between them.
        return new Promise(function (done) {
          var channel = new MessageChannel();
          channel.port1.onmessage = function () {
            var html = '';
            try {
              if (run !== cardRun) { /* for an address the page no longer has */ }
              else if (card._tc_card_step(CARD_UNITS_PER_TASK)) { channel.port2.postMessage(0); return; }
              var q = card._tc_card_html();
              if (q) { html = card.UTF8ToString(q); card._free(q); }
            } catch (e) { /* no card: the calculator opens as it always did */ }
            channel.port1.close();
            done(html);
          };
          channel.port2.postMessage(0);
        });
      }).then(function (html) {
        if (run !== cardRun || !/class="verdict"/.test(html)) return false;
        // The core escapes every text in the card (escape_html), as in the pre-rendered one.
        var fresh = document.createElement('template');
        fresh.innerHTML = html;
        var old = firstAnswer.querySelector('figure.traincost-card');
        if (old) old.parentNode.replaceChild(fresh.content, old);
        else firstAnswer.insertBefore(fresh.content, firstAnswer.firstChild);
        showFirstAnswer();
        return true;
      });
    }).catch(function () { return false; });
  }

  // The embed loads what it shows: the card, and the calculator (about three times the bytes)
  // only when the reader asks to change an input. Until then the card is the frame's content,
  // for screen readers too; the button is reached with Tab (the frame never takes the focus).
  function offerCalculator() {
    var actions = document.getElementById('card-actions');
    firstAnswer.removeAttribute('aria-hidden');
    actions.hidden = false;
    setOverlay('', false);
    document.body.classList.add('card-offered');
    document.getElementById('start-calculator').addEventListener('click', function () {
      actions.hidden = true;
      document.body.classList.remove('card-offered');
      firstAnswer.setAttribute('aria-hidden', 'true');
      startCalculator();
      canvas.focus({preventScroll: true});
    }, {once: true});
  }

  // On a slow connection parallel downloads share it: the calculator's files are fetched only
  // once the card is on screen, so that the card's few files come first.
  if (own) {
    showOwnCard(own).then(function (shown) {
      if (shown && embed) offerCalculator();
      else startCalculator();
    });
  } else if (embed && !firstAnswer.hidden) {
    offerCalculator();
  } else {
    startCalculator();
  }
})();
