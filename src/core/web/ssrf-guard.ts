// The check every web request passes before a byte is sent: a tool the model drives must not be turned
// against the machine it runs on or the network behind it (a router's admin page, a cloud's metadata
// service, a database listening on localhost). The URL's host is resolved once, every address it
// resolves to must be a public unicast address, and the caller connects to the address checked here —
// never to a second lookup, which a hostile DNS server could answer differently (DNS rebinding).
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { minimatch } from 'minimatch';
import { nonPublicRange } from '../exec/run/proxy-destination';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to. Tests inject one that maps made-up names. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface SsrfOptions {
  resolve?: Resolver;
  /**
   * Lets loopback addresses and `localhost` through (a local development server): `true` on any port
   * (the person's own setting pincer.web.allowLocalhost), or only on the ports listed (a test's own
   * server, so that a redirect to another local port is still refused). Off by default; private,
   * link-local and metadata addresses stay refused either way.
   */
  allowLoopback?: boolean | { ports: readonly number[] };
  /** Host globs (`*.example.com`); when any are given, only matching hosts may be fetched. */
  allowDomains?: readonly string[];
  /** Host globs that are refused; deny wins over allow. */
  denyDomains?: readonly string[];
}

/** A URL that passed the check, with the one address the connection must go to. */
export interface CheckedUrl {
  url: URL;
  /** The host name without IPv6 brackets or a trailing dot. */
  host: string;
  pinned: ResolvedAddress;
}

export class WebRefusal extends Error {
  override readonly name = 'WebRefusal';
}

// Public-looking unicast addresses that are metadata or host services on a cloud (Azure's wire server).
const METADATA_ADDRESSES = new Set(['168.63.129.16']);
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Checks a URL and resolves its host; throws WebRefusal with the reason when it may not be fetched. */
export async function checkUrl(raw: string | URL, opts: SsrfOptions = {}): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebRefusal(`"${String(raw)}" is not a valid URL: give an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebRefusal(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username || url.password) {
    throw new WebRefusal('URLs with a user name or password in them are refused: credentials are never sent to web pages.');
  }
  // WHATWG parsing has already turned IDN look-alikes into ASCII and decimal, octal, hex and short IPv4
  // spellings (0x7f000001, 0177.0.0.1, 127.1) into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!host) throw new WebRefusal(`The URL ${url.href} has no host.`);
  checkDomainLists(host, opts);
  if (METADATA_NAMES.has(host)) throw new WebRefusal(`${host} is a cloud metadata service: refused.`);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const loopbackAllowed = opts.allowLoopback === true || (typeof opts.allowLoopback === 'object' && opts.allowLoopback.ports.includes(port));
  const isLocalName = host === 'localhost' || host.endsWith('.localhost');
  if (isLocalName && !loopbackAllowed) throw new WebRefusal(loopbackRefusal(host));

  const literal = net.isIP(host);
  const addresses = literal ? [{ address: host, family: literal === 6 ? 6 : 4 } as ResolvedAddress] : await resolveAll(host, opts.resolve ?? systemResolver);
  for (const a of addresses) checkAddress(host, a.address, loopbackAllowed);
  return { url, host, pinned: addresses[0] };
}

async function resolveAll(host: string, resolve: Resolver): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (e) {
    throw new WebRefusal(`Could not resolve ${host}: ${(e as Error).message}`);
  }
  if (addresses.length === 0) throw new WebRefusal(`${host} did not resolve to any address.`);
  return addresses;
}

/** Refuses an address that is not public: every address of a host must pass, not just the first. */
function checkAddress(host: string, address: string, allowLoopback: boolean): void {
  // nonPublicRange judges IPv6 forms that carry an IPv4 address (::ffff:127.0.0.1, NAT64, 6to4) by the
  // IPv4 address inside.
  const range = nonPublicRange(address);
  const shown = host === address ? address : `${host} (${address})`;
  if (range?.startsWith('loopback')) {
    if (allowLoopback) return;
    throw new WebRefusal(loopbackRefusal(shown));
  }
  if (range) throw new WebRefusal(`${shown} is a ${describeRange(range)} address: only public addresses can be fetched.`);
  if (METADATA_ADDRESSES.has(address)) throw new WebRefusal(`${shown} is a cloud metadata address: refused.`);
}

function loopbackRefusal(what: string): string {
  return `${what} is this machine (loopback): refused. A local development server can be allowed with the user setting pincer.web.allowLocalhost.`;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    'not an IP address': 'malformed', private: 'private-network', linkLocal: 'link-local (this includes cloud metadata at 169.254.169.254)',
    carrierGradeNat: 'carrier-grade NAT', uniqueLocal: 'unique-local (private IPv6)', unspecified: 'unspecified',
    multicast: 'multicast', broadcast: 'broadcast', reserved: 'reserved or documentation',
    teredo: 'Teredo tunnel', rfc6145: 'IPv4-translated',
  };
  const [first, ...rest] = range.split(' ');
  return [names[first] ?? `special-purpose (${first})`, ...rest].join(' ');
}

function checkDomainLists(host: string, opts: SsrfOptions): void {
  const matches = (globs: readonly string[] | undefined) => (globs ?? []).some((g) => minimatch(host, g.toLowerCase(), { nocase: true, dot: true }));
  if (matches(opts.denyDomains)) throw new WebRefusal(`${host} is in pincer.web.denyDomains: refused.`);
  if (opts.allowDomains?.length && !matches(opts.allowDomains)) {
    throw new WebRefusal(`${host} is not in pincer.web.allowDomains, which lists the only hosts that may be fetched.`);
  }
}
