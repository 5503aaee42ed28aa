// `faultline serve` for clients other than kubectl (issue 29 item 4): the Python `kubernetes`
// client (Debian's python3-kubernetes, which sends `watch=True`) lists and watches; the
// @kubernetes/client-node library lists and watches over HTTPS, verifying the certificate made at
// start against the kubeconfig's certificate-authority-data; booleans in the query as
// kube-apiserver reads them; `--speed` waits for the first watch.

import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { kubeconfig, type Serving, startServe } from "../../src/serve/index.ts";
import { queryBool } from "../../src/serve/query.ts";
import { HAS_KUBECTL, KUBECTL, request, trust } from "./helpers.ts";

const PYTHON = "/usr/bin/python3";
// .ci/run installs Debian's python3-kubernetes; a machine without it skips these (and says so).
const HAS_PYTHON_CLIENT =
  existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import kubernetes"], { stdio: "ignore" }).status === 0;

let serving: Serving;
let dir: string;
let config: string;
beforeAll(async () => {
  const scenario = loadScenarioFile("examples/node-power-loss.yaml");
  serving = trust(await startServe(scenario, { at: 70, port: 0, tls: true }));
  dir = mkdtempSync(join(tmpdir(), "faultline-clients-"));
  config = join(dir, "kubeconfig");
  writeFileSync(config, kubeconfig(scenario.name, serving.url, serving.ca, serving.token));
}, 120_000);
afterAll(async () => {
  await serving?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("query booleans", () => {
  it("reads watch= as kube-apiserver's Convert_Slice_string_To_bool: only 0 and false (any case) are false", () => {
    const q = (v: string) => new URLSearchParams({ watch: v });
    for (const v of ["1", "t", "T", "TRUE", "true", "True", ""]) expect(queryBool(q(v), "watch")).toBe(true);
    for (const v of ["0", "false", "FALSE", "False"]) expect(queryBool(q(v), "watch")).toBe(false);
    expect(queryBool(new URLSearchParams(), "watch")).toBe(false);
  });

  it("answers watch=True with a stream of events, not a list", async () => {
    const r = await request(`${serving.url}/api/v1/nodes?watch=True&timeoutSeconds=1`, { ca: serving.ca });
    const first = JSON.parse(r.body.split("\n")[0]!);
    expect(first.type).toBe("ADDED");
    expect(first.object.kind).toBe("Node");
  }, 60_000);
});

describe("@kubernetes/client-node over HTTPS, verified", () => {
  it("lists nodes and watches pods with the kubeconfig's CA", async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(config);
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name).sort()).toEqual(["worker-1", "worker-2", "worker-3"]);
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      new k8s.Watch(kc)
        .watch(
          "/api/v1/pods",
          { resourceVersion: "0", timeoutSeconds: 1 },
          (type, obj: k8s.V1Pod) => {
            seen.push(`${type} ${obj.metadata?.name}`);
          },
          (err) => (err ? reject(err) : resolve()),
        )
        .catch(reject);
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.startsWith("ADDED "))).toBe(true);
  }, 60_000);
});

describe.skipIf(!HAS_KUBECTL)("kubectl over HTTPS, verified", () => {
  it("gets nodes with the kubeconfig's certificate-authority-data", async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) =>
        execFile(
          KUBECTL,
          ["get", "nodes", "-o", "name"],
          {
            env: { ...process.env, KUBECONFIG: config, HOME: dir, KUBECACHEDIR: join(dir, "cache") },
            timeout: 90_000,
          },
          (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
        ),
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe("node/worker-1\nnode/worker-2\nnode/worker-3\n");
  }, 120_000);
});

describe.skipIf(!HAS_PYTHON_CLIENT)("the Python kubernetes client (python3-kubernetes)", () => {
  it("lists pods and watches nodes (it sends watch=True)", async () => {
    const script = [
      "import sys",
      "from kubernetes import client, config, watch",
      "config.load_kube_config(config_file=sys.argv[1])",
      "v1 = client.CoreV1Api()",
      "print('pods', len(v1.list_pod_for_all_namespaces().items))",
      "for e in watch.Watch().stream(v1.list_node, timeout_seconds=1):",
      "    print(e['type'], e['object'].metadata.name)",
    ].join("\n");
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) =>
        execFile(PYTHON, ["-c", script, config], { timeout: 90_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? 1 : 0, stdout, stderr }),
        ),
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pods \d+$/m);
    expect(stdout).toContain("ADDED worker-1");
  }, 120_000);
});

describe("--speed waits for the first watch", () => {
  it("keeps the clock at --at until a watch starts, then plays", async () => {
    const scenario = loadScenarioFile("examples/node-power-loss.yaml");
    const s = trust(await startServe(scenario, { at: 0, port: 0, speed: 50, waitForWatch: true }));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(s.cluster.playing).toBe(false);
      expect(s.cluster.now).toBe(0);
      const w = request(`${s.url}/api/v1/nodes?watch=1&timeoutSeconds=1`);
      await s.started;
      expect(s.cluster.playing).toBe(true);
      await w;
    } finally {
      await s.stop();
    }
  }, 60_000);
});
