import { BlockList, isIP } from 'node:net';

// Addresses a production server must not be pointed at: the server's own machine and networks
// (a webhook URL is chosen by whoever holds an API key). Names that resolve to such addresses
// are not caught here; a server in a private network should also filter its outgoing traffic.
const internalAddresses = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  internalAddresses.addSubnet(network, prefix, 'ipv4');
}
// IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked against the IPv4 rules.
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  internalAddresses.addSubnet(network, prefix, 'ipv6');
}

function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 0) return false;
  return internalAddresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The URL a webhook endpoint is stored with, or why it is refused. https only in production
 * (http is allowed elsewhere, for loopback receivers); never credentials in the URL, since
 * requests are authenticated by their signature and the URL shows in lists and the audit log.
 */
export function checkWebhookUrl(
  url: string,
  production: boolean,
): { url: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'Expected an absolute URL' };
  }
  if (production ? parsed.protocol !== 'https:' : !/^https?:$/.test(parsed.protocol)) {
    return { problem: production ? 'Expected an https URL' : 'Expected an http or https URL' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { problem: 'Must not hold a user name or password: requests are signed instead' };
  }
  if (production && isInternalHost(parsed.hostname)) {
    return { problem: 'Must be a public address, not a local or private one' };
  }
  parsed.hash = '';
  return { url: parsed.href };
}
