// FL012: a datastore's data in an emptyDir. An emptyDir lives and dies with its pod ("When a Pod is
// removed from a node for any reason, the data in the emptyDir is deleted permanently", Kubernetes
// documentation, Volumes: emptyDir): every replacement after a node loss or a drain starts empty.
// A datastore is recognised by its image (redis, postgres, mysql, mariadb, mongo, elasticsearch,
// kafka, zookeeper, etcd, rabbitmq, cassandra, memcached) with the emptyDir mounted. The sweep
// measures when the pod is replaced; the fix keeps the data on a PersistentVolumeClaim, and since a
// ReadWriteOnce volume then needs the out-of-service taint after a loss (FL003), simulates both.

import type { Workload } from "../state.ts";
import { OUT_OF_SERVICE_AFTER } from "./fl003-statefulset-needs-a-person.ts";
import {
  brokenWithoutFault,
  type Draft,
  d,
  effectOf,
  faultRuns,
  type Rule,
  type RuleInput,
  servicesOf,
  shortEffect,
  when,
} from "./rule.ts";

const DATASTORE =
  /(^|\/)(redis|valkey|postgres|postgresql|mysql|mariadb|mongo|mongodb|elasticsearch|opensearch|kafka|zookeeper|etcd|rabbitmq|cassandra|memcached)([:@]|$)/;

function isDatastore(image: string | undefined): boolean {
  return image !== undefined && DATASTORE.test(`${image.split(":")[0]!.toLowerCase()}:`);
}

interface Found {
  container: string;
  image: string;
  volume: string;
  mountPath: string;
}

/** The datastore container and its emptyDir, read from the object as written (load/ keeps no emptyDir). */
export function emptyDirState(input: RuleInput, w: Workload): Found | undefined {
  // The images are kept by load/: the object as written is read only for a datastore's.
  if (!w.spec.containers.some((c) => isDatastore(c.image))) return undefined;
  const raw = input.locator.raw(w.id);
  const spec = (
    w.specPath === "spec" ? raw?.spec : (raw?.spec as { template?: { spec?: unknown } })?.template?.spec
  ) as
    | {
        volumes?: { name?: string; emptyDir?: unknown }[];
        containers?: {
          name?: string;
          image?: string;
          volumeMounts?: { name?: string; mountPath?: string }[];
        }[];
      }
    | undefined;
  const empty = new Set(
    (spec?.volumes ?? []).filter((v) => v.emptyDir !== undefined && v.name).map((v) => v.name!),
  );
  for (const c of spec?.containers ?? []) {
    if (!c.image || !isDatastore(c.image)) continue;
    const m = (c.volumeMounts ?? []).find((x) => x.name && empty.has(x.name));
    if (m) return { container: c.name ?? "", image: c.image, volume: m.name!, mountPath: m.mountPath ?? "" };
  }
  return undefined;
}

export const FL012: Rule = {
  id: "FL012",
  name: "emptydir-state",
  title: "A datastore's data in an emptyDir",
  severity: "warning",
  check(input, runs) {
    const out: Draft[] = [];
    const sweep = faultRuns(runs);
    for (const w of input.objects.workloads) {
      if (w.kind === "DaemonSet") continue;
      const found = emptyDirState(input, w);
      if (!found || brokenWithoutFault(runs, "workload", w.id)) continue;
      const replaced = sweep.filter((r) => (r.workloads[w.id]?.replaced ?? 0) > 0);
      const worst = replaced.find((r) => r.fault.class === "power-off") ?? replaced[0];
      if (!worst) continue;
      const f = worst.workloads[w.id]!;
      const svc = servicesOf(input.objects, w.id)[0];
      const sf = svc ? worst.services[svc.id] : undefined;
      const svcText = svc && sf && sf.degraded > 0 ? `${effectOf("service", svc.id, sf)}; ` : "";
      const claim = `${w.name}-${found.volume}`;
      const pvc = {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name: claim, namespace: w.namespace },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      };
      const loss = worst.fault.class === "power-off" || worst.fault.class === "zone";
      out.push({
        object: w.id,
        field: `${w.specPath}.volumes[name=${found.volume}]`,
        severity: "warning",
        message: `${w.kind} ${w.namespace}/${w.name} keeps ${found.image}'s data in emptyDir ${found.volume} (${found.mountPath}): it is deleted with the pod`,
        consequence: {
          run: worst.id,
          text: `${when(worst.fault)}, ${svcText}its pod is replaced ${d((f.firstReplacedAt ?? 0) - worst.fault.at)} later and starts with ${found.volume} empty: the data is gone`,
          figures: f,
        },
        fix: {
          text: `a PersistentVolumeClaim ${w.namespace}/${claim} (ReadWriteOnce) for ${found.volume}${loss ? `, and the out-of-service taint on a lost node (simulated ${OUT_OF_SERVICE_AFTER / 60}m after the loss), which a ReadWriteOnce volume then needs` : ""}`,
          spec: {
            id: `fix/FL012/${w.id}`,
            fault: worst.fault,
            patches: [
              { path: "manifests", value: [...input.manifestEntries, pvc] },
              {
                object: w.id,
                path: `${w.specPath}.volumes[name=${found.volume}]`,
                value: { name: found.volume, persistentVolumeClaim: { claimName: claim } },
              },
            ],
            retarget: { workload: w.id, class: worst.fault.class as "power-off", prefer: worst.fault.target },
            ...(loss
              ? { operator: { do: "taint-out-of-service" as const, after: OUT_OF_SERVICE_AFTER } }
              : {}),
          },
          subject: { kind: "workload", id: w.id },
          effect: (g, run) =>
            `${when(run.fault)}: the data stays on the claim; ${shortEffect("workload", g)}`,
        },
      });
    }
    return out;
  },
};
