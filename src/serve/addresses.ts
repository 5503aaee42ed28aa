// The addresses a real cluster shows that the model does not keep: Services' cluster IPs and
// Nodes' addresses and system info.
//
// Cluster IPs. kube-apiserver allocates a ClusterIP from --service-cluster-ip-range, kubeadm's
// default 10.96.0.0/12 (cmd/kubeadm/app/apis/kubeadm/v1beta4 DefaultServicesSubnet), the range's
// first address going to the `kubernetes` Service. Since 1.24 (KEP-3070, pkg/registry/core/service/
// ipallocator) dynamic allocation takes addresses above the range's lower band of
// min(max(16, size/16), 256) addresses, which is left to static ones. The real allocator picks at
// random; here the address is drawn from the Service's namespace and name (FNV-1a), probing upward
// past the addresses taken, so the same input gives the same addresses. An address written in the
// input (a manifest's spec.clusterIP, a dump's Service) is kept, and `None` stays headless. A dump
// does not carry kube-apiserver's flag, so its Services' addresses are the evidence of the range:
// the /16 holding them all (EKS's 10.100.0.0/16 or 172.20.0.0/16), else 10.96.0.0/12 when they lie
// in it, else the /16 of the first; with no address written, 10.96.0.0/12.
//
// Node addresses. A dump's Node keeps its status.addresses and status.nodeInfo as read. A node the
// scenario describes gets an InternalIP on a kind-style node network, 172.18.0.0/16 from .2 in the
// scenario's node order (kind's Docker network "kind"), and its name as Hostname, the two types the
// kubelet reports without a cloud provider (pkg/kubelet/nodestatus/setters.go NodeAddress).

import { ipv4, parseIpv4Cidr } from "../kubernetes/cidr.ts";
import type { Service } from "../kubernetes/objects.ts";
import type { NodeSpec } from "../scenario/types.ts";

const DEFAULT_SERVICE_CIDR = "10.96.0.0/12";

function fnv(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function toNumber(ip: string): number | undefined {
  const c = parseIpv4Cidr(`${ip}/30`);
  if (!c) return undefined;
  return ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
}

/** The service range: 10.96.0.0/12, or the /16 of the input's first written address outside it. */
export function serviceRange(services: readonly Service[]): { network: number; size: number; text: string } {
  const base = parseIpv4Cidr(DEFAULT_SERVICE_CIDR)!;
  const inDefault = (n: number) => n >= base.network && n < base.network + base.hosts + 2;
  const written = services
    .map((s) => s.spec.clusterIP)
    .filter((ip): ip is string => ip !== undefined && ip !== "None" && ip !== "")
    .map(toNumber)
    .filter((n): n is number => n !== undefined);
  const whole = { network: base.network, size: base.hosts + 2, text: DEFAULT_SERVICE_CIDR };
  const first = written[0];
  if (first === undefined) return whole;
  const network = first - (first % 65536);
  const sixteen = { network, size: 65536, text: `${ipv4(network)}/16` };
  if (written.every((n) => n - (n % 65536) === network)) return sixteen;
  return written.every(inDefault) ? whole : sixteen;
}

/**
 * Every Service's ClusterIP by `namespace/name`: the written ones, then the others in namespace and
 * name order, each from its hash above the lower band, probing past those taken.
 */
export function clusterIps(services: readonly Service[]): Map<string, string> {
  const out = new Map<string, string>();
  const range = serviceRange(services);
  const taken = new Set<number>([range.network + 1]);
  const key = (s: Service) => `${s.metadata.namespace}/${s.metadata.name}`;
  const sorted = [...services].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  for (const s of sorted) {
    const ip = s.spec.clusterIP;
    if (ip === undefined || ip === "") continue;
    out.set(key(s), ip);
    const n = ip === "None" ? undefined : toNumber(ip);
    if (n !== undefined) taken.add(n);
  }
  // kubeadm gives CoreDNS's Service the range's tenth address (cmd/kubeadm/app/constants GetDNSIP).
  const dns = sorted.find((s) => key(s) === "kube-system/kube-dns" && !out.has(key(s)));
  if (dns && !taken.has(range.network + 10)) {
    out.set(key(dns), ipv4(range.network + 10));
    taken.add(range.network + 10);
  }
  const band = Math.min(Math.max(16, Math.floor(range.size / 16)), 256);
  // Addresses band … size − 2: not the network address, not the broadcast address.
  const span = range.size - 1 - band;
  for (const s of sorted) {
    if (out.has(key(s)) || s.spec.type === "ExternalName") continue;
    let offset = fnv(key(s)) % span;
    while (taken.has(range.network + band + offset)) offset = (offset + 1) % span;
    const n = range.network + band + offset;
    taken.add(n);
    out.set(key(s), ipv4(n));
  }
  return out;
}

export interface NodeAddress {
  type: string;
  address: string;
}

/** A node's status.addresses: the dump's, else InternalIP 172.18.0.(2 + index) and Hostname. */
export function nodeAddresses(spec: NodeSpec | undefined, index: number, name: string): NodeAddress[] {
  if (spec?.addresses?.length) return spec.addresses.map((a) => ({ ...a }));
  const node = parseIpv4Cidr("172.18.0.0/16")!;
  if (index < 0 || index + 2 > node.hosts) return [{ type: "Hostname", address: name }];
  return [
    { type: "InternalIP", address: ipv4(node.network + 2 + index) },
    { type: "Hostname", address: name },
  ];
}
