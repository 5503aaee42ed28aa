// A Service's `spec.trafficDistribution` against the version's API server (KEP-4444, KEP-3015):
// - before 1.31 the API server drops it (1.30: ServiceTrafficDistribution off, dropDisabledServiceFields
//   in pkg/registry/core/service; 1.28–1.29: no such field): listed as not modelled, and the Service
//   routes cluster-wide, as it would there;
// - 1.31–1.33 accept only "PreferClose" (PreferSameTrafficDistribution off): PreferSameZone and
//   PreferSameNode are refused where they are written, in the API server's NotSupported words
//   (pkg/apis/core/validation validateServiceTrafficDistribution).

import {
  minor,
  PREFER_SAME_TRAFFIC_DISTRIBUTION_SINCE_MINOR,
  SERVICE_TRAFFIC_DISTRIBUTION_SINCE_MINOR,
} from "../../kubernetes/defaults.ts";
import type { KubernetesVersion } from "../../scenario/types.ts";
import { fail } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";

const TOPOLOGY_ANNOTATIONS = [
  "service.kubernetes.io/topology-mode",
  "service.kubernetes.io/topology-aware-hints",
] as const;

export function checkTrafficDistribution(c: Collected, version: KubernetesVersion): void {
  const v = minor(version);
  c.manifests.forEach((m, i) => {
    const { object } = m;
    if (object.kind !== "Service") return;
    const { src, path } = c.where[i]!;
    // Topology aware routing (KEP-2433, service.kubernetes.io/topology-mode: Auto, its older
    // topology-aware-hints name) hints by each zone's CPU share: not modelled, so said.
    for (const key of TOPOLOGY_ANNOTATIONS) {
      const name = `Service.metadata.annotations[${key}]`;
      if (object.metadata.annotations?.[key] === undefined || c.notModelled.has(name)) continue;
      const { line } = src.locate([...path, "metadata", "annotations", key], "key");
      c.notModelled.set(name, { where: `${src.file}:${line}`, object: i, line });
    }
    if (object.spec.trafficDistribution === undefined) return;
    const at = [...path, "spec", "trafficDistribution"];
    if (v < SERVICE_TRAFFIC_DISTRIBUTION_SINCE_MINOR) {
      // Dropped from a copy: a loaded object is shared by the loads of its document (manifest/kept.ts).
      const { trafficDistribution: _dropped, ...spec } = object.spec;
      c.manifests[i] = { ...m, object: { ...object, spec } };
      const name = "Service.trafficDistribution";
      if (c.notModelled.has(name)) return;
      const { line } = src.locate(at, "key");
      c.notModelled.set(name, { where: `${src.file}:${line}`, object: i, line });
      return;
    }
    const value = object.spec.trafficDistribution;
    if (value !== "PreferClose" && v < PREFER_SAME_TRAFFIC_DISTRIBUTION_SINCE_MINOR)
      fail(
        src,
        at,
        "invalid-value",
        `Unsupported value: "${value}": supported values: "PreferClose" (Kubernetes ${version}: PreferSameZone and PreferSameNode need PreferSameTrafficDistribution, on from 1.34, KEP-3015)`,
      );
  });
}
