// References from the manifests to objects that are not among them. faultline's cluster holds only
// what the manifests declare, and its models assume every referenced object exists, where Kubernetes
// would not run the pod: the ServiceAccount admission plugin refuses a pod whose service account does
// not exist (plugin/pkg/admission/serviceaccount/admission.go, "error looking up service account"),
// the kubelet does not mount a configMap or secret volume whose object is missing ("MountVolume.SetUp
// failed … not found", pkg/volume/configmap, pkg/volume/secret) and does not start a container whose
// environment names a missing one (CreateContainerConfigError, kubelet_pods.go
// makeEnvironmentVariables), and the API server refuses an object in a namespace that does not exist.
// Such objects are often created by other means (a Job, an operator, a secret manager), so faultline
// does not model the failure: each such reference is listed as not modelled, once per field, where it
// first appears. References marked `optional: true` are not needed and not listed.

import { isObj } from "../check.ts";
import { lazyPosition, type Path, type SourceDoc } from "../source.ts";
import type { NotModelled } from "./not-modelled.ts";

/** A reference to an object, where it is, and the not-modelled field it stands for. */
export interface Reference {
  /** `Kind/namespace/name`, or `Namespace/name` */
  target: string;
  field: string;
  where: string;
  object: number;
  line: number;
}

/** The fields references are listed as. */
export const REFERENCE_FIELDS: readonly string[] = [
  "ObjectMeta.namespace",
  "PodSpec.serviceAccountName",
  "Volume.configMap",
  "Volume.secret",
  "VolumeProjection.configMap",
  "VolumeProjection.secret",
  "EnvVarSource.configMapKeyRef",
  "EnvVarSource.secretKeyRef",
  "EnvFromSource.configMapRef",
  "EnvFromSource.secretRef",
];

/**
 * Namespaces every cluster has: `default`, and the system namespaces kube-apiserver creates
 * (pkg/controlplane/controller.go: systemNamespaces = kube-system, kube-public, kube-node-lease).
 */
export const BUILTIN_NAMESPACES: readonly string[] = [
  "default",
  "kube-system",
  "kube-public",
  "kube-node-lease",
];

/** The identity an object is referred to by: `Namespace/name` for a namespace, else `Kind/namespace/name`. */
export function objectKey(kind: string, namespace: string, name: string): string {
  return kind === "Namespace" ? `Namespace/${name}` : `${kind}/${namespace}/${name}`;
}

/**
 * The references of the `object`-th loaded object (`o`, its raw value at `path` in `src`, of kind
 * `kind`, in `namespace`): its namespace, and its pods' service account, volumes and environment.
 */
export function referencesOf(
  src: SourceDoc,
  path: Path,
  kind: string,
  o: Record<string, unknown>,
  namespace: string,
  object: number,
): Reference[] {
  const out: Reference[] = [];
  // Positions are found when a note shows them: most references name objects that are present.
  const add = (target: string, field: string, p: Path) => {
    const at = lazyPosition(src, p, "key");
    out.push({
      target,
      field,
      object,
      get line() {
        return at.line;
      },
      get where() {
        return `${src.file}:${at.line}`;
      },
    });
  };
  const meta = isObj(o.metadata) ? o.metadata : {};
  if (typeof meta.namespace === "string" && !BUILTIN_NAMESPACES.includes(namespace))
    add(objectKey("Namespace", "", namespace), "ObjectMeta.namespace", [...path, "metadata", "namespace"]);

  const specPath = kind === "Pod" ? [...path, "spec"] : [...path, "spec", "template", "spec"];
  const spec = specPath.slice(path.length).reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), o);
  if (!isObj(spec)) return out;
  const named = (kindOf: string, name: unknown, field: string, p: Path, optional?: unknown) => {
    if (typeof name === "string" && name !== "" && optional !== true)
      add(objectKey(kindOf, namespace, name), field, p);
  };
  const account = spec.serviceAccountName ?? spec.serviceAccount;
  if (account !== "default")
    named("ServiceAccount", account, "PodSpec.serviceAccountName", [
      ...specPath,
      spec.serviceAccountName !== undefined ? "serviceAccountName" : "serviceAccount",
    ]);
  const volumeSources = (v: Record<string, unknown>, p: Path, type: string) => {
    if (isObj(v.configMap))
      named("ConfigMap", v.configMap.name, `${type}.configMap`, [...p, "configMap"], v.configMap.optional);
    if (isObj(v.secret)) {
      // A secret volume names its Secret `secretName`; a projected one, `name`.
      const name = type === "Volume" ? v.secret.secretName : v.secret.name;
      named("Secret", name, `${type}.secret`, [...p, "secret"], v.secret.optional);
    }
  };
  forEach(spec.volumes, [...specPath, "volumes"], (v, p) => {
    volumeSources(v, p, "Volume");
    if (isObj(v.projected))
      forEach(v.projected.sources, [...p, "projected", "sources"], (s, sp) =>
        volumeSources(s, sp, "VolumeProjection"),
      );
  });
  for (const list of ["initContainers", "containers"] as const)
    forEach(spec[list], [...specPath, list], (c, cp) => {
      forEach(c.env, [...cp, "env"], (e, ep) => {
        if (!isObj(e.valueFrom)) return;
        const vp = [...ep, "valueFrom"];
        for (const [ref, kindOf] of [
          ["configMapKeyRef", "ConfigMap"],
          ["secretKeyRef", "Secret"],
        ] as const) {
          const r = e.valueFrom[ref];
          if (isObj(r)) named(kindOf, r.name, `EnvVarSource.${ref}`, [...vp, ref], r.optional);
        }
      });
      forEach(c.envFrom, [...cp, "envFrom"], (e, ep) => {
        for (const [ref, kindOf] of [
          ["configMapRef", "ConfigMap"],
          ["secretRef", "Secret"],
        ] as const) {
          const r = e[ref];
          if (isObj(r)) named(kindOf, r.name, `EnvFromSource.${ref}`, [...ep, ref], r.optional);
        }
      });
    });
  return out;
}

function forEach(v: unknown, p: Path, visit: (item: Record<string, unknown>, at: Path) => void): void {
  if (!Array.isArray(v)) return;
  v.forEach((item, i) => {
    if (isObj(item)) visit(item, [...p, i]);
  });
}

/** The not-modelled fields with the references to objects that are not in `present`, first of each field. */
export function withMissingReferences(
  notModelled: NotModelled,
  references: readonly Reference[],
  present: ReadonlySet<string>,
): NotModelled {
  const out: NotModelled = new Map(notModelled);
  for (const r of references) {
    if (present.has(r.target) || out.has(r.field)) continue;
    out.set(r.field, { where: r.where, object: r.object, line: r.line });
  }
  return out;
}
