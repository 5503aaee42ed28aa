// The real kubectl (/usr/bin/kubectl, 1.32) against `faultline serve`: what it prints for the
// node-power-loss example at the moments the issue names, a watch that sees the eviction arrive,
// a refused write, and a crash-looping container as `describe` shows it.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findResource } from "../../src/serve/resources.ts";
import { HAS_KUBECTL, rows, type Served, serveExample, waitFor } from "./helpers.ts";

const SKIP = "skipped: /usr/bin/kubectl is not installed (.ci/run installs Debian's kubernetes-client)";
const pods = findResource("", "v1", "pods")!;

// The tests below need a real kubectl: without one they are skipped, and this one fails, so a machine
// that lacks it (a CI image without kubernetes-client) cannot pass by testing nothing.
it("a real kubectl is installed at /usr/bin/kubectl", () => {
  expect(
    HAS_KUBECTL,
    "install it with `apt-get update && apt-get install -y kubernetes-client` (CI does this in .ci/run)",
  ).toBe(true);
});

describe.skipIf(!HAS_KUBECTL)(
  `kubectl get/describe at 70s of node-power-loss${HAS_KUBECTL ? "" : ` (${SKIP})`}`,
  () => {
    let s: Served;
    beforeAll(async () => {
      s = await serveExample("node-power-loss.yaml", 70);
    }, 120_000);
    afterAll(() => s?.stop());

    it("kubectl get nodes: worker-2 NotReady, the others Ready, with the server's columns", async () => {
      const { code, stdout, stderr } = await s.kubectl("get", "nodes");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      const table = rows(stdout);
      expect(table[0]).toEqual(["NAME", "STATUS", "ROLES", "AGE", "VERSION"]);
      expect(table.slice(1).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
        ["worker-1", "Ready", "<none>", "v1.32.0"],
        ["worker-2", "NotReady", "<none>", "v1.32.0"],
        ["worker-3", "Ready", "<none>", "v1.32.0"],
      ]);
      // Created 600s before t=0 (the warm-up), seen at t=70s.
      expect(table[2]![3]).toBe("11m");
    });

    it("kubectl describe node worker-2: the unreachable taints, the Unknown conditions and their message", async () => {
      const { code, stdout } = await s.kubectl("describe", "node", "worker-2");
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /^Taints:\s+node\.kubernetes\.io\/unreachable:NoExecute\n\s+node\.kubernetes\.io\/unreachable:NoSchedule$/m,
      );
      for (const type of ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"]) {
        expect(stdout).toMatch(
          new RegExp(
            `^\\s+${type}\\s+Unknown\\s.*NodeStatusUnknown\\s+Kubelet stopped posting node status\\.$`,
            "m",
          ),
        );
      }
      // The transition at t=57s is printed in virtual wall time (t=0 is 2025-01-01T00:00:00Z).
      expect(stdout).toContain("Wed, 01 Jan 2025 00:00:57 +0000");
      expect(stdout).toMatch(/HolderIdentity:\s+worker-2/);
      // Its Events section is not checked: kubectl before ≈1.23 (Debian bookworm's kubernetes-client is 1.20)
      // searches only for events whose UID is the node's name (the kubelet's), not the node controller's.
      expect(stdout).toMatch(/Non-terminated Pods:\s+\(3 in total\)/);
    });
  },
);

