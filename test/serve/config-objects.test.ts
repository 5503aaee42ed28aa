// ConfigMaps, Secrets, ServiceAccounts and StorageClasses as a real cluster serves them (issue 29
// item 5): the input's, with a Secret's keys and never its values; each namespace's "default"
// ServiceAccount and "kube-root-ca.crt" ConfigMap; the default StorageClass, and on a claim that
// names none, the class the DefaultStorageClass admission plugin writes.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_KUBECTL, request, rows, type Served, serveExample } from "./helpers.ts";

let s: Served;
beforeAll(async () => {
  s = await serveExample("../test/fixtures/serve-config/scenario.yaml", 60);
}, 120_000);
afterAll(() => s?.stop());

describe("the input's ConfigMaps, Secrets and ServiceAccounts", () => {
  it("a Secret: its keys and type, every value empty (the input's values are not kept)", async () => {
    const secret = (await request(`${s.serving.url}/api/v1/namespaces/shop/secrets/db-credentials`)).json();
    expect(secret.type).toBe("kubernetes.io/basic-auth");
    expect(secret.data).toEqual({ password: "", username: "" });
    expect(JSON.stringify(secret)).not.toMatch(/hunter2|YWRtaW4=/);
  });

  it("a ConfigMap with its data; the namespace's own ServiceAccount and kube-root-ca.crt beside the input's", async () => {
    const cm = (await request(`${s.serving.url}/api/v1/namespaces/shop/configmaps/app-config`)).json();
    expect(cm.data).toEqual({ LOG_LEVEL: "info", FEATURES: "a,b" });
    expect(cm.metadata.labels).toEqual({ app: "shop" });
    const sa = (await request(`${s.serving.url}/api/v1/namespaces/shop/serviceaccounts`)).json();
    expect(sa.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual([
      "default",
      "shop-runner",
    ]);
  });

  it('a pod runs as the ServiceAccount its template names; one naming none as "default"', async () => {
    const pods = (await request(`${s.serving.url}/api/v1/namespaces/shop/pods`)).json().items;
    expect(pods.length).toBeGreaterThan(0);
    for (const p of pods) expect(p.spec.serviceAccountName).toBe("shop-runner");
    const d = (await request(`${s.serving.url}/apis/apps/v1/namespaces/shop/deployments/shop`)).json();
    expect(d.spec.template.spec.serviceAccountName).toBe("shop-runner");
    const other = await serveExample("node-power-loss.yaml", 30);
    const unnamed = (await request(`${other.serving.url}/api/v1/pods`)).json().items;
    await other.stop();
    expect(unnamed.length).toBeGreaterThan(0);
    for (const p of unnamed) expect(p.spec.serviceAccountName).toBe("default");
  }, 120_000);
});

describe.skipIf(!HAS_KUBECTL)("kubectl get configmaps, secrets, serviceaccounts, storageclasses", () => {
  it("prints the server's columns", async () => {
    const cm = await s.kubectl("get", "configmaps", "-n", "shop");
    expect(cm.code).toBe(0);
    expect(rows(cm.stdout).map((r) => r.slice(0, 2))).toEqual([
      ["NAME", "DATA"],
      ["app-config", "2"],
      ["kube-root-ca.crt", "1"],
    ]);
    const secrets = await s.kubectl("get", "secrets", "-n", "shop");
    expect(rows(secrets.stdout).map((r) => r.slice(0, 3))).toEqual([
      ["NAME", "TYPE", "DATA"],
      ["db-credentials", "kubernetes.io/basic-auth", "2"],
    ]);
    const described = await s.kubectl("describe", "secret", "-n", "shop", "db-credentials");
    expect(described.stdout).toMatch(/^password:\s+0 bytes$/m);
    const sc = await s.kubectl("get", "storageclasses");
    expect(rows(sc.stdout)).toEqual([
      ["NAME", "PROVISIONER", "RECLAIMPOLICY", "VOLUMEBINDINGMODE", "ALLOWVOLUMEEXPANSION", "AGE"],
      [
        "standard (default)",
        "zonal-disk.csi.faultline.dev",
        "Delete",
        "WaitForFirstConsumer",
        "false",
        "11m",
      ],
    ]);
  }, 120_000);
});

describe.skipIf(!HAS_KUBECTL)("the default StorageClass on claims", () => {
  it("a StatefulSet's claims that name no class carry the default's name, as their volumes do", async () => {
    const sts = await serveExample("statefulset-recovery.yaml", 60);
    try {
      const pvc = await sts.kubectl(
        "get",
        "pvc",
        "-o",
        "custom-columns=NAME:.metadata.name,CLASS:.spec.storageClassName",
      );
      expect(pvc.code).toBe(0);
      const table = rows(pvc.stdout).slice(1);
      expect(table.length).toBeGreaterThan(0);
      expect(table.every((r) => r[1] === "standard")).toBe(true);
    } finally {
      await sts.stop();
    }
  }, 120_000);
});
