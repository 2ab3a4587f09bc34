// Finding and using the calculator's widgets by name, never by pixel coordinates.
//
// The page records every ImGui item of a frame (web/item_registry.hpp) once a test asks: its name
// (a scenario field's path such as "options[1].porting.engineer_weeks", or the visible label of a
// button, tab, menu item, checkbox or combo), the scope it is in ("options[1]"), its rectangle,
// whether it can be seen, and whether it has the keyboard focus. These helpers look items up by
// name, scroll them into view, and click or tap their centre.
//
// A name may carry its scope: "options[1] > Duplicate" is the Duplicate button of option 1.
// Waiting is always for a condition (an item appearing, the page settling), never for a time.

// Turns recording on (once per page) and waits for a frame recorded with it.
async function ensureRecording(page) {
  const on = await page.evaluate(() => {
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return s.recording;
  });
  if (on) return;
  const before = await page.evaluate(() => Module._tc_frames_drawn());
  await page.evaluate(() => Module._tc_record_items(1));
  await page.waitForFunction((n) => Module._tc_frames_drawn() >= n + 2, before, { timeout: 10000 });
}

// Every item of the last frame.
export async function items(page) {
  await ensureRecording(page);
  return page.evaluate(() => {
    const p = Module._tc_items();
    const s = UTF8ToString(p);
    Module._free(p);
    return JSON.parse(s);
  });
}

function parse(name) {
  const at = name.indexOf(' > ');
  return at < 0 ? { scope: null, name } : { scope: name.slice(0, at), name: name.slice(at + 3) };
}

function matches(list, query) {
  const { scope, name } = parse(query);
  return list.filter((i) => i.name === name && (scope === null || i.scope === scope || i.scope.startsWith(`${scope}.`)));
}

// The item named `name` (waits until the page shows exactly one). With { visible: true } (the
// default) it is scrolled into view first.
export async function find(page, name, { visible = true, timeout = 10000 } = {}) {
  await ensureRecording(page);
  const deadline = Date.now() + timeout;
  let last = [];
  let revealed = false;
  for (;;) {
    const list = await items(page);
    last = matches(list, name);
    if (last.length === 1 && (!visible || last[0].visible)) {
      if (!visible) return last[0];
      // The layout may still be moving (a line appearing above it, a scroll into view): wait
      // until the item has stayed in place for a frame before using its rectangle.
      await nextFrames(page, 1);
      const again = matches(await items(page), name);
      if (again.length === 1 && again[0].visible && again[0].x === last[0].x && again[0].y === last[0].y) return again[0];
      if (Date.now() > deadline) break;
      continue;
    }
    if (last.length === 1 && visible && !revealed) {
      const before = await page.evaluate(() => Module._tc_frames_drawn());
      await page.evaluate((n) => {
        const len = lengthBytesUTF8(n) + 1, p = Module._malloc(len);
        stringToUTF8(n, p, len);
        Module._tc_reveal(p);
        Module._free(p);
      }, parse(name).name);
      await page.waitForFunction((n) => Module._tc_frames_drawn() >= n + 2, before, { timeout: 10000 });
      revealed = true;
      continue;
    }
    if (Date.now() > deadline) break;
    await nextFrames(page, 1);
  }
  const similar = (await items(page)).filter((i) => i.name && i.name.toLowerCase().includes(parse(name).name.toLowerCase().slice(0, 6)))
    .slice(0, 12).map((i) => `${i.scope ? i.scope + ' > ' : ''}${i.name}${i.visible ? '' : ' (hidden)'}`);
  throw new Error(`no single ${visible ? 'visible ' : ''}item "${name}" (found ${last.length}); similar: ${similar.join(', ')}`);
}

// True when an item with this name is on the page this frame.
export async function exists(page, name) {
  return matches(await items(page), name).length > 0;
}

// Waits until the page has drawn `n` more frames (input is fed to ImGui over frames).
export async function nextFrames(page, n = 1) {
  const before = await page.evaluate(() => Module._tc_frames_drawn());
  await page.evaluate(() => Module._tc_wake());
  await page.waitForFunction((m) => Module._tc_frames_drawn() >= m, before + n, { timeout: 10000 });
}

export function centre(item) {
  return { x: item.x + item.w / 2, y: item.y + item.h / 2 };
}

