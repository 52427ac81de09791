import { bareHost } from '../bare-host';

/**
 * What an exec probe's command reaches beyond its own pod: a database client, an HTTP client or a
 * port check aimed at another host checks that host, a dependency, not the process.
 */

/** Hosts that are the pod itself: loopback, any-address, or the pod's own name or address from the environment. */
function isLocal(host: string): boolean {
  const bare = bareHost(host).toLowerCase();
  return ['localhost', '127.0.0.1', '::1', '0.0.0.0', ''].includes(bare) || bare.startsWith('127.') || bare.startsWith('$') || bare.startsWith('/') || bare.endsWith('.localhost');
}

/** The shell words of a command: `[sh, -c, "pg_isready -h db"]` → the script's words; quotes dropped. */
function words(command: readonly unknown[]): string[] {
  const args = command.filter((a): a is string => typeof a === 'string');
  const script = /^(?:\/bin\/|\/usr\/bin\/)?(?:ba|da|a)?sh$/.test(args[0] ?? '') && args[1] === '-c' ? args.slice(2).join(' ') : args.join(' ');
  return script.split(/[\s;|&()]+/).map((w) => w.replace(/^["']|["']$/g, '')).filter(Boolean);
}

/** The value of a host option in any of its spellings: `-h db`, `-hdb`, `--host db`, `--host=db`. */
function hostOption(args: readonly string[], short: string, long = '--host'): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === short || arg === long) return args[i + 1];
    if (arg.startsWith(`${long}=`)) return arg.slice(long.length + 1);
    if (short && arg.startsWith(short) && arg.length > short.length && !arg.startsWith('--')) return arg.slice(short.length);
  }
  return undefined;
}

/** The scheme, host and path of a URL (`http://db:5432/x`, `mongodb://user@db/x`), or undefined when the word is no URL. */
function urlParts(word: string): { scheme: string; host: string; path: string } | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^:/?#]+)(?::\d*)?([/?#]\S*)?/i.exec(word);
  return match ? { scheme: match[1].toLowerCase(), host: match[2], path: match[3]?.startsWith('/') ? match[3] : '/' } : undefined;
}

/** A URL curl and wget take without a scheme (`localhost:8080/readyz`), which they fetch over HTTP. */
function schemelessUrlParts(word: string): { scheme: string; host: string; path: string } | undefined {
  const match = /^(\[[^\]]+\]|[\w.-]+)(?::\d+)?([/?#]\S*)?$/.exec(word);
  return match && !word.startsWith('-') ? { scheme: 'http', host: match[1], path: match[2]?.startsWith('/') ? match[2] : '/' } : undefined;
}

function urlHost(word: string): string | undefined {
  return urlParts(word)?.host;
}

/** Clients whose target host is an option, by program name. */
const HOST_CLIENTS: Record<string, { short: string; long?: string }> = {
  pg_isready: { short: '-h' },
  psql: { short: '-h' },
  mysqladmin: { short: '-h' },
  mysql: { short: '-h' },
  mariadb: { short: '-h' },
  'mariadb-admin': { short: '-h' },
  'redis-cli': { short: '-h' },
  'valkey-cli': { short: '-h' },
  mongosh: { short: '', long: '--host' },
  mongo: { short: '', long: '--host' },
};

/** Another host an exec command checks, with the command as written, or undefined when it checks only its own pod. */
export function remoteHostChecked(command: unknown): { host: string; program: string } | undefined {
  if (!Array.isArray(command)) return undefined;
  const all = words(command);
  for (let i = 0; i < all.length; i++) {
    const program = all[i].split('/').pop()!;
    const rest = all.slice(i + 1);
    const client = Object.hasOwn(HOST_CLIENTS, program) ? HOST_CLIENTS[program] : undefined;
    if (client) {
      const host = hostOption(rest, client.short, client.long) ?? rest.map(urlHost).find(Boolean);
      if (host && !isLocal(host)) return { host, program };
    }
    if (program === 'curl' || program === 'wget') {
      const host = rest.map(urlHost).find(Boolean) ?? rest.find((w) => !w.startsWith('-') && /^[\w.-]+(:\d+)?\//.test(w))?.split(/[:/]/)[0];
      if (host && !isLocal(host)) return { host, program };
    }
    if (program === 'nc' || program === 'ncat' || program === 'netcat') {
      const operands = rest.filter((w) => !w.startsWith('-'));
      const host = operands.find((w) => !/^\d+$/.test(w));
      if (host && operands.some((w) => /^\d+$/.test(w)) && !isLocal(host)) return { host, program };
    }
  }
  return undefined;
}

/**
 * The path of the URL an exec command's curl or wget asks of the pod itself (`curl -f http://localhost:8080/readyz`
 * → `/readyz`), if it asks one: what it checks is that endpoint, as an httpGet probe on it would.
 */
export function localPathRequested(command: unknown): string | undefined {
  if (!Array.isArray(command)) return undefined;
  const all = words(command);
  for (let i = 0; i < all.length; i++) {
    const program = all[i].split('/').pop()!;
    if (program !== 'curl' && program !== 'wget') continue;
    for (const word of all.slice(i + 1)) {
      const url = urlParts(word) ?? schemelessUrlParts(word);
      if (url && /^https?$/.test(url.scheme) && isLocal(url.host)) return url.path;
    }
  }
  return undefined;
}
