// The page fed by the real engine on the embedded demo cluster, as the extension shows it.
// KR_SCREENSHOTS=1 also saves the light and dark screenshots the README shows (docs/images/).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { Inventory } from '../../server/src/inventory/inventory';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { simulationInputOf } from '../../server/src/simulate/input-view';
import { simulate } from '../../server/src/simulate/simulate';
import type { Scenario } from '../../server/src/simulate/types';
import { describeInChromium } from './harness';
import type { ThemeName } from './themes';

describeInChromium('simulation webview on the demo cluster', (harness) => {
  const cluster = demoCluster();
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  const inputs = buildSimInputs(inventory, cluster);
  const input = simulationInputOf(inputs, cluster);
  const scenario: Scenario = { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: 'worker-a2', at: 600 }] };
  const result = simulate(inputs.topology, inputs.workloads, scenario);

  for (const theme of ['light', 'dark'] as ThemeName[]) {
    test(`draws every workload of the engine's result (${theme} theme)`, async () => {
      const view = await harness().open({ theme, savedState: { scenario } });
      await view.send({ type: 'input', input });
      assert.deepEqual(((await view.waitForPosted('simulate')) as { scenario: Scenario }).scenario, scenario);
      await view.send({ type: 'result', result });
      const workloadRows = await view.page.locator('.row.workload').count();
      assert.equal(workloadRows, result.workloads.length);
      assert.equal(await view.page.getByRole('region', { name: 'What happens first' }).getByRole('listitem').count(), result.summary!.length);
      assert.deepEqual(view.consoleErrors, []);
      assert.deepEqual(view.strayRequests(), []);
      if (process.env.KR_SCREENSHOTS) {
        mkdirSync('docs/images', { recursive: true });
        await view.page.getByRole('group', { name: 'legacy/billing' }).locator('.segment.state-degraded').first().hover();
        await view.page.screenshot({ path: `docs/images/simulation-${theme}.png`, fullPage: true });
      }
      await view.page.close();
    });
  }
});
