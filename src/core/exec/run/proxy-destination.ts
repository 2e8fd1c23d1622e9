// Where the sandbox proxy may connect: an allowed NAME is not enough, the ADDRESS it resolves to
// must be on the public internet too. Otherwise an allowed name (or one a wildcard admits) that
// resolves to 127.0.0.1, a private network, or the cloud's metadata service (169.254.169.254,
// fd00:ec2::254) would carry a sandboxed command to the machine's own services. The name is resolved
// once here and the proxy connects to exactly the address that was judged, so a second answer from
// the name server (DNS rebinding) never gets a say. Only a host the person listed by its exact name
// in their own settings may resolve to a non-public address (an internal registry, a test stand-in).
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one address to connect to; or why the sandbox refuses the destination; or why it could not be
 * reached at all (a name that does not resolve is not the sandbox's doing).
 */
export type Destination = { address: string; family: 4 | 6 } | { refused: string } | { unreachable: string };

/** ipaddr.js ranges that embed an IPv4 address a gateway would forward to (NAT64, 6to4). */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = addr.toByteArray();
  switch (addr.range()) {
    case 'ipv4Mapped': return addr.toIPv4Address();
    case 'rfc6052': return new ipaddr.IPv4(b.slice(12, 16));
    case '6to4': return new ipaddr.IPv4(b.slice(2, 6));
    default: return undefined;
  }
}

/**
 * Why `address` is not a public internet address (its range: loopback, private, linkLocal,
 * carrierGradeNat, uniqueLocal, reserved, …), or undefined when it is one. IPv6 forms that carry an
 * IPv4 address (mapped, NAT64, 6to4) are judged by the IPv4 address inside.
 */
export function nonPublicRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIPv4(parsed as ipaddr.IPv6);
    if (inner) {
      const r = inner.range();
      return r === 'unicast' ? undefined : `${r} (inside ${(parsed as ipaddr.IPv6).range()})`;
    }
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}

function lookupAll(lookup: LookupFunction, host: string): Promise<{ address: string; family: number }[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (err, addresses) => {
      if (err) return reject(err);
      resolve(Array.isArray(addresses) ? addresses : [{ address: String(addresses), family: net.isIPv6(String(addresses)) ? 6 : 4 }]);
    });
  });
}

/**
 * Resolves `host` once and judges every address it has: one non-public address refuses the whole
 * name (a name that answers with both a public and a private address is the shape of a rebinding
 * attack), unless `host` is in `privateAllowed` by its exact name.
 */
export async function resolveDestination(host: string, opts: { lookup?: LookupFunction; privateAllowed: readonly string[] }): Promise<Destination> {
  const name = host.toLowerCase().replace(/\.$/, '');
  const mayBePrivate = opts.privateAllowed.some((p) => p.toLowerCase().replace(/\.$/, '') === name);
  let addresses: { address: string; family: number }[];
  if (net.isIP(name)) addresses = [{ address: name, family: net.isIP(name) }];
  else {
    try {
      addresses = await lookupAll(opts.lookup ?? (dns.lookup as LookupFunction), name);
    } catch (e) {
      return { unreachable: `${host} could not be resolved (${(e as Error).message})` };
    }
  }
  if (!addresses.length) return { unreachable: `${host} has no address` };
  if (!mayBePrivate) {
    for (const a of addresses) {
      const range = nonPublicRange(a.address);
      if (range) return { refused: `${host} resolves to ${a.address}, a ${range} address, not the public internet` };
    }
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
