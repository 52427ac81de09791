/**
 * A URL as it may be printed or stored: a `user:password@` and the values of its query (where
 * tokens travel) become `***`. Works on text that is not a valid URL too, and leaves the rest as written.
 */
export function redactUrl(text: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  // Up to the last `@`: a password with an unencoded `/`, `?` or `#` makes no valid URL, and is still a password.
  const userinfo = withScheme ? /^([a-z][a-z0-9+.-]*:\/\/).*@/is : /^()[^/?#\s]+@/;
  return text.replace(userinfo, '$1***@').replace(/([?&][^=&#]*=)[^&#]*/g, '$1***');
}
