import { fileURLToPath } from 'node:url';

/** The path a `file:` uri names; undefined for other schemes and for uris that name no path. */
export function pathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
