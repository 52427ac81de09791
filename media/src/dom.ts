import { withoutControls } from '../../server/src/printable';

/**
 * Builds elements whose text is always text: data from a cluster or a manifest never becomes markup, and its hidden
 * characters (a U+202E that shows "gpj.exe" as "exe.jpg", a zero-width space that makes two names alike) are shown
 * as their escapes, in the text and in the names and tooltips people read.
 */
export type Child = Node | string | false | null | undefined;

const READ_ATTRIBUTES = new Set(['title', 'aria-label']);

export interface Props {
  class?: string;
  /** Attributes, set with setAttribute (never an `on…` handler: listeners go through `on`). */
  attrs?: Record<string, string | number | boolean | undefined>;
  /** Inline style through the CSSOM: the CSP refuses style attributes, not style properties. */
  style?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (name.toLowerCase().startsWith('on')) throw new Error(`inline handler ${name} refused`);
    const text = value === true ? '' : String(value);
    element.setAttribute(name, READ_ATTRIBUTES.has(name) ? withoutControls(text) : text);
  }
  for (const [property, value] of Object.entries(props.style ?? {})) element.style.setProperty(property, value);
  for (const [type, listener] of Object.entries(props.on ?? {})) element.addEventListener(type, listener as EventListener);
  element.append(...present(children).map((child) => (typeof child === 'string' ? withoutControls(child) : child)));
  return element;
}

/** The children that are there (conditional parts of a view come as false, null or undefined). */
export function present(children: Child[]): (Node | string)[] {
  return children.filter((child): child is Node | string => child !== false && child !== null && child !== undefined);
}

/** Runs `action` on click, and on Enter or Space for elements that are not buttons already. */
export function activate(action: () => void): Props['on'] {
  return {
    click: () => action(),
    keydown: (event: KeyboardEvent) => {
      if ((event.key === 'Enter' || event.key === ' ') && !(event.target instanceof HTMLButtonElement)) {
        event.preventDefault();
        action();
      }
    },
  };
}
