// IPv4 CIDRs as numbers: a Node's pod CIDR (spec.podCIDR, `10.42.3.0/24`), whose addresses the
// node's pods get from the CNI's host-local IPAM (kubelet/pod-host.ts).

/** An IPv4 network: its address as an unsigned 32-bit number, and how many host addresses it has. */
export interface Ipv4Cidr {
  network: number;
  /** the addresses between the network's own and its broadcast address: 2^(32 − prefix) − 2 */
  hosts: number;
}

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * `a.b.c.d/n` → the network (masked, as Go's net.ParseCIDR gives it); undefined for anything else
 * (an IPv6 CIDR, a prefix longer than /30, which leaves no address for a pod).
 */
export function parseIpv4Cidr(s: string): Ipv4Cidr | undefined {
  const m = CIDR.exec(s);
  if (!m) return undefined;
  const octets = [m[1], m[2], m[3], m[4]].map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 30) return undefined;
  const address = octets.reduce((n, o) => n * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  return { network: address - (address % size), hosts: size - 2 };
}

/** The dotted form of an unsigned 32-bit address. */
export function ipv4(n: number): string {
  return `${Math.floor(n / 16777216) % 256}.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
}
