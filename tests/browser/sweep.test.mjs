// The page's cluster-size sweep chart (issue 18 item 5): its figures are the CLI's (`traincost
// sweep FILE --format json`), the deadline shows as a labelled line when a workload has one, every
// point can be found and hovered by name, and the chart reads at three page sizes. Also records
// what the sweep adds to a recompute with eight options (no timing is asserted).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, writeJson, closeClean, sameJson } from './lib/harness.mjs';
import { cli, cliJson, linkFor, scenarioPath } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();
const measurements = {};

async function open(link, viewport = { width: 1280, height: 800 }) {
  const opened = await openPage(browser, `${url}calculator.html${link}`, { viewport });
  await waitForCalculator(opened.page);
  await ui.settled(opened.page);
  return opened;
}

// The sweep in the page's text mirror: the CLI's text and JSON.
async function mirrorSweep(page) {
  return page.evaluate(() => {
    const node = document.querySelector('#results-mirror .sweep');
    return node ? { text: node.textContent, data: JSON.parse(node.getAttribute('data-json')), workload: node.getAttribute('data-workload') } : null;
  });
}
const notes = async (page, name) => (await ui.items(page)).filter((i) => i.name === name);

// A scenario with eight options (the page's maximum) for the cost of a recompute.
function eightOptions() {
  const options = [['trn2.48xlarge', 16], ['p5.48xlarge', 32], ['trn1.32xlarge', 32], ['p4d.24xlarge', 32], ['p4de.24xlarge', 32],
    ['trn2.48xlarge', 32], ['p5en.48xlarge', 16], ['p6-b200.48xlarge', 16]];
  return {
    version: 1,
    name: 'eight options',
    workloads: [{ model: { params: 8.03e9, layers: 32, hidden: 4096, heads: 32, seq_len: 8192, vocab: 128256 }, target: { tokens: 2e12 }, runs: 6, deadline_days: 20 }],
    options: options.map(([instance, instances]) => ({ instance, instances })),
  };
}

