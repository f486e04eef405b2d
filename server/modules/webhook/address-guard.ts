// Where a webhook may be posted (SSRF guard). In production a webhook URL must be https and its host must
// be, and resolve to, a public address: never an address of the IANA IPv4 and IPv6 special-purpose address
// registries (loopback, private networks, link-local with the cloud metadata address, "this network", shared
// carrier-grade NAT, documentation, benchmarking, the IETF protocol assignments, ...), multicast, reserved
// 240/4 or the broadcast address, nor any IPv6 address outside global unicast (2000::/3), nor any form that
// carries an IPv4 address (IPv4-mapped, -compatible and -translated, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
// 6to4 2002::/16, Teredo 2001::/32): on a network with NAT64, 6to4 or Teredo those reach internal IPv4
// addresses (issue 23). The check runs when an endpoint is created and again at every delivery, inside the
// connection's own name lookup, so the address connected to is the address checked (a name that resolves
// elsewhere by then, DNS rebinding, is refused). Development and tests allow http and local receivers with
// WEBHOOK_ALLOW_LOCAL (default: on outside production).
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
  | 'site-local'
  | 'multicast'
  | 'embedded-ipv4'
  | 'reserved';

type Rule = [RefusedRange, string, number];

/** IPv4: the special-purpose registry (RFC 6890 and later), multicast and 240/4; first match names the kind. */
const IPV4_RULES: Rule[] = [
  ['unspecified', '0.0.0.0', 8], // "this network"
  ['private', '10.0.0.0', 8],
  ['shared', '100.64.0.0', 10], // carrier-grade NAT
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16], // 169.254.169.254: cloud metadata
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments (DS-Lite, PCP and TURN anycast, NAT64 discovery)
  ['reserved', '192.0.2.0', 24], // documentation (TEST-NET-1)
  ['reserved', '192.31.196.0', 24], // AS112-v4
  ['reserved', '192.52.193.0', 24], // AMT
  ['reserved', '192.88.99.0', 24], // 6to4 relay anycast (deprecated): a way into 6to4
  ['private', '192.168.0.0', 16],
  ['reserved', '192.175.48.0', 24], // direct delegation AS112
  ['reserved', '198.18.0.0', 15], // benchmarking
  ['reserved', '198.51.100.0', 24], // documentation (TEST-NET-2)
  ['reserved', '203.0.113.0', 24], // documentation (TEST-NET-3)
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4], // reserved, with 255.255.255.255 (limited broadcast)
];

/**
 * IPv6 forms that carry an IPv4 address, and where: `shift` brings the IPv4 address to the low 32 bits
 * (null: not decoded). Refused whatever they carry; a carried address that is refused itself names the kind.
 */
const IPV6_EMBEDDING: { net: string; prefix: number; shift: bigint | null }[] = [
  { net: '::ffff:0:0', prefix: 96, shift: 0n }, // IPv4-mapped
  { net: '::ffff:0:0:0', prefix: 96, shift: 0n }, // IPv4-translated (SIIT)
  { net: '::', prefix: 96, shift: 0n }, // IPv4-compatible (deprecated); :: and ::1 are judged before
  { net: '64:ff9b::', prefix: 96, shift: 0n }, // NAT64, well-known prefix
  { net: '64:ff9b:1::', prefix: 48, shift: 0n }, // NAT64, local use (read as a /96 prefix: the usual one)
  { net: '2002::', prefix: 16, shift: 80n }, // 6to4: 2002:AABB:CCDD::/48
  { net: '2001::', prefix: 32, shift: null }, // Teredo (server and obfuscated client address)
];

/** IPv6 outside global unicast (2000::/3): all refused; these name the kind, the rest is 'reserved'. */
const IPV6_RULES: Rule[] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['reserved', '100::', 64], // discard-only
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['site-local', 'fec0::', 10], // deprecated, still routed as private in places
  ['multicast', 'ff00::', 8],
];

/** Within global unicast (2000::/3): the special-purpose blocks of the registry. */
const IPV6_GLOBAL_SPECIAL: Rule[] = [
  ['reserved', '2001::', 23], // IETF protocol assignments: benchmarking 2001:2::/48, ORCHID 2001:10::/28 and
  // 2001:20::/28, AMT 2001:3::/32, AS112 2001:4:112::/48, DETs 2001:30::/28, the anycast 2001:1::x
  ['reserved', '2001:db8::', 32], // documentation
  ['reserved', '2620:4f:8000::', 48], // direct delegation AS112
  ['reserved', '3fff::', 20], // documentation
  ['reserved', '5f00::', 16], // SRv6 SIDs
];

