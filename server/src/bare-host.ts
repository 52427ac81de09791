/** A host without the brackets a URL writes around an IPv6 address (`[::1]` → `::1`), as names and addresses compare. */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}