// Touch gestures through the DevTools protocol. Each event carries its own time, so the page sees
// the finger's speed and how long it was down however busy the machine is when the events arrive.
export async function fingers(page) {
  const cdp = await page.context().newCDPSession(page);
  let clock = Date.now() / 1000;
  const send = (type, points, dt = 0.016) => {
    clock += dt;
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })), timestamp: clock });
  };
  return {
    // A finger down for 50 ms. With `gap` (ms), the lift is sent that much later on the wall clock
    // (a page too busy to handle it sooner); its time still says 50 ms.
    async tap(x, y, { gap = 0 } = {}) {
      await send('touchStart', [[x, y]]);
      if (gap) await new Promise((r) => setTimeout(r, gap));
      await send('touchEnd', [], 0.05);
    },
    // A finger moving at the screen's rate: one touch move per 16 ms.
    async swipe(x, y0, y1, steps = 8) {
      await send('touchStart', [[x, y0]]);
      for (let i = 1; i <= steps; ++i) await send('touchMove', [[x, y0 + ((y1 - y0) * i) / steps]]);
      await send('touchEnd', []);
    },
    // A finger held until `shown` (the page's answer to a long press) appears, then lifted.
    async longPress(x, y, shown) {
      await send('touchStart', [[x, y]]);
      await page.waitForFunction(shown, null, { timeout: 10000 });
      await send('touchEnd', [], 0.6);
    },
    async pinch(x, y) {
      await send('touchStart', [[x - 20, y], [x + 20, y]]);
      for (let i = 1; i <= 6; ++i) await send('touchMove', [[x - 20 - i * 15, y], [x + 20 + i * 15, y]]);
      await send('touchEnd', []);
    },
    close: () => cdp.detach(),
  };
}

export async function tap(page, x, y, options) {
  const f = await fingers(page);
  await f.tap(x, y, options);
  await f.close();
}

// Clicks (or, on a touch page, taps) the centre of the named item and waits until the page has
// acted on it (the press and release are fed over the next frames).
export async function click(page, name, { touch = false, double = false, settle = true } = {}) {
  const item = await find(page, name);
  const { x, y } = centre(item);
  if (touch) {
    await tap(page, x, y);
    if (settle) await settleInput(page);
    return item;
  }
  // The page holds back a press that arrives with a move for a frame (ImGui needs the pointer
  // over an item for a frame first), so the click needs no wait of its own.
  await page.mouse.click(x, y, { clickCount: double ? 2 : 1 });
  if (settle) await settleInput(page);
  return item;
}

// Waits until no input is queued in the page and the frames it promised are drawn.
export async function settleInput(page) {
  await page.waitForFunction(() => {
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return s.input_idle;
  }, null, { timeout: 10000 });
}

// Clicks a text field, waits until it is being edited, replaces its text and commits with Enter.
// With { settle: false } it returns once the keys are sent (the caller waits for their effect).
export async function type(page, name, text, { enter = true, touch = false, settle = true } = {}) {
  await click(page, name, { touch, settle: false });
  await page.waitForFunction((n) => {
    const p = Module._tc_items();
    const list = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return list.some((i) => i.name === n && i.active);
  }, parse(name).name, { timeout: 10000 }).catch(async () => {
    throw new Error(`${name}: a click did not start editing it (${JSON.stringify((await items(page)).find((i) => i.name === parse(name).name))}); ` +
                    `input: ${(await trace(page)).slice(-500)}`);
  });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(text));
  if (enter) await page.keyboard.press('Enter');
  if (settle) await settleInput(page);
}

// Pastes `text` into a text field, as a user does: it goes on the clipboard, and Ctrl+V in the
// field brings it in through the page's paste event (long texts would take long to type).
export async function paste(page, name, text) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await click(page, name, { settle: false });
  await page.waitForFunction((n) => {
    const p = Module._tc_items();
    const list = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return list.some((i) => i.name === n && i.active);
  }, parse(name).name, { timeout: 10000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await settleInput(page);
}

// The last input the page fed to ImGui, for error messages.
export async function trace(page) {
  return page.evaluate(() => {
    const p = Module._tc_trace();
    const s = UTF8ToString(p);
    Module._free(p);
    return s;
  });
}

// The name of the item with the keyboard focus ("" when none).
export async function focused(page) {
  const list = await items(page);
  const f = list.find((i) => i.focused);
  return f ? (f.scope && !f.name.startsWith(f.scope) ? `${f.scope} > ${f.name}` : f.name) : '';
}

export async function rect(page, name) {
  const i = await find(page, name, { visible: false });
  return { x: i.x, y: i.y, w: i.w, h: i.h, visible: i.visible };
}

// Waits for the page's own "settled" signal: results computed, Monte Carlo done, the link in the
// address bar and the autosave written, no input queued, no frames pending.
export async function settled(page, { timeout = 60000 } = {}) {
  await page.evaluate(() => Module._tc_wake());
  await page.waitForFunction(() => {
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return s.settled;
  }, null, { timeout });
}

// The scenario being edited, in full.
export async function scenario(page) {
  return page.evaluate(() => {
    const p = Module._tc_scenario();
    const s = UTF8ToString(p);
    Module._free(p);
    return JSON.parse(s);
  });
}

export async function stats(page) {
  return page.evaluate(() => {
    const p = Module._tc_stats();
    const s = UTF8ToString(p);
    Module._free(p);
    return JSON.parse(s);
  });
}
