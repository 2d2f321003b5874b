/**
 * Where webhooks may be sent. A subscription URL is a request the server makes on a client's behalf, so it
 * must not reach the server's own network (SSRF): the URL must be `https`, carry no credentials, and its
 * host must resolve only to public unicast addresses: never loopback, private (RFC 1918, unique local),
 * link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT, multicast,
 * reserved, documentation or IPv4-mapped/translated forms of those. The check runs when a subscription is
 * made and again on every delivery, inside the connection's own DNS lookup, so a name that later resolves
 * somewhere private (DNS rebinding) is refused at the moment of connecting. Redirects are never followed.
 *
 * `allowPrivate` (`propintel serve --allow-private-webhooks`) lifts the address and scheme rules for tests
 * and local development.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765: ::ffff:0:a.b.c.d)
  ['64:ff9b::', 96], // NAT64: reaches any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local (fd00:ec2::254 is a metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (IPv4 or IPv6 text) is a public unicast address a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d, also written in hex): judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hex) {
      const hi = parseInt(hex[1], 16), lo = parseInt(hex[2], 16);
      return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

/** Why a URL may not receive webhooks: a message naming the problem, or null when it may. */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; message: string };

/** The longest subscription URL, as given and as normalised. */
export const MAX_URL = 2048;

/** Resolves a host name to every address (injectable for tests). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs.map((a) => a.address)))));

/** Checks a subscription URL (see the module comment). */
export async function checkWebhookUrl(text: unknown, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<UrlVerdict> {
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, message: 'url is required: the https URL that receives the webhooks' };
  if (text.length > MAX_URL) return { ok: false, message: `url is ${text.length} characters; at most ${MAX_URL}` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `url ${JSON.stringify(text.slice(0, 200))} is not an absolute URL` };
  }
  // The limit holds for the URL as stored and requested: normalised, non-ASCII percent-encoded (an `é` is six
  // characters there), so it is checked again after parsing.
  if (url.href.length > MAX_URL) return { ok: false, message: `url is ${url.href.length} characters once normalised (non-ASCII characters percent-encoded); at most ${MAX_URL}` };
  if (url.protocol !== 'https:' && !(options.allowPrivate && url.protocol === 'http:')) {
    return { ok: false, message: `url must use https${options.allowPrivate ? ' or http' : ''}, not ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.username || url.password) return { ok: false, message: 'url must not carry a user name or password' };
  if (url.hash) return { ok: false, message: 'url must not have a fragment (#...)' };
  if (options.allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch (err) {
      return { ok: false, message: `url's host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
    }
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad !== undefined || addresses.length === 0) {
    return { ok: false, message: `url's host ${host} resolves to ${bad ?? 'no address'}, which is not a public address (loopback, private, link-local and metadata addresses are refused)` };
  }
  return { ok: true, url };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / https.request that refuses non-public addresses at connect time (after DNS,
 * so rebinding cannot slip through). With `allowPrivate` it is the system lookup.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${list.map((a) => a.address).join(', ') || 'no address'}: not a public address, refused`);
        e.code = 'EADDRNOTPUBLIC';
        return callback(e, '');
      }
      if ((options as LookupAllOptions).all) callback(null, allowed);
      else callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
