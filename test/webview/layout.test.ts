// The simulator page reads cleanly from 800 to 2,000 px wide, in light, dark and both high-contrast themes,
// judged from the browser's own boxes and computed colours, not by eye. Every width and theme also leaves a
// screenshot in test-artifacts/webview/ for a person to look at.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { FromWebview, SimulationInput } from '../../server/src/simulate/messages';
import type { SimulationResult } from '../../server/src/simulate/types';
import { textContrast } from './contrast';
import { input, inputWithLongNodeName, inputWithLongPodName, lateRecovery, LONG_NODE_NAME, LONG_WORKLOAD_NAME, result } from './fixtures';
import { describeInChromium, type Harness, type WebviewPage } from './harness';
import { type Label, readLabels } from './label-boxes';
import { CONTAINERS, cutOffLabels, LABELS, named, nodeNamesBrokenInsideWords, overlappingLabels } from './layout-checks';
import { THEMES, type ThemeName } from './themes';

/** 900 px is where the problems were first reported. */
const WIDTHS = [800, 900, 1200, 2000];

/** WCAG AA for text of normal size. */
const MINIMUM_CONTRAST = 4.5;

function shortenedWithoutTitle(labels: Label[]): string[] {
  return labels.filter((label) => label.truncated && !label.title).map((label) => `${named(label)} ends in an ellipsis with no title to show it whole`);
}

function faintLabels(labels: Label[]): string[] {
  return labels
    .filter((label) => !label.disabled)
    .flatMap((label) => label.inks.map((ink) => ({ label, ink, ratio: textContrast(ink.colour, ink.opacity, ink.backgrounds) })))
    .filter(({ ratio }) => ratio < MINIMUM_CONTRAST)
    .map(({ label, ink, ratio }) => `${named(label)}: "${ink.text}" in ${ink.colour} has contrast ${ratio.toFixed(2)}:1 over ${ink.backgrounds.find((b) => b !== 'rgba(0, 0, 0, 0)') ?? 'the canvas'}`);
}

/** Selects, fields and buttons drawn past the edge of the fieldset they belong to. */
function controlsOutsideTheirFieldset(view: WebviewPage): Promise<string[]> {
  return view.page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('fieldset select, fieldset input, fieldset button'))
      .filter((control) => control.checkVisibility())
      .filter((control) => {
        const box = control.getBoundingClientRect();
        const fieldset = control.closest('fieldset')!.getBoundingClientRect();
        return box.left < fieldset.left - 0.5 || box.right > fieldset.right + 0.5;
      })
      .map((control) => `${control.tagName.toLowerCase()} "${control.getAttribute('aria-label') ?? control.textContent}" runs out of its fieldset`),
  );
}

interface TimelineRow {
  name: string;
  track: { left: number; right: number };
  segments: { left: number; right: number; radii: string[] }[];
}

function readRows(view: WebviewPage): Promise<TimelineRow[]> {
  return view.page.evaluate(() =>
    Array.from(document.querySelectorAll('.timeline .row[data-row]')).map((row) => ({
      name: row.getAttribute('aria-label') ?? '',
      track: row.querySelector('.track')!.getBoundingClientRect().toJSON(),
      segments: Array.from(row.querySelectorAll('.segment')).map((segment) => {
        const box = segment.getBoundingClientRect();
        const style = getComputedStyle(segment);
        return { left: box.left, right: box.right, radii: [style.borderTopLeftRadius, style.borderTopRightRadius, style.borderBottomRightRadius, style.borderBottomLeftRadius] };
      }),
    })),
  );
}

/** Where one segment ends the next begins, square-cornered; together they span the track. */
function seams(rows: TimelineRow[]): string[] {
  return rows.flatMap(({ name, track, segments }) => [
    ...(Math.abs(segments[0].left - track.left) < 0.5 && Math.abs(segments.at(-1)!.right - track.right) < 0.5 ? [] : [`${name}: segments do not span the track`]),
    ...segments.slice(1).flatMap((next, i) => {
      const before = segments[i];
      const gap = next.left - before.right;
      return [
        ...(Math.abs(gap) < 0.5 ? [] : [`${name}: ${gap.toFixed(2)} px between segments ${i} and ${i + 1}`]),
        ...(before.radii[1] === '0px' && before.radii[2] === '0px' && next.radii[0] === '0px' && next.radii[3] === '0px' ? [] : [`${name}: segments ${i} and ${i + 1} meet at rounded corners, leaving notches`]),
      ];
    }),
  ]);
}

