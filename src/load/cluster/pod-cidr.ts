// A node's pod CIDR that is well formed but cannot hold the node's pods.

const CIDR_FORM = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * Why a well-formed IPv4 CIDR cannot be a node's pod CIDR, or undefined when it can (or is no
 * IPv4 CIDR at all). A /31 or /32 leaves no address to hand out: the CNI's host-local IPAM refuses
 * it ("Network … too small to allocate from", plugins/ipam/host-local/backend/allocator/range.go
 * Canonicalize: a prefix longer than bits − 2). A network in 0.0.0.0/8 (0.0.0.0/0 among them) would
 * hand out 0.0.0.1 first, an address of "this network" that no packet may be sent to (RFC 1122
 * 3.2.1.3, RFC 6890); no node IPAM gives it (the range allocator splits --cluster-cidr, a private
 * range, into --node-cidr-mask-size pieces, /24 by default).
 */
export function unusablePodCidr(s: string): string | undefined {
  const m = CIDR_FORM.exec(s);
  if (!m) return undefined;
  const octets = [m[1], m[2], m[3], m[4]].map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  if (prefix > 30)
    return `${JSON.stringify(s)} is a CIDR too small for pods: a /${prefix} has no address to hand out (host-local IPAM: "too small to allocate from"; a node's pod CIDR is a /24 by default)`;
  if (octets[0] === 0 || prefix === 0)
    return `${JSON.stringify(s)} is no pod CIDR: its addresses would begin in 0.0.0.0/8, "this network", which no packet may be sent to (RFC 1122 3.2.1.3); node IPAM hands each node a piece of --cluster-cidr (a /24 by default)`;
  return undefined;
}
