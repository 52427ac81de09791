import { bareHost } from '../bare-host';
/** A proxy the environment names for a server, and the variable that named it (said in messages about the proxy). */
export interface EnvironmentProxy {
  url: string;
  variable: string;
}

/**
 * The proxy kubectl would take from the environment for `server` when the kubeconfig names none (Go's
 * ProxyFromEnvironment): HTTPS_PROXY (or https_proxy) for an https server, HTTP_PROXY for an http one, unless
 * NO_PROXY covers the host; localhost and loopback addresses are never proxied. A value without a scheme is http.
 */
export function proxyFromEnvironment(server: URL, env: NodeJS.ProcessEnv): EnvironmentProxy | undefined {
  const names = server.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  const variable = names.find((name) => env[name]?.trim());
  if (!variable) return undefined;
  const host = bareHost(server.hostname).toLowerCase();
  const port = server.port || (server.protocol === 'https:' ? '443' : '80');
  if (isLoopback(host) || bypassed(host, port, env.NO_PROXY?.trim() || env.no_proxy?.trim() || '')) return undefined;
  const value = env[variable]!.trim();
  return { url: /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`, variable };
}

/** Go's rule: the name localhost, and loopback addresses (an IPv4-mapped one too). */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const address = addressOf(host);
  if (!address) return false;
  return address.family === 4 ? address.value >> 24n === 127n : address.value === 1n;
}

/** Whether a NO_PROXY list covers the host: `*`, an address or CIDR block, or a domain and its subdomains (`.domain`: those only), each with an optional port. */
function bypassed(host: string, port: string, noProxy: string): boolean {
  const address = addressOf(host);
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const slash = entry.indexOf('/');
    if (slash >= 0) {
      if (address && inBlock(address, entry.slice(0, slash), entry.slice(slash + 1))) return true;
      continue;
    }
    const [name, entryPort] = splitPort(entry);
    if (entryPort && entryPort !== port) continue;
    const named = addressOf(name);
    if (named) {
      if (address && named.family === address.family && named.value === address.value) return true;
      continue;
    }
    const domain = name.replace(/^\*\./, '.');
    if (domain.startsWith('.') ? host.endsWith(domain) : host === domain || host.endsWith(`.${domain}`)) return true;
  }
  return false;
}

function splitPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1], bracketed[2]];
  const colon = entry.lastIndexOf(':');
  // An IPv6 address holds colons of its own.
  if (colon < 0 || ipv6(entry) !== undefined) return [entry, undefined];
  return [entry.slice(0, colon), entry.slice(colon + 1)];
}

/** Whether the address lies in the block `network/prefix` (a prefix of digits only, as Go's ParseCIDR reads it). */
function inBlock(address: Address, network: string, prefix: string): boolean {
  const base = addressOf(network);
  if (!base || !/^\d{1,3}$/.test(prefix)) return false;
  // A mapped IPv4 network written as IPv6 (::ffff:10.0.0.0/104) counts its prefix over all 128 bits.
  const length = Number(prefix) - (base.family === 4 && network.includes(':') ? 96 : 0);
  const width = base.family === 4 ? 32 : 128;
  if (base.family !== address.family || length < 0 || length > width) return false;
  const shift = BigInt(width - length);
  return address.value >> shift === base.value >> shift;
}

interface Address {
  value: bigint;
  family: 4 | 6;
}

/** An IP address as a number; an IPv4-mapped IPv6 address is its IPv4 one (Go's net.IP holds them equal). */
function addressOf(text: string): Address | undefined {
  const v4 = ipv4(text);
  if (v4 !== undefined) return { value: v4, family: 4 };
  const v6 = ipv6(text);
  if (v6 === undefined) return undefined;
  return v6 >> 32n === 0xffffn ? { value: v6 & 0xffffffffn, family: 4 } : { value: v6, family: 6 };
}

/** Addresses are read here, not by node:net, which only api-get.ts and connection.ts may use. */
function ipv4(text: string): bigint | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1).map(Number);
  if (!parts || parts.some((part) => part > 255)) return undefined;
  return parts.reduce((sum, part) => (sum << 8n) + BigInt(part), 0n);
}

function ipv6(text: string): bigint | undefined {
  if (!text.includes(':') || !/^[0-9a-f:.]+$/i.test(text)) return undefined;
  let written = text;
  // An IPv4 address at the end (::ffff:10.0.0.1) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4(dotted[2]);
    if (v4 === undefined) return undefined;
    written = `${dotted[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = written.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
}