/** The page after its layout has been measured and fitted (a resize observer runs before the next frame). */
async function settled(view: WebviewPage): Promise<void> {
  await view.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function layoutSpecification(t: TestContext, view: WebviewPage): Promise<Label[]> {
  const labels = await readLabels(view.page, LABELS, CONTAINERS);
  await t.test('shows the axis ticks and the outage marker', () => {
    assert.ok(labels.filter((l) => l.kind === 'axis tick').length >= 3, 'at least three ticks');
    assert.equal(labels.filter((l) => l.kind === 'outage marker').length, 1);
  });
  await t.test('no two labels overlap', () => assert.deepEqual(overlappingLabels(labels), []));
  await t.test('no label runs out of its container or the viewport, and the page does not scroll sideways', async () => {
    assert.deepEqual(cutOffLabels(labels), []);
    assert.equal(await view.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
  });
  await t.test('every control stays inside its fieldset', async () => assert.deepEqual(await controlsOutsideTheirFieldset(view), []));
  await t.test('node names wrap between words or end in an ellipsis, never break inside a word', () => assert.deepEqual(nodeNamesBrokenInsideWords(labels), []));
  await t.test('a label cut short by an ellipsis carries a title', () => assert.deepEqual(shortenedWithoutTitle(labels), []));
  await t.test('adjacent segments of a row touch, with no seam between them', async () => assert.deepEqual(seams(await readRows(view)), []));
  return labels;
}

describeInChromium('simulation webview layout from 800 to 2,000 px', (harness) => {
  async function loaded(options: Parameters<Harness['open']>[0], cluster: SimulationInput = input, timeline: SimulationResult = result): Promise<WebviewPage> {
    const view = await harness().open(options);
    await view.send({ type: 'input', input: cluster });
    await view.send({ type: 'result', result: { ...timeline, scenario: ((await view.waitForPosted('simulate')) as Extract<FromWebview, { type: 'simulate' }>).scenario } });
    await settled(view);
    return view;
  }

  for (const width of WIDTHS) {
    for (const theme of Object.keys(THEMES) as ThemeName[]) {
      test(`${width} px, ${theme} theme`, async (t) => {
        const view = await loaded({ width, theme });
        await view.screenshot(`layout-${width}-${theme}`);
        const labels = await layoutSpecification(t, view);
        await t.test(`every label has a contrast of at least ${MINIMUM_CONTRAST}:1 with what is behind it`, () => assert.deepEqual(faintLabels(labels), []));
        assert.deepEqual(view.consoleErrors, []);
        await view.page.close();
      });
    }

    test(`${width} px: a pod named as long as Kubernetes allows stays inside its node's card (it ran over the next card, which took its clicks, and the page scrolled sideways)`, async (t) => {
      const view = await loaded({ width }, inputWithLongPodName);
      await layoutSpecification(t, view);
      await t.test('the pod stays clickable', async () => {
        await view.page.getByRole('button', { name: new RegExp(LONG_WORKLOAD_NAME.slice(0, 20)) }).first().click({ timeout: 2_000 });
      });
      await view.page.close();
    });

    test(`${width} px: an axis that ends just past a tick, and a node named by a cloud provider`, async (t) => {
      const view = await loaded({ width }, inputWithLongNodeName, lateRecovery);
      await view.screenshot(`layout-${width}-late-recovery`);
      const labels = await layoutSpecification(t, view);
      await t.test('the last tick, 2 h 30 m, is shown whole', () => assert.ok(labels.some((l) => l.kind === 'axis tick' && l.text === '2 h 30 m'), labels.filter((l) => l.kind === 'axis tick').map((l) => l.text).join(', ')));
      await t.test('the long node name is shown or titled in full wherever it appears', () => {
        const showingIt = labels.filter((l) => l.text.includes(LONG_NODE_NAME.slice(0, 12)));
        assert.ok(showingIt.length >= 2, 'on its card and among the nodes to fail');
        for (const label of showingIt) assert.ok(!label.truncated || label.title.includes(LONG_NODE_NAME), `${named(label)} hides the rest of its name`);
      });
      await view.page.close();
    });
  }
});