const listOf = (net: string, prefix: number, family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  list.addSubnet(net, prefix, family);
  return list;
};
const compile = (rules: Rule[], family: 'ipv4' | 'ipv6') =>
  rules.map(([range, net, prefix]) => ({ range, list: listOf(net, prefix, family) }));

const V4 = compile(IPV4_RULES, 'ipv4');
const V6_FIRST = compile(IPV6_RULES.slice(0, 2), 'ipv6');
const V6_EMBEDDING = IPV6_EMBEDDING.map((e) => ({ shift: e.shift, list: listOf(e.net, e.prefix, 'ipv6') }));
const V6 = compile(IPV6_RULES.slice(2), 'ipv6');
const V6_GLOBAL = listOf('2000::', 3, 'ipv6');
const V6_GLOBAL_SPECIAL = compile(IPV6_GLOBAL_SPECIAL, 'ipv6');

/**
 * An IP address in one canonical text, or null when the text is not an IP address. Takes every form:
 * brackets, a zone id (fe80::1%eth0), upper case, compressed or full IPv6, a dotted-quad tail
 * (::ffff:127.0.0.1), and the IPv4 forms a URL host or inet_aton reads (127.1, 0x7f.0.0.1, 2130706433).
 */
export function canonicalIp(raw: string): { family: 4 | 6; address: string } | null {
  let text = raw.trim();
  const bracketed = /^\[(.*)\]$/.exec(text);
  if (bracketed) text = bracketed[1];
  if (text.includes(':')) {
    // The zone only says which interface; the address is what is judged.
    const zone = text.indexOf('%');
    if (zone >= 0) text = text.slice(0, zone);
    if (isIP(text) !== 6) return null;
    try {
      // The WHATWG URL parser writes IPv6 in its canonical form (RFC 5952: lower case, compressed, no dots).
      return { family: 6, address: new URL(`http://[${text}]/`).hostname.slice(1, -1) };
    } catch {
      // Expected: isIP accepted what the URL parser does not; not an address we would connect to.
      return null;
    }
  }
  if (isIP(text) === 4) return { family: 4, address: text };
  if (!/^[0-9a-fx.]+$/i.test(text)) return null;
  try {
    const host = new URL(`http://${text}/`).hostname;
    return isIP(host) === 4 ? { family: 4, address: host } : null;
  } catch {
    // Expected: digits and dots that are no IPv4 address (e.g. 1.2.3.4.5).
    return null;
  }
}

/** The 128 bits of a canonical IPv6 address (no dotted tail). */
function ipv6Bits(address: string): bigint {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const first = head ? head.split(':') : [];
  const last = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill('0'), ...last];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

const ipv4Of = (bits: bigint) => [24n, 16n, 8n, 0n].map((s) => Number((bits >> s) & 255n)).join('.');

function refusedIpv6(address: string): RefusedRange | null {
  for (const { range, list } of V6_FIRST) if (list.check(address, 'ipv6')) return range;
  for (const { shift, list } of V6_EMBEDDING) {
    if (!list.check(address, 'ipv6')) continue;
    const carried = shift === null ? null : ipv4Of(ipv6Bits(address) >> shift);
    return (carried && refusedRange(carried)) || 'embedded-ipv4';
  }
  for (const { range, list } of V6) if (list.check(address, 'ipv6')) return range;
  if (!V6_GLOBAL.check(address, 'ipv6')) return 'reserved';
  for (const { range, list } of V6_GLOBAL_SPECIAL) if (list.check(address, 'ipv6')) return range;
  return null;
}

/** The refused range an IP address falls in, or null when it is a public address ('reserved': no address). */
export function refusedRange(address: string): RefusedRange | null {
  const ip = canonicalIp(address);
  if (!ip) return 'reserved';
  if (ip.family === 6) return refusedIpv6(ip.address);
  for (const { range, list } of V4) if (list.check(ip.address, 'ipv4')) return range;
  return null;
}

/** Why a URL may not be posted to (its scheme, or the address it names or resolves to), or null. */
type UrlRefusal =
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
        ? `refused: ${refusal.host} is ${refusal.address}, in the ${refusal.range} range`
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
