// Where a webhook may be posted (SSRF guard). In production a webhook URL must be https and its host must
// be, and resolve to, a public address: never loopback, a private network (RFC 1918, unique-local IPv6),
// link-local (169.254/16, the cloud metadata address among them), "this network" (0.0.0.0/8), carrier-grade
// NAT, multicast or a reserved range. The check runs when an endpoint is created and again at every delivery,
// inside the connection's own name lookup, so the address connected to is the address checked (a name that
// resolves elsewhere by then, DNS rebinding, is refused). Development and tests allow http and local
// receivers with WEBHOOK_ALLOW_LOCAL (default: on outside production).
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** The kinds of address refused, as the error's `data.range` names them. */
export type RefusedRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unique-local'
  | 'multicast'
  | 'reserved';

const RANGES: [RefusedRange, 'ipv4' | 'ipv6', string, number][] = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['shared', 'ipv4', '100.64.0.0', 10],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['reserved', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '198.51.100.0', 24],
  ['reserved', 'ipv4', '203.0.113.0', 24],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['unique-local', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['reserved', 'ipv6', '2001:db8::', 32],
  ['reserved', 'ipv6', '100::', 64],
];

const LISTS = RANGES.map(([range, family, net, prefix]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, family);
  return { range, list, family };
});

/** An IPv4 address carried in an IPv6 one (::ffff:a.b.c.d mapped, ::a.b.c.d compatible, 64:ff9b::/96 NAT64). */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1], 16);
  const lo = Number.parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The refused range an IP address falls in, or null when it is a public address. */
export function refusedRange(address: string): RefusedRange | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return refusedRange(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { range, list, family: f } of LISTS) if (f === type && list.check(address, type)) return range;
  return null;
}

/** Why a URL may not be posted to (its scheme, or the address it names or resolves to), or null. */
export type UrlRefusal =
  | { reason: 'https-only' }
  | { reason: 'address'; host: string; address: string; range: RefusedRange }
  | { reason: 'unresolvable'; host: string };

/** The host of a URL without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The first refused address among a host's addresses, as a refusal. */
function firstRefused(host: string, addresses: string[]): UrlRefusal | null {
  for (const address of addresses) {
    const range = refusedRange(address);
    if (range) return { reason: 'address', host, address, range };
  }
  return null;
}

/**
 * Checks a webhook URL now: https, and a host that is (or resolves only to) public addresses. With
 * `allowLocal` every http(s) URL passes.
 */
export async function checkWebhookUrl(raw: string, allowLocal: boolean): Promise<UrlRefusal | null> {
  if (allowLocal) return null;
  const url = new URL(raw);
  if (url.protocol !== 'https:') return { reason: 'https-only' };
  const host = hostOf(url);
  if (isIP(host)) return firstRefused(host, [host]);
  let found: { address: string }[];
  try {
    found = await dnsLookup(host, { all: true, verbatim: true });
  } catch {
    return { reason: 'unresolvable', host };
  }
  return firstRefused(
    host,
    found.map((a) => a.address),
  );
}

/** The error a refused name lookup fails the connection with (its refusal is kept for the attempt's log). */
export class RefusedAddressError extends Error {
  readonly refusal: UrlRefusal;
  constructor(refusal: UrlRefusal) {
    super(
      refusal.reason === 'address'
        ? `refused: ${refusal.host} is ${refusal.address}, a ${refusal.range} address`
        : refusal.reason === 'unresolvable'
          ? `refused: ${refusal.host} does not resolve`
          : 'refused: not https',
    );
    this.refusal = refusal;
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) requests that resolves the name and refuses it when any of its addresses is
 * refused: the connection then goes only to an address that was checked.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { all: true, verbatim: true }).then(
    (found) => {
      const refusal = firstRefused(
        hostname,
        found.map((a) => a.address),
      );
      if (refusal) return callback(new RefusedAddressError(refusal), '');
      if (options.all) return callback(null, found);
      const wanted = Number(options.family) || 0;
      const pick = found.find((a) => wanted === 0 || a.family === wanted) ?? found[0];
      callback(null, pick.address, pick.family);
    },
    (err: NodeJS.ErrnoException) => callback(err, ''),
  );
}
