/**
 * Control characters, and the Unicode controls that reorder text on screen (U+202E shows "gpj.exe" as
 * "exe.jpg"): what text from outside (an API answer, a plugin's stderr, a resource's name) must not bring to a
 * terminal, where they clear the screen, set its title or start fake lines.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** Text from outside as it may be shown: one line, no control characters (no terminal escapes). */
export function printable(text: string): string {
  return withoutControls(text).trim();
}

/** One line of output as it may reach a terminal: each run of control characters a space, the rest as it is. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, ' ');
}
