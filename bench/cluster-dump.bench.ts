// Loading a dump of a large cluster (issue 12: 1,000 nodes and 30,000 pods in under 3 s): the
// benchmarks' large cluster (zone-loss-at-scale.ts) at t=0, dumped with --dump-at's conversion, each
// object given a managedFields entry as the API server writes one, written as `kubectl get -o json`
// and `-o yaml` print it, then read back with `simulate --cluster`'s loader (read, parse, validate).

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadScenarioFile, parseScenario } from "../src/load/index.ts";
import { dumpAt, formatDump } from "../src/serve/dump.ts";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

const TARGET_SECONDS = 3;

export default async function (): Promise<void> {
  const scenario = parseScenario(zoneLossAtScaleText(), "zone-loss-at-scale.yaml", () => undefined);
  const items = dumpAt(scenario, 0);
  for (const o of items)
    (o.metadata as unknown as Record<string, unknown>).managedFields = [
      {
        apiVersion: o.apiVersion,
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:labels": { ".": {} } },
          "f:spec": { ".": {} },
          "f:status": { ".": {} },
        },
        manager: o.kind === "Node" ? "kubelet" : "kube-controller-manager",
        operation: "Update",
        time: o.metadata.creationTimestamp,
      },
    ];
  const pods = items.filter((o) => o.kind === "Pod").length;
  const nodes = items.filter((o) => o.kind === "Node").length;
  const dir = mkdtempSync(join(tmpdir(), "faultline-dump-bench-"));
  try {
    console.log(
      `a dump of ${nodes.toLocaleString("en")} nodes, ${pods.toLocaleString("en")} pods, ${items.length.toLocaleString("en")} objects`,
    );
    // The YAML reader (the yaml package, keeping every node's position) reads about 1–2 MiB/s and the
    // whole dump as YAML does not fit in the default heap, so it reads the first 100 nodes and their
    // pods (3,000): a dump of this size as YAML cannot meet the target; JSON (`-o json`) is the fast form.
    const first = new Set(
      items
        .filter((o) => o.kind === "Node")
        .slice(0, 100)
        .map((o) => o.metadata.name),
    );
    const slice = items.filter(
      (o) =>
        (o.kind !== "Node" && o.kind !== "Pod") ||
        first.has(o.kind === "Node" ? o.metadata.name : o.spec.nodeName),
    );
    for (const [format, list] of [
      ["json", items],
      ["yaml", slice],
    ] as const) {
      const file = join(dir, `dump.${format}`);
      writeFileSync(file, formatDump(list, format));
      const start = performance.now();
      const cpu = process.cpuUsage();
      const loaded = loadScenarioFile(undefined, { cluster: file });
      const s = (performance.now() - start) / 1000;
      // CPU time (every thread: the GC's too) tells the load's own cost on a busy machine.
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      const mib = statSync(file).size / 1048576;
      console.log(
        `  -o ${format.padEnd(4)} ${mib.toFixed(0).padStart(4)} MiB  loaded in ${s.toFixed(2)} s, ${cpuSeconds.toFixed(2)} s of CPU (${(mib / s).toFixed(0)} MiB/s; ${loaded.nodes.length} nodes, ${loaded.manifests.length.toLocaleString("en")} objects)  target < ${TARGET_SECONDS} s: ${(s / TARGET_SECONDS).toFixed(2)}×`,
      );
    }
    console.log(
      "  the target is for -o json: a YAML dump of this size does not load in the default heap (the yaml reader keeps every node's position) and would take minutes at the rate above",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
