import { formatSeconds } from '../../server/src/simulate/format-time';
import { el } from './dom';

const TICK_STEPS = [30, 60, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400];
/** The most ticks an axis starts with, before it is measured. */
const MAX_TICKS = 8;
/** The least room between two tick labels, in pixels. */
const TICK_GAP = 8;

/** Where `seconds` falls on an axis that ends at `end`, as a share of its width. */
export function position(seconds: number, end: number): string {
  return `${((seconds / end) * 100).toFixed(3)}%`;
}

function ticksEvery(step: number, end: number): HTMLElement[] {
  const ticks: HTMLElement[] = [];
  for (let t = 0; t <= end; t += step) ticks.push(el('span', { class: 'tick', style: { left: position(t, end) } }, formatSeconds(t)));
  return ticks;
}

/** Each label clear of the next, and the last one inside the track: turned to end at its line when it would run out. */
function ticksFit(ticks: HTMLElement[], track: DOMRect): boolean {
  const last = ticks[ticks.length - 1];
  if (last && last.getBoundingClientRect().right > track.right) last.classList.add('tick-end');
  const boxes = ticks.map((tick) => tick.getBoundingClientRect());
  return boxes.every((box, i) => box.left >= track.left && box.right <= track.right && (i === 0 || boxes[i - 1].right + TICK_GAP <= box.left));
}

/** The marker's words point back at the outage; with no room on that side they follow the line instead. */
function placeMarker(marker: HTMLElement | null, track: DOMRect): void {
  if (!marker) return;
  marker.classList.remove('recovery-mark-after');
  if (marker.getBoundingClientRect().left < track.left) marker.classList.add('recovery-mark-after');
}

/**
 * The finest ticks whose labels fit the track's width as it is now: labels measured in the page, since their
 * widths depend on the font and the panel's width on the editor. Runs again whenever the track is resized.
 */
function fitAxis(track: HTMLElement, end: number): void {
  const box = track.getBoundingClientRect();
  if (!box.width) return;
  const steps = TICK_STEPS.filter((step) => step >= (TICK_STEPS.find((s) => end / s <= MAX_TICKS) ?? TICK_STEPS[TICK_STEPS.length - 1]));
  for (const step of steps) {
    track.querySelectorAll('.tick').forEach((tick) => tick.remove());
    const ticks = ticksEvery(step, end);
    track.prepend(...ticks);
    if (ticksFit(ticks, box)) break;
  }
  placeMarker(track.querySelector<HTMLElement>('.recovery-mark'), box);
}

/** The time axis: ticks on the lower lane, and above them, on a lane of its own, where the control plane comes back. */
export function renderAxis(end: number, outage: number): HTMLElement {
  const track = el('div', { class: 'track' }, outage > 0 ? el('span', { class: 'recovery-mark', style: { left: position(outage, end) } }, 'control plane back') : null);
  const observer = new ResizeObserver(() => (track.isConnected ? fitAxis(track, end) : observer.disconnect()));
  observer.observe(track);
  return el('div', { class: `row axis${outage > 0 ? ' marked' : ''}`, attrs: { 'aria-hidden': 'true' } }, el('div', { class: 'row-label' }), track);
}
