// FL012: a datastore's data in an emptyDir. An emptyDir lives and dies with its pod ("When a Pod is
// removed from a node for any reason, the data in the emptyDir is deleted permanently", Kubernetes
// documentation, Volumes: emptyDir): every replacement after a node loss or a drain starts empty.
// Only where the emptyDir holds the data: mounted at the image's documented data directory, or at
// the one its env (PGDATA…) or flags (--data-dir…) name; never a `medium: Memory` emptyDir (tmpfs:
// scratch space) nor a config or scratch directory, whatever the image is called. The sweep
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

/**
 * Each datastore image's data directories, as its official image declares them: the Dockerfile's
 * VOLUME (docker-library: redis and valkey `/data`; postgres `/var/lib/postgresql/data`, PGDATA's
 * default, `/var/lib/postgresql` from 18; mysql, mariadb `/var/lib/mysql`; mongo `/data/db`;
 * rabbitmq `/var/lib/rabbitmq`; cassandra `/var/lib/cassandra`; zookeeper ZOO_DATA_DIR `/data` and
 * ZOO_DATA_LOG_DIR `/datalog`) or its documentation (Elasticsearch and OpenSearch
 * `/usr/share/<name>/data`; Kafka's images `/var/lib/kafka/data`; etcd in Kubernetes `/var/lib/etcd`).
 * Bitnami's images keep theirs under `/bitnami/<name>`. Matched on the image's last path segment.
 */
const DATA_DIRS: [RegExp, string[]][] = [
  [/^(redis|redis-stack-server|valkey)$/, ["/data"]],
  [/^(postgres|postgresql)$/, ["/var/lib/postgresql/data", "/var/lib/postgresql"]],
  [/^(mysql|mysql-server|mariadb|percona-server)$/, ["/var/lib/mysql"]],
  [/^(mongo|mongodb|mongodb-community-server)$/, ["/data/db"]],
  [/^elasticsearch$/, ["/usr/share/elasticsearch/data"]],
  [/^opensearch$/, ["/usr/share/opensearch/data"]],
  [/^(kafka|cp-kafka)$/, ["/var/lib/kafka/data", "/var/lib/kafka"]],
  [/^zookeeper$/, ["/data", "/datalog"]],
  [/^etcd$/, ["/var/lib/etcd"]],
  [/^rabbitmq$/, ["/var/lib/rabbitmq"]],
  [/^cassandra$/, ["/var/lib/cassandra"]],
];

/**
 * Environment variables that name a datastore's data directory, whatever the image: PGDATA
 * (postgres), ZOO_DATA_DIR and ZOO_DATA_LOG_DIR (zookeeper's image), ETCD_DATA_DIR (etcd: every flag
 * has an ETCD_ variable), KAFKA_LOG_DIRS and KAFKA_CFG_LOG_DIRS (Kafka's log.dirs, Confluent's and
 * Bitnami's images), RABBITMQ_MNESIA_BASE (RabbitMQ), MONGO_DATA_DIR.
 */
const DATA_ENV = new Set([
  "PGDATA",
  "ZOO_DATA_DIR",
  "ZOO_DATA_LOG_DIR",
  "ETCD_DATA_DIR",
  "KAFKA_LOG_DIRS",
  "KAFKA_CFG_LOG_DIRS",
  "RABBITMQ_MNESIA_BASE",
  "MONGO_DATA_DIR",
]);

/**
 * Command-line flags that name it: etcd `--data-dir`, mysqld and mariadbd `--datadir`, mongod
 * `--dbpath`, redis-server `--dir`, postgres `-D`, Elasticsearch `-Epath.data=`, Kafka `log.dirs=`.
 */
const DATA_FLAG = /^(--data-dir|--datadir|--dbpath|--dir|-D)$/;
const DATA_FLAG_INLINE =
  /^(?:--data-dir|--datadir|--dbpath|--dir|-Epath\.data|--override=log\.dirs|log\.dirs)=(.+)$/;

interface RawContainer {
  name?: string;
  image?: string;
  env?: { name?: string; value?: unknown }[];
  command?: unknown[];
  args?: unknown[];
  volumeMounts?: { name?: string; mountPath?: string }[];
}

