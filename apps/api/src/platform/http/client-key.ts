import ipaddr from 'ipaddr.js';

/**
 * The key per-address limits count under. An IPv6 client usually holds a whole /64 (one home or
 * phone gets 2^64 addresses), so counting single IPv6 addresses would let it step past every
 * limit; IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is the IPv4 address it carries.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}
