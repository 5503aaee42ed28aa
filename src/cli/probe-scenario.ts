// The scenario `faultline probes --boot` runs a workload in, written as a scenario source and read by the
// loader like any scenario file: the workload as its manifest wrote it (one replica), the Services that
// select it (or one made up), one node, the run's kubelet settings and behaviour, and the deadlock step.
// What the source leaves out comes from the loader's defaults: the Kubernetes version (the newest
// supported, kubernetes/configuration.ts NEWEST_VERSION) and the node's pods (the kubelet's maxPods).

import { matchesMap } from "../kubernetes/labels.ts";
import { parseScenario } from "../load/index.ts";
import { parseYamlFile } from "../load/source.ts";
import type { ManifestFile, ManifestObject, Scenario, SourcePos } from "../scenario/types.ts";
import type { DeclaredWorkload } from "../trace/workloads.ts";

type Raw = Record<string, unknown>;

/** What the run is asked to do: the app's timings and the kubelet's settings. */
export interface ProbeRunSettings {
  bootSeconds: number;
  readyAfterSeconds: number;
  forSeconds: number;
  probeSchedule: "kubernetes" | "period-end";
  crashLoopBackOff: boolean;
}

const key = (pos: SourcePos) => `${pos.file}:${pos.line}:${pos.col}`;

/** Each object of the files as written (a List's items one by one), by where it stands. */
export function rawObjects(files: readonly ManifestFile[]): Map<string, Raw> {
  const out = new Map<string, Raw>();
  for (const f of files) {
    for (const doc of parseYamlFile(f.text, f.file)) {
      const walk = (value: unknown, path: (string | number)[]): void => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) return;
        const o = value as Raw;
        if (typeof o.kind === "string" && o.kind.endsWith("List") && Array.isArray(o.items)) {
          o.items.forEach((item, i) => {
            walk(item, [...path, "items", i]);
          });
          return;
        }
        const { line, col } = doc.locate(path);
        out.set(key({ file: f.file, line, col }), o);
      };
      walk(doc.value, []);
    }
  }
  return out;
}

/** The workload alone on one node, one replica, behind its Service (one made up if none selects it). */
export function probeScenario(
  w: DeclaredWorkload,
  manifests: readonly ManifestObject[],
  raw: ReadonlyMap<string, Raw>,
  s: ProbeRunSettings,
  deadlockAt: number | undefined,
): Scenario {
  const object = structuredClone(raw.get(key(w.manifest.pos))!) as Raw & { spec: Raw };
  if (w.kind === "Deployment" || w.kind === "ReplicaSet" || w.kind === "StatefulSet")
    object.spec.replicas = 1;
  if (w.kind === "Pod") delete object.spec.nodeName;
  const labels = w.labels;
  const services: Raw[] = manifests
    .filter(
      (m) =>
        m.object.kind === "Service" &&
        (m.object.metadata.namespace ?? "default") === w.namespace &&
        matchesMap(m.object.spec.selector, labels),
    )
    .map((m) => raw.get(key(m.pos))!);
  if (services.length === 0 && Object.keys(labels).length > 0)
    services.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: `${w.name}-probes`, namespace: w.namespace },
      spec: { selector: labels, ports: [{ port: 80 }] },
    });
  const duration = s.forSeconds + 10;
  // A deadlock after the end of the run would never happen: the step is left out, as the run ends first.
  const deadlock =
    deadlockAt === undefined || deadlockAt > duration
      ? []
      : [
          {
            at: deadlockAt,
            do: "deadlock",
            pod: `${w.kind}/${w.name}[0]`,
          },
        ];
  const source = {
    name: `probes-${w.name}`,
    seed: 1,
    duration,
    start: "created",
    nodes: [{ name: "worker-1", capacity: { cpu: 64, memory: "256Gi" } }],
    manifests: [object, ...services],
    kubelet: { probeSchedule: s.probeSchedule, crashLoopBackOff: s.crashLoopBackOff },
    behaviour: { [w.name]: { bootSeconds: s.bootSeconds, readyAfterSeconds: s.readyAfterSeconds } },
    timeline: deadlock,
  };
  return parseScenario(JSON.stringify(source, null, 2), w.manifest.pos.file, () => undefined);
}
