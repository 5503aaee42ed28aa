// Discovery as kube-apiserver answers it, in the legacy (unaggregated) form every client falls back
// to: /api (APIVersions), /apis (APIGroupList), /api/v1 and /apis/<group>/<version>
// (APIResourceList), and /version with the scenario's Kubernetes version.

import { apiVersionOf, groups, type ResourceInfo, resourcesOf, VERBS } from "./resources.ts";
import { REVIEW_RESOURCES, REVIEW_VERBS } from "./reviews.ts";

/** The served groups and the reviews' group (authorization.k8s.io), in the order /apis lists them. */
function allGroups(): { name: string; version: string }[] {
  const out = groups();
  for (const r of REVIEW_RESOURCES)
    if (!out.some((g) => g.name === r.group)) out.push({ name: r.group, version: r.version });
  return out;
}

export function versionInfo(versionString: string): Record<string, string> {
  const [major = "1", minor = "0"] = versionString.replace(/^v/, "").split(".");
  return {
    major,
    minor,
    gitVersion: versionString,
    gitCommit: "",
    gitTreeState: "",
    buildDate: "",
    goVersion: "",
    compiler: "",
    platform: "",
  };
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupJ(name: string, version: string): Record<string, unknown> {
  const gv = { groupVersion: `${name}/${version}`, version };
  return { name, versions: [gv], preferredVersion: gv };
}

export function apiGroupList(): Record<string, unknown> {
  return {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: allGroups().map((g) => groupJ(g.name, g.version)),
  };
}

export function apiGroup(name: string): Record<string, unknown> | undefined {
  const g = allGroups().find((x) => x.name === name);
  return g && { kind: "APIGroup", apiVersion: "v1", ...groupJ(g.name, g.version) };
}

function resourceJ(r: ResourceInfo): Record<string, unknown> {
  return {
    name: r.resource,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: REVIEW_RESOURCES.includes(r) ? [...REVIEW_VERBS] : [...VERBS],
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
  };
}

export function apiResourceList(group: string, version: string): Record<string, unknown> | undefined {
  const rs = [
    ...resourcesOf(group, version),
    ...REVIEW_RESOURCES.filter((r) => r.group === group && r.version === version),
  ];
  if (rs.length === 0) return undefined;
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: apiVersionOf({ group, version }),
    resources: rs.map(resourceJ),
  };
}
