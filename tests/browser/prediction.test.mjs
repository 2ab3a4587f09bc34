// Predicted utilization on the page (issue 13, row 9): each option shows the layout the search
// chose, its predicted MFU and where its step time goes, with how far the prediction has been
// wrong and a link to the validation table; the user pins a layout key and types an MFU, and the
// scenario (read back through the JS API) and its results say so.
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator } from './lib/harness.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();

const note = async (page, name) => {
  const found = (await ui.items(page)).filter((i) => `${i.name}` === name || `${i.scope} > ${i.name}` === name);
  assertEqual(found.length, 1, `one note "${name}" (found ${found.length})`);
  return found[0].text.replace(/\s+/g, ' ');
};
// The scenario in the address bar and its results, through window.TrainCost.
const fromApi = (page) => page.evaluate(() => {
  const link = JSON.parse(TrainCost.decodeLink(location.hash));
  const results = JSON.parse(TrainCost.evaluate(JSON.stringify(link.scenario)));
  return { scenario: link.scenario, results };
});
const layoutText = (l) => `TP${l.tensor} PP${l.pipeline}`;

try {
  await run('prediction', {
    async 'each option shows its layout, predicted MFU, step-time breakdown and error, as the JS API computes them'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const { scenario, results } = await fromApi(page);
      for (let o = 0; o < scenario.options.length; ++o) {
        const perf = results.workloads[0].options[o].performance;
        assertEqual(perf.source, 'predicted', `option ${o} is predicted`);
        const layout = await note(page, `options[${o}] > layout`);
        assert(layout.startsWith(layoutText(perf.layout)), `option ${o}: the page shows ${layout}, the API ${JSON.stringify(perf.layout)}`);
        // The MFU field shows the predicted MFU, muted, while none is typed.
        const field = await ui.find(page, `options[${o}].mfu`);
        assert(Math.abs(Number(field.text) - perf.mfu) < 0.0051, `option ${o}: the MFU field shows ${field.text}, predicted ${perf.mfu}`);
        assert((await note(page, `options[${o}].mfu source`)).endsWith('predicted'), 'the MFU is marked predicted');
        // Where the step time goes: the bar's parts, largest compute, in the API's proportions.
        await ui.find(page, `options[${o}] > chart: step time`);
        const step = await note(page, `options[${o}].step time`);
        const b = perf.breakdown_s;
        const total = Object.values(b).reduce((a, v) => a + v, 0);
        const computeShare = `Compute ${Math.round((b.compute / total) * 100)}%`;
        assert(step.includes(computeShare), `option ${o}: ${step} has ${computeShare}`);
        const how = await note(page, `options[${o}] > prediction`);
        assert(/predicted from hardware specs and \d+ public measurements \(median error \d+(\.\d+)?%[,)]/i.test(how), `option ${o}: ${how}`);
        if (!perf.error_band.validated) assert(how.startsWith('≈'), `an unmeasured chip's prediction is marked an estimate: ${how}`);
      }
      // The validation table opens in a new tab.
      const opened = context.waitForEvent('page');
      await ui.click(page, 'options[0] > Validation table');
      const table = await opened;
      assert(table.url().endsWith('methodology.html#validation'), `opened ${table.url()}`);
      await table.close();
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },

    async 'a pinned layout key and a typed MFU reach the scenario and the results'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const before = await fromApi(page);
      const h100 = before.scenario.options.findIndex((o) => o.instance.startsWith('p5'));
      assert(h100 >= 0, 'the default example has an H100 option');
      const searched = before.results.workloads[0].options[h100].performance.layout;
      const tensor = searched.tensor === 4 ? 2 : 4;
      await ui.click(page, 'Pin the layout');
      await ui.type(page, `workloads[0].overrides[option ${h100}].parallelism.tensor`, String(tensor));
      await ui.type(page, `options[${h100}].mfu`, '0.35');
      await ui.settled(page);
      const { scenario, results } = await fromApi(page);
      const override = (scenario.workloads[0].overrides || []).find((ov) => ov.option === h100);
      assert(override, `an override for option ${h100}: ${JSON.stringify(scenario.workloads[0].overrides)}`);
      assertEqual(JSON.stringify(override.parallelism), JSON.stringify({ tensor }), 'only the tensor degree is pinned');
      assertEqual(scenario.options[h100].mfu, 0.35, 'the MFU typed is the option\'s own');
      const perf = results.workloads[0].options[h100].performance;
      assertEqual(perf.source, 'mfu', 'the throughput comes from the typed MFU');
      assertEqual(perf.layout.tensor, tensor, 'the layout keeps the pinned tensor degree');
      // The page says the same.
      assert((await note(page, `options[${h100}] > layout`)).startsWith(`TP${tensor} `), 'the page shows the pinned degree');
      assertEqual(await note(page, `options[${h100}].mfu source`), 'yours', 'the MFU is the user\'s');
      assert((await note(page, `options[${h100}] > prediction`)).startsWith('Prediction unused'), 'the prediction is not what runs');
      // The pin's "default" button lets the search choose again.
      await ui.click(page, `workloads[0].overrides[option ${h100}].parallelism.tensor#default`);
      await ui.settled(page);
      const after = await fromApi(page);
      assert(!(after.scenario.workloads[0].overrides || []).some((ov) => ov.option === h100 && ov.parallelism),
        `unpinned: ${JSON.stringify(after.scenario.workloads[0].overrides)}`);
      await screenshot(page, 'prediction-pinned');
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