function imageName(image: string): string {
  const noDigest = image.split("@")[0]!;
  const last = noDigest.slice(noDigest.lastIndexOf("/") + 1);
  return last.split(":")[0]!.toLowerCase();
}

/** `dir` is the mount or inside it. */
function under(dir: string, mount: string): boolean {
  const m = mount.replace(/\/+$/, "");
  return dir === m || dir.startsWith(`${m}/`);
}

/** The directories a container names as its data: from its env and its command line. */
function namedDataDirs(c: RawContainer): { dir: string; why: string }[] {
  const out: { dir: string; why: string }[] = [];
  for (const e of c.env ?? [])
    if (e.name && DATA_ENV.has(e.name) && typeof e.value === "string")
      for (const dir of e.value.split(","))
        if (dir.startsWith("/")) out.push({ dir, why: `${e.name}=${e.value}` });
  const argv = [...(c.command ?? []), ...(c.args ?? [])].filter((a): a is string => typeof a === "string");
  for (let i = 0; i < argv.length; i++) {
    const inline = DATA_FLAG_INLINE.exec(argv[i]!);
    if (inline) for (const dir of inline[1]!.split(",")) out.push({ dir, why: argv[i]! });
    else if (DATA_FLAG.test(argv[i]!) && argv[i + 1]?.startsWith("/"))
      out.push({ dir: argv[i + 1]!, why: `${argv[i]} ${argv[i + 1]}` });
  }
  return out;
}

/** Why the mount holds the container's data, or undefined when nothing says it does. */
function holdsData(c: RawContainer, mountPath: string): string | undefined {
  const named = namedDataDirs(c).find((n) => under(n.dir, mountPath));
  if (named) return named.why;
  if (!c.image) return undefined;
  const name = imageName(c.image);
  if (c.image.toLowerCase().includes("bitnami/") && under(`/bitnami/${name}`, mountPath))
    return `${name}'s data directory in Bitnami's image`;
  const dirs = DATA_DIRS.find(([re]) => re.test(name))?.[1] ?? [];
  const dir = dirs.find((x) => under(x, mountPath));
  return dir ? `${name}'s data directory${dir === mountPath ? "" : ` ${dir}`}` : undefined;
}

interface Found {
  container: string;
  image: string;
  volume: string;
  mountPath: string;
  /** what says the mount holds the data: the image's data directory, an env variable, a flag */
  why: string;
}

/**
 * The container whose data is in an emptyDir, read from the object as written (load/ keeps no
 * emptyDir): a disk-backed emptyDir (not `medium: Memory`, which is RAM: scratch, never a store)
 * mounted where the image keeps its data or where its env or flags say the data is.
 */
export function emptyDirState(input: RuleInput, w: Workload): Found | undefined {
  const raw = input.locator.raw(w.id);
  const spec = (
    w.specPath === "spec" ? raw?.spec : (raw?.spec as { template?: { spec?: unknown } })?.template?.spec
  ) as
    | { volumes?: { name?: string; emptyDir?: { medium?: string } | null }[]; containers?: RawContainer[] }
    | undefined;
  const empty = new Set(
    (spec?.volumes ?? [])
      .filter((v) => v.emptyDir !== undefined && v.emptyDir?.medium !== "Memory" && v.name)
      .map((v) => v.name!),
  );
  if (empty.size === 0) return undefined;
  for (const c of spec?.containers ?? [])
    for (const m of c.volumeMounts ?? []) {
      if (!m.name || !empty.has(m.name) || !m.mountPath) continue;
      const why = holdsData(c, m.mountPath);
      if (why)
        return { container: c.name ?? "", image: c.image ?? "", volume: m.name, mountPath: m.mountPath, why };
    }
  return undefined;
}

export const FL012: Rule = {
  id: "FL012",
  name: "emptydir-state",
  title: "A datastore's data in an emptyDir",
  severity: "warning",
  // At most one fix per workload that keeps state in an emptyDir: check's loop.
  fixes: (input) =>
    input.objects.workloads.filter((w) => w.kind !== "DaemonSet" && emptyDirState(input, w)).length,
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
        message: `${w.kind} ${w.namespace}/${w.name} keeps ${found.image}'s data in emptyDir ${found.volume} (${found.mountPath}: ${found.why}): it is deleted with the pod`,
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
