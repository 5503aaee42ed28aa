// Service (core/v1): selector, type, traffic policies, ports.

import type { Service, ServicePort } from "../../kubernetes/objects.ts";
import {
  fail,
  int,
  knownFields,
  list,
  type Obj,
  obj,
  optBool,
  optInt,
  optOneOf,
  optStr,
  required,
  show,
} from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { port } from "./container.ts";
import * as F from "./fields.ts";
import { check, type Meta, optLabelMap } from "./meta.ts";
import { isDNS1123Label } from "./names.ts";

export function service(src: SourceDoc, objectPath: Path, metadata: Meta, o: Obj): Service {
  const path = [...objectPath, "spec"];
  const s = o.spec == null ? {} : obj(src, path, o.spec);
  knownFields(src, path, s, F.SERVICE_SPEC_FIELDS, "ServiceSpec");
  const spec: Service["spec"] = {};
  const selector = optLabelMap(src, [...path, "selector"], s.selector);
  if (selector) spec.selector = selector;
  const type = optOneOf(src, [...path, "type"], s.type, [
    "ClusterIP",
    "NodePort",
    "LoadBalancer",
    "ExternalName",
  ] as const);
  if (type) spec.type = type;
  const etp = optOneOf(src, [...path, "externalTrafficPolicy"], s.externalTrafficPolicy, [
    "Cluster",
    "Local",
  ] as const);
  if (etp) spec.externalTrafficPolicy = etp;
  const itp = optOneOf(src, [...path, "internalTrafficPolicy"], s.internalTrafficPolicy, [
    "Cluster",
    "Local",
  ] as const);
  if (itp) spec.internalTrafficPolicy = itp;
  // The values of the newest API (core/v1 ServiceTrafficDistribution*); which of them a version's
  // API server accepts is checked against kubernetesVersion (load/scenario/traffic-distribution.ts).
  const td = optOneOf(src, [...path, "trafficDistribution"], s.trafficDistribution, [
    "PreferClose",
    "PreferSameZone",
    "PreferSameNode",
  ] as const);
  if (td) spec.trafficDistribution = td;
  const pnra = optBool(src, [...path, "publishNotReadyAddresses"], s.publishNotReadyAddresses);
  if (pnra !== undefined) spec.publishNotReadyAddresses = pnra;
  const clusterIP = optStr(src, [...path, "clusterIP"], s.clusterIP);
  if (clusterIP !== undefined) spec.clusterIP = clusterIP;
  if (s.ports != null) {
    const pp = [...path, "ports"];
    const ports = list(src, pp, s.ports);
    const names = new Set<string>();
    spec.ports = ports.map((p, i): ServicePort => {
      const ip = [...pp, i];
      const po = obj(src, ip, p);
      knownFields(src, ip, po, F.SERVICE_PORT_FIELDS, "ServicePort");
      const sp: ServicePort = {
        port: int(src, [...ip, "port"], required(src, ip, po, "port", "ServicePort"), { min: 1, max: 65535 }),
      };
      // validateServicePort: a name is a DNS-1123 label, unique, and required when there are several ports.
      const name = optStr(src, [...ip, "name"], po.name);
      if (!name && ports.length > 1)
        fail(
          src,
          po.name == null ? ip : [...ip, "name"],
          "missing-field",
          'missing required field "name" (a Service with more than one port must name each)',
        );
      if (name) {
        check(src, [...ip, "name"], name, isDNS1123Label, "port name");
        if (names.has(name)) fail(src, [...ip, "name"], "invalid-value", `Duplicate value: ${show(name)}`);
        names.add(name);
      }
      if (name !== undefined) sp.name = name;
      if (po.targetPort != null) sp.targetPort = port(src, [...ip, "targetPort"], po.targetPort);
      const nodePort = optInt(src, [...ip, "nodePort"], po.nodePort, { min: 1, max: 65535 });
      if (nodePort !== undefined) sp.nodePort = nodePort;
      const protocol = optOneOf(src, [...ip, "protocol"], po.protocol, ["TCP", "UDP", "SCTP"] as const);
      if (protocol) sp.protocol = protocol;
      return sp;
    });
  }
  return { kind: "Service", metadata, spec };
}
