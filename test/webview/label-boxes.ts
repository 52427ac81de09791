// Where the page's text labels are painted, read from the browser's own boxes (Range and element client rects),
// with what a reader needs to judge them: the box they belong in, what clips them, how their words wrap, their colours.
import type { Frame, Page } from 'playwright-core';

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Ink {
  text: string;
  colour: string;
  /** The product of the opacities of the text's element and its ancestors. */
  opacity: number;
  /** Background colours from the text's element out to <html>. */
  backgrounds: string[];
}

export interface Label {
  /** The kind of label, as named by the caller (`axis tick`, `node name`…). */
  kind: string;
  text: string;
  /** The text's line boxes together, each cut at the edge of an element inside the label that clips it (an ellipsis). */
  textBox: Box;
  /** The box the label is drawn in: its track, row label, node card, legend or fieldset. */
  container: Box;
  /** The nearest ancestor that clips or scrolls sideways, or else the viewport. */
  clip: Box;
  /** Words whose letters are painted on more than one line. */
  brokenWords: string[];
  /** Some of its text is cut short (by an ellipsis). */
  truncated: boolean;
  /** The title that shows the whole text on hover: of the element that cuts it short, or an ancestor. */
  title: string;
  /** In a disabled control: WCAG asks no contrast of inactive components. */
  disabled: boolean;
  inks: Ink[];
}

/** Every visible element matching a kind's selector, in document order per kind. */
export async function readLabels(page: Page | Frame, kinds: Record<string, string>, containers: string): Promise<Label[]> {
  // tsx names the inner functions of test code with __name(): a page that does not know it gets it here (a string runs as written).
  await page.evaluate('window.__name ??= (target) => target');
  return page.evaluate(
    ({ kinds, containers }) => {
      const boxOf = (r: { left: number; right: number; top: number; bottom: number }) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
      const clipsSideways = (element: Element) => getComputedStyle(element).overflowX !== 'visible';
      const viewport = { left: 0, right: document.documentElement.clientWidth, top: -Infinity, bottom: Infinity };
      const textsIn = (element: Element) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const texts: Text[] = [];
        while (walker.nextNode()) if (walker.currentNode.textContent?.trim()) texts.push(walker.currentNode as Text);
        return texts;
      };
      const linesOf = (range: Range) => Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      const labels = [];
      for (const [kind, selector] of Object.entries(kinds)) {
        for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
          const own = element.getBoundingClientRect();
          if (!element.checkVisibility({ visibilityProperty: true }) || !own.width || !own.height) continue;
          const range = document.createRange();
          const texts = textsIn(element);
          // Text cut by an element that clips (an ellipsis) is painted only inside that element's box.
          const cutters = (text: Text) => {
            const found: HTMLElement[] = [];
            for (let e = text.parentElement; e && element.contains(e); e = e.parentElement) if (clipsSideways(e)) found.push(e);
            return found;
          };
          const lines = texts.flatMap((text) => {
            range.selectNodeContents(text);
            return linesOf(range).map((line) =>
              cutters(text).reduce((cut, by) => {
                const edge = by.getBoundingClientRect();
                return { ...cut, left: Math.max(cut.left, edge.left), right: Math.min(cut.right, edge.right) };
              }, boxOf(line)),
            );
          });
          if (!lines.length) continue;
          const textBox = {
            left: Math.min(...lines.map((r) => r.left)),
            right: Math.max(...lines.map((r) => r.right)),
            top: Math.min(...lines.map((r) => r.top)),
            bottom: Math.max(...lines.map((r) => r.bottom)),
          };
          const shortened = texts.flatMap(cutters).filter((e) => e.scrollWidth > e.clientWidth);
          const brokenWords = texts.flatMap((text) =>
            [...(text.textContent ?? '').matchAll(/\S+/g)].filter((word) => {
              range.setStart(text, word.index);
              range.setEnd(text, word.index + word[0].length);
              return new Set(linesOf(range).map((r) => Math.round(r.top))).size > 1;
            }).map((word) => word[0]),
          );
          let clipper = element.parentElement;
          while (clipper && clipper !== document.documentElement && !clipsSideways(clipper)) clipper = clipper.parentElement;
          const inkElements = [...new Set(texts.map((text) => text.parentElement!))];
          labels.push({
            kind,
            text: (element.textContent ?? '').trim(),
            textBox,
            container: boxOf((element.parentElement?.closest(containers) ?? document.body).getBoundingClientRect()),
            clip: clipper && clipper !== document.documentElement ? boxOf(clipper.getBoundingClientRect()) : viewport,
            brokenWords,
            truncated: shortened.length > 0,
            title: (shortened[0] ?? element).closest('[title]')?.getAttribute('title') ?? '',
            disabled: !!element.closest(':disabled'),
            inks: inkElements.map((inkElement) => {
              const backgrounds: string[] = [];
              let opacity = 1;
              for (let e: Element | null = inkElement; e; e = e.parentElement) {
                backgrounds.push(getComputedStyle(e).backgroundColor);
                opacity *= Number(getComputedStyle(e).opacity);
              }
              return { text: (inkElement.textContent ?? '').trim(), colour: getComputedStyle(inkElement).color, opacity, backgrounds };
            }),
          });
        }
      }
      return labels;
    },
    { kinds, containers },
  );
}

/** The two boxes share more than a hairline (half a pixel) both across and down. */
export function overlap(a: Box, b: Box): boolean {
  return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
}

/** `inner` lies within `outer` from left to right, to half a pixel. */
export function withinSideways(inner: Box, outer: Box): boolean {
  return inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
}
