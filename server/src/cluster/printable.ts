/** Text from outside (an API answer, a plugin's stderr) as it may be shown: one line, no control characters (no terminal escapes). */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}
