/**
 * A URL as it may be printed or stored: a `user:password@` and the values of its query (where
 * tokens travel) become `***`. Works on text that is not a valid URL too, and leaves the rest as written.
 */
export function redactUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@').replace(/([?&][^=&#]*=)[^&#]*/g, '$1***');
}