describe.skipIf(!HAS_KUBECTL)(`kubectl at 6m30s of node-power-loss${HAS_KUBECTL ? "" : ` (${SKIP})`}`, () => {
  let s: Served;
  beforeAll(async () => {
    // The NoExecute taint comes at ~62s and tolerationSeconds is 300: the evictions are at ~6m02s.
    s = await serveExample("node-power-loss.yaml", 390);
  }, 120_000);
  afterAll(() => s?.stop());

  it("kubectl get pods -o wide: the evicted pod Terminating on worker-2, its replacement Running elsewhere", async () => {
    const { code, stdout } = await s.kubectl("get", "pods", "-o", "wide");
    expect(code).toBe(0);
    const table = rows(stdout);
    expect(table[0]).toEqual([
      "NAME",
      "READY",
      "STATUS",
      "RESTARTS",
      "AGE",
      "IP",
      "NODE",
      "NOMINATED NODE",
      "READINESS GATES",
    ]);
    const served = s.serving.cluster.list(pods, "default");
    const evicted = served.find((p) => p.metadata.name.startsWith("web-") && p.metadata.deletionTimestamp);
    const replacement = served.find(
      (p) => p.metadata.name.startsWith("web-") && p.metadata.creationTimestamp > "2025-01-01T00:06:00Z",
    );
    expect(evicted && replacement).toBeTruthy();
    const row = (name: string) => table.find((r) => r[0] === name)!;
    expect(row(evicted!.metadata.name).slice(1, 4)).toEqual(["1/1", "Terminating", "0"]);
    expect(row(evicted!.metadata.name).slice(6)).toEqual(["worker-2", "<none>", "<none>"]);
    expect(row(replacement!.metadata.name).slice(1, 4)).toEqual(["1/1", "Running", "0"]);
    expect(row(replacement!.metadata.name)[4]).toMatch(/^\d+s$/);
    expect(["worker-1", "worker-3"]).toContain(row(replacement!.metadata.name)[6]);
    expect(row("db-0").slice(1, 3)).toEqual(["1/1", "Terminating"]);
  });

  it("kubectl get events --sort-by=.lastTimestamp: NodeNotReady, then the taint manager's evictions and the replacement", async () => {
    const { code, stdout } = await s.kubectl("get", "events", "--sort-by=.lastTimestamp");
    expect(code).toBe(0);
    const table = rows(stdout);
    expect(table[0]).toEqual(["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]);
    const reasons = table.slice(1).map((r) => `${r[2]} ${r[3]}`);
    const at = (line: string) => reasons.indexOf(line);
    expect(at("NodeNotReady node/worker-2")).toBeGreaterThanOrEqual(0);
    expect(at("NodeNotReady pod/db-0")).toBeGreaterThanOrEqual(0);
    expect(at("TaintManagerEviction pod/db-0")).toBeGreaterThan(at("NodeNotReady node/worker-2"));
    expect(reasons.filter((r) => r.startsWith("TaintManagerEviction pod/web-"))).toHaveLength(1);
    expect(reasons.some((r) => r.startsWith("SuccessfulCreate replicaset/web-"))).toBe(true);
    const eviction = table.find((r) => r[2] === "TaintManagerEviction" && r[3] === "pod/db-0")!;
    expect(eviction[1]).toBe("Normal");
    expect(eviction[4]).toBe("Marking for deletion Pod default/db-0");
    const notReady = table.find((r) => r[2] === "NodeNotReady" && r[3] === "pod/db-0")!;
    expect([notReady[1], notReady[4]]).toEqual(["Warning", "Node is not ready"]);
  });

  it("kubectl delete pod: refused with a Status that says the cluster is simulated; nothing changes", async () => {
    const before = await s.kubectl("get", "pod", "db-0", "-o", "jsonpath={.metadata.resourceVersion}");
    const { code, stderr } = await s.kubectl("delete", "pod", "db-0");
    expect(code).not.toBe(0);
    expect(stderr).toMatch(
      /^Error from server \(MethodNotAllowed\): .*simulated cluster, read-only.*DELETE pods "db-0"/m,
    );
    const after = await s.kubectl("get", "pod", "db-0", "-o", "jsonpath={.metadata.resourceVersion}");
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(before.stdout);
  });
});

describe.skipIf(!HAS_KUBECTL)(
  `kubectl get pods -w while the run plays${HAS_KUBECTL ? "" : ` (${SKIP})`}`,
  () => {
    let s: Served;
    beforeAll(async () => {
      s = await serveExample("node-power-loss.yaml", 350);
    }, 120_000);
    afterAll(() => s?.stop());

    it("receives the eviction when the run is played at 50× real time", async () => {
      const w = s.spawnKubectl("get", "pods", "-w");
      // The list first (frozen at 5m50s), then the watch from its resourceVersion.
      await waitFor(
        () => /web-\S+\s+1\/1\s+Running/.test(w.output()) && s.serving.cluster.watchers > 0,
        "the watch to start",
      );
      expect(w.output()).not.toContain("Terminating");
      s.serving.cluster.play(50);
      // Both evictions come at the same simulated moment, but kubectl may print them in separate
      // writes: wait for each line rather than expect the second with the first.
      await waitFor(
        () =>
          /^db-0\s+1\/1\s+Terminating\s/m.test(w.output()) &&
          /^web-\S+\s+1\/1\s+Terminating\s/m.test(w.output()),
        "both evictions to reach kubectl -w",
      );
      w.child.kill("SIGTERM");
    }, 120_000);
  },
);

describe.skipIf(!HAS_KUBECTL)(
  `kubectl on a crash-looping container (probes example)${HAS_KUBECTL ? "" : ` (${SKIP})`}`,
  () => {
    let s: Served;
    beforeAll(async () => {
      // Crashes at 400s, 401s, 420s and 450s: at 8m the container waits in CrashLoopBackOff.
      s = await serveExample("probes.yaml", 480);
    }, 120_000);
    afterAll(() => s?.stop());

    it("get pods shows CrashLoopBackOff and the restarts with when the last one was; describe shows the last state", async () => {
      const got = await s.kubectl("get", "pods");
      const row = rows(got.stdout)[1]!;
      expect(row[2]).toBe("CrashLoopBackOff");
      expect(row[3]).toMatch(/^\d+ \(\d+s ago\)$/);
      const { stdout } = await s.kubectl("describe", "pod", row[0]!);
      expect(stdout).toMatch(/State:\s+Waiting\n\s+Reason:\s+CrashLoopBackOff/);
      expect(stdout).toMatch(/Last State:\s+Terminated\n\s+Reason:\s+Error\n\s+Exit Code:\s+1/);
      expect(stdout).toMatch(
        /Warning\s+BackOff\s+.*kubelet\s+Back-off restarting failed container app in pod /,
      );
      expect(stdout).toMatch(
        /Warning\s+Unhealthy\s+.*Liveness probe failed: Get "http:\/\/10\.244\.1\.1:8000\/healthz": context deadline exceeded/,
      );
      expect(stdout).toMatch(/Normal\s+Killing\s+.*Container app failed liveness probe, will be restarted/);
    });
  },
);
