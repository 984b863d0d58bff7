import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// A webhook URL is chosen by whoever holds an API key, and the server then connects to it: it
// must not be a way into the server's own machine or networks (SSRF). Addresses are judged with
// ipaddr.js's maintained table of special ranges rather than a list of our own; what is public
// is only what that table calls plain 'unicast' (and, for IPv6, inside 2000::/3, the part of the
// space allocated for global unicast), after unwrapping the forms that embed an IPv4 address.
// See docs/decisions/018-outbox-lanes-and-webhook-delivery.md.

/** 2000::/3: the only IPv6 space allocated for global unicast (RFC 4291, IANA). */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
/** 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052); local-use 64:ff9b:1::/48 is not public. */
const wellKnownNat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/** The IPv4 address inside a 6to4 (2002:AABB:CCDD::/48) or NAT64 (64:ff9b::AABB:CCDD) one. */
function embeddedIPv4(bytes: number[], offset: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4));
}

/**
 * Whether a literal IP address (v4 or v6, as `dns.lookup` or a URL gives it) is one a webhook
 * may be sent to: not loopback, private, link-local, CGNAT, benchmarking, documentation,
 * multicast, broadcast, reserved or unspecified, including when embedded in IPv6 (IPv4-mapped,
 * IPv4-translated, 6to4, NAT64). Anything that does not parse is not public.
 */
export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '');
  if (isIP(literal) === 0) return false;
  const parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv4') return isPublicIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isPublicIPv4(v6.toIPv4Address());
  const bytes = v6.toByteArray();
  if (v6.match(wellKnownNat64)) return isPublicIPv4(embeddedIPv4(bytes, 12));
  const range = v6.range();
  if (range === '6to4') return isPublicIPv4(embeddedIPv4(bytes, 2));
  return range === 'unicast' && v6.match(globalUnicast);
}

/** `localhost`, a name under it (RFC 6761), with or without the root's trailing dot. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Whether a URL's host is refused without looking it up: a non-public literal address or a
 * localhost name. Other names are judged by the addresses they resolve to, when connecting.
 */
export function isRefusedHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return !isPublicAddress(host);
  return isLocalhostName(host);
}

export interface WebhookUrlRules {
  /** Outside demo mode: https only (http is allowed in the demo, for loopback receivers). */
  httpsOnly: boolean;
  /** Outside demo mode: public addresses only. */
  publicOnly: boolean;
}

/**
 * The URL a webhook endpoint is stored with, or why it is refused. Never credentials in the URL,
 * since requests are authenticated by their signature and the URL shows in lists and the audit
 * log. A name that resolves to a private address is caught when a delivery connects.
 */
export function checkWebhookUrl(
  url: string,
  rules: WebhookUrlRules,
): { url: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'Expected an absolute URL' };
  }
  if (rules.httpsOnly ? parsed.protocol !== 'https:' : !/^https?:$/.test(parsed.protocol)) {
    return { problem: rules.httpsOnly ? 'Expected an https URL' : 'Expected an http or https URL' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { problem: 'Must not hold a user name or password: requests are signed instead' };
  }
  if (rules.publicOnly && isRefusedHost(parsed.hostname)) {
    return { problem: 'Must be a public address, not a local or private one' };
  }
  parsed.hash = '';
  return { url: parsed.href };
}
