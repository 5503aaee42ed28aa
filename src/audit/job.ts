// `--emit-job N`: the sweep as a Kubernetes Indexed Job, for sweeps too large for one machine. The
// inputs (manifests, and the scenario file) go in a ConfigMap mounted where the command line found
// them, so the shards read the same paths; each pod runs its shard (`JOB_COMPLETION_INDEX`, which the
// Job controller sets for completionMode Indexed) and prints it on stdout; `faultline audit merge`
// combines the logs into the result.

import { stringify } from "yaml";

export const CONFIGMAP_LIMIT = 1024 * 1024;

export interface JobInput {
  /** every input file, with the path the command line used (relative, or absolute) */
  files: { path: string; text: string }[];
  /** the audit's arguments, without --shard, --emit-job, --jobs or output options */
  args: string[];
  shards: number;
  version: string;
  name?: string;
}

/** A ConfigMap key for a path: its characters mapped to the set a key allows, made unique. */
function keyOf(path: string, used: Set<string>): string {
  const base =
    path
      .replace(/^\/+/, "")
      .replace(/[^-._a-zA-Z0-9]/g, "_")
      .slice(-200) || "input";
  let key = base;
  for (let i = 2; used.has(key); i++) key = `${i}-${base}`;
  used.add(key);
  return key;
}

export function jobManifests(input: JobInput): string {
  const name = input.name ?? "faultline-audit";
  const used = new Set<string>();
  const items = input.files.map((f) => ({ key: keyOf(f.path, used), path: f.path, text: f.text }));
  // Relative paths are mounted as they are under the working directory; others by their key.
  const mounted = (p: string) => !p.startsWith("/") && !p.split("/").includes("..");
  const where = new Map(items.map((i) => [i.path, mounted(i.path) ? i.path : `inputs/${i.key}`]));
  const args = input.args.map((a) => where.get(a) ?? a);
  const configMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${name}-inputs`, labels: { "app.kubernetes.io/name": "faultline-audit" } },
    data: Object.fromEntries(items.map((i) => [i.key, i.text])),
  };
  const job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, labels: { "app.kubernetes.io/name": "faultline-audit" } },
    spec: {
      completionMode: "Indexed",
      completions: input.shards,
      parallelism: input.shards,
      backoffLimit: input.shards,
      template: {
        metadata: { labels: { "app.kubernetes.io/name": "faultline-audit" } },
        spec: {
          restartPolicy: "Never",
          containers: [
            {
              name: "audit",
              image: "node:20-slim",
              workingDir: "/work",
              command: ["npx", "--yes", `faultline@${input.version}`, "audit"],
              // $(JOB_COMPLETION_INDEX) is expanded by the kubelet from the container's environment.
              args: [...args, `--shard=$(JOB_COMPLETION_INDEX)/${input.shards}`],
              resources: { requests: { cpu: "2", memory: "2Gi" } },
              volumeMounts: [{ name: "inputs", mountPath: "/work", readOnly: true }],
            },
          ],
          volumes: [
            {
              name: "inputs",
              configMap: {
                name: `${name}-inputs`,
                items: items.map((i) => ({ key: i.key, path: where.get(i.path)! })),
              },
            },
          ],
        },
      },
    },
  };
  const head = [
    `# faultline audit as an Indexed Job: ${input.shards} shards, each printing its part on stdout.`,
    "# kubectl apply -f job.yaml; kubectl wait --for=condition=complete job/" + name + " --timeout=1h",
    `# for i in $(seq 0 ${input.shards - 1}); do kubectl logs -l batch.kubernetes.io/job-completion-index=$i,job-name=${name} > shard-$i.json; done`,
    "# faultline audit merge shard-*.json",
  ];
  return `${head.join("\n")}\n${stringify(configMap)}---\n${stringify(job)}`;
}

export function configMapBytes(files: { text: string }[]): number {
  return files.reduce((s, f) => s + new TextEncoder().encode(f.text).length, 0);
}
