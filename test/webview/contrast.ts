// WCAG 2 contrast of text against what is painted behind it, from computed colours.

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0 to 1 */
  a: number;
}

/** A computed colour as Chromium writes it: rgb(), rgba() or color(srgb …) (what color-mix() resolves to). */
export function parseColour(text: string): Rgba {
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(text);
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: rgb[4] === undefined ? 1 : Number(rgb[4]) };
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(text);
  if (srgb) return { r: Number(srgb[1]) * 255, g: Number(srgb[2]) * 255, b: Number(srgb[3]) * 255, a: srgb[4] === undefined ? 1 : Number(srgb[4]) };
  throw new Error(`unreadable colour ${text}`);
}

/** `top` painted over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The contrast of text in `colour`, faded by `opacity`, over backgrounds listed from its own element out to
 * <html> (the canvas under them all is white, as in a browser).
 */
export function textContrast(colour: string, opacity: number, backgroundsInsideOut: string[]): number {
  const behind = [...backgroundsInsideOut].reverse().reduce((below, layer) => over(parseColour(layer), below), { r: 255, g: 255, b: 255, a: 1 });
  const ink = parseColour(colour);
  return contrastRatio(over({ ...ink, a: ink.a * opacity }, behind), behind);
}