try {
  await run('sweep', {
    async 'the chart draws the CLI sweep of the selected workload, with the deadline as a labelled line'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'));
      const cliData = cliJson(['sweep', scenarioPath('llama3-8b-deadline'), '--format', 'json']);
      const m = await mirrorSweep(page);
      assert(m, 'the mirror has the sweep');
      sameJson(m.data, cliData, 'sweep');
      assertEqual(m.text, cli(['sweep', scenarioPath('llama3-8b-deadline')]), 'the mirror reads as the CLI text');
      // Its ~100 lines are not re-read to a screen reader after every edit: outside the live
      // region, which keeps the verdict.
      const live = await page.evaluate(() => ({
        sweep: !!document.querySelector('#results-mirror .sweep').closest('[aria-live]'),
        verdict: !!document.querySelector('#results-mirror .verdict').closest('[aria-live]'),
      }));
      assertEqual(JSON.stringify(live), JSON.stringify({ sweep: false, verdict: true }), 'what the live region holds');
      // Every point that runs is drawn, named by its option and instance count.
      await ui.find(page, 'chart: sweep');
      const list = await ui.items(page);
      let drawn = 0;
      for (const option of cliData.options)
        for (const p of option.points.filter((q) => q.feasible)) {
          const name = `sweep point: ${option.label} @ ${p.instances.toLocaleString('en-US')}`;
          assert(list.some((i) => i.name === name), `point ${name} is drawn`);
          ++drawn;
        }
      assertEqual(list.filter((i) => i.name.startsWith('sweep point: ')).length, drawn, 'one point per size that runs, no more');
      const guide = await notes(page, 'sweep guide');
      assertEqual(guide.length, 1, 'one deadline line');
      assertEqual(guide[0].text, 'deadline 10 days', 'the deadline line is labelled');
      for (const option of cliData.options)
        assert(list.some((i) => i.name === `legend: ${option.label}` && i.color === list.find((p) => p.name.startsWith(`sweep point: ${option.label} @`)).color),
          `the legend names ${option.label} in its points' colour`);
      const axes = await notes(page, 'sweep axes');
      assert(/days until the model is done/.test(axes[0].text), `the x axis is labelled: ${axes[0].text}`);
      measurements.axes = axes[0].text;
      await screenshot(page, 'sweep-1280x800');
      await closeClean(context, log);
    },

    async 'hovering a point names its option, instance count, days and cost'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'));
      const option = cliJson(['sweep', scenarioPath('llama3-8b-deadline'), '--format', 'json']).options[0];
      // The size the results use (the deadline's: more than the option's own 16).
      const n = option.evaluated_instances;
      const p = option.points.find((q) => q.instances === n);
      // The chart into view first: its points are named only where they are drawn, and the lines
      // under the headline (the odds of making the deadline) put it below the first screen.
      await ui.find(page, 'chart: sweep');
      const point = await ui.find(page, `sweep point: ${option.label} @ ${n}`);
      await page.mouse.move(point.x + point.w / 2, point.y + point.h / 2);
      await ui.nextFrames(page, 3);
      const tip = await notes(page, 'sweep tooltip');
      assertEqual(tip.length, 1, 'a tooltip is shown');
      const text = tip[0].text;
      assert(text.startsWith(`${option.label}\n${n} instances (${p.chips} chips)`), `names the option and count: ${text}`);
      const days = cli(['sweep', scenarioPath('llama3-8b-deadline')]).split('\n').find((l) => new RegExp(`^\\s+${n}\\s`).test(l)).trim().split(/\s{2,}/)[1];
      assert(text.includes(`${days} until the model is done`), `gives the days (${days}): ${text}`);
      assert(text.includes(`$${Math.round(p.cost_per_run_usd).toLocaleString('en-US')} per run`), `gives the cost: ${text}`);
      assert(text.includes('the size the results use'), `${n} is the size in the results`);
      await screenshot(page, 'sweep-tooltip');
      await closeClean(context, log);
    },

    async 'no deadline, no line; typing one draws it and the chart follows the edit'() {
      const { page, context, log } = await open(linkFor('llama3-8b-pretrain'));
      await ui.find(page, 'chart: sweep');
      assertEqual((await notes(page, 'sweep guide')).length, 0, 'no deadline line without a deadline');
      await screenshot(page, 'sweep-no-deadline-1280x800');
      assertEqual((await mirrorSweep(page)).data.deadline_days, null, 'no deadline in the data');
      await ui.type(page, 'workloads[0].deadline_days', '30');
      await ui.settled(page);
      const m = await mirrorSweep(page);
      assertEqual(m.data.deadline_days, 30, 'the sweep has the deadline');
      await ui.find(page, 'chart: sweep');
      const guide = await notes(page, 'sweep guide');
      assertEqual(guide.length === 1 && guide[0].text, 'deadline 30 days', 'the line appears, labelled');
      // The edited scenario, through the CLI, gives the same sweep.
      const dir = mkdtempSync(join(tmpdir(), 'traincost-sweep-'));
      const file = join(dir, 'edited.json');
      writeFileSync(file, JSON.stringify(await ui.scenario(page)));
      sameJson(m.data, cliJson(['sweep', file, '--format', 'json']), 'edited sweep');
      await closeClean(context, log);
    },

    async 'the chart at 800×1000 and 390×844'() {
      for (const [w, h] of [[800, 1000], [390, 844]]) {
        const { page, context, log } = await open(linkFor('llama3-8b-deadline'), { width: w, height: h });
        const chart = await ui.find(page, 'chart: sweep');
        assert(chart.w > 0.8 * (w - 60), `the chart takes the width at ${w}: ${chart.w}`);
        const guide = await notes(page, 'sweep guide');
        assertEqual(guide.length, 1, `the deadline line at ${w}×${h}`);
        await screenshot(page, `sweep-${w}x${h}`);
        await closeClean(context, log);
      }
    },

    async 'what the sweep costs a recompute, with eight options (recorded, not asserted)'() {
      const dir = mkdtempSync(join(tmpdir(), 'traincost-sweep-'));
      const file = join(dir, 'eight.json');
      writeFileSync(file, JSON.stringify(eightOptions()));
      const { page, context, log } = await open(cli(['link', file]).trim());
      const samples = [];
      for (const runs of [7, 8, 9, 10, 11]) {
        await ui.type(page, 'workloads[0].runs', String(runs));
        await ui.settled(page);
        const s = await ui.stats(page);
        samples.push({ compute_ms: s.last_compute_ms, sweep_ms: s.last_sweep_ms, frame_ms: s.last_recompute_frame_ms });
      }
      const sweep = await mirrorSweep(page);
      assertEqual(sweep.data.options.length, 8, 'eight options swept');
      // The recompute after an edit (evaluation, link, text mirror) no longer includes the sweep,
      // which runs after a pause in editing; were it inside, an edit would cost the sum.
      const median = (k) => samples.map((x) => x[k]).sort((a, b) => a - b)[2];
      measurements.eight_options = {
        samples,
        median_recompute_ms: median('compute_ms'),
        median_sweep_ms: median('sweep_ms'),
        median_recompute_with_sweep_inside_ms: median('compute_ms') + median('sweep_ms'),
        points: sweep.data.options.reduce((n, o) => n + o.points.length, 0),
      };
      console.log(`      eight options: ${JSON.stringify(measurements.eight_options)}`);
      await closeClean(context, log);
    },
  });
} finally {
  writeJson('sweep-measurements.json', measurements);
  await browser.close();
  server.close();
}
