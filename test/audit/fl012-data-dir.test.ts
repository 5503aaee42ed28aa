// FL012 fires only where an emptyDir holds the datastore's data: mounted at the image's documented
// data directory (its Dockerfile's VOLUME), or at the one its env (PGDATA…) or flags (--data-dir…)
// name. Never a `medium: Memory` emptyDir (tmpfs, scratch) or a config or scratch directory,
// whatever the image is called.
import { describe, expect, it } from "vitest";
import { emptyDirState } from "../../src/audit/rules/fl012-emptydir-state.ts";
import type { RuleInput } from "../../src/audit/rules/index.ts";
import type { Workload } from "../../src/audit/state.ts";

interface C {
  image: string;
  mountPath: string;
  medium?: string;
  env?: { name: string; value: string }[];
  args?: string[];
}

function found(c: C) {
  const raw = {
    spec: {
      template: {
        spec: {
          volumes: [{ name: "data", emptyDir: c.medium ? { medium: c.medium } : {} }],
          containers: [
            {
              name: "c",
              image: c.image,
              ...(c.env ? { env: c.env } : {}),
              ...(c.args ? { args: c.args } : {}),
              volumeMounts: [{ name: "data", mountPath: c.mountPath }],
            },
          ],
        },
      },
    },
  };
  const input = { locator: { raw: () => raw } } as unknown as RuleInput;
  return emptyDirState(input, { id: "Deployment/ns/x", specPath: "spec.template.spec" } as Workload);
}

describe("FL012: where an emptyDir holds the data", () => {
  it.each<[string, C, RegExp]>([
    [
      "redis at /data (VOLUME /data)",
      { image: "redis:7-alpine", mountPath: "/data" },
      /redis's data directory/,
    ],
    [
      "postgres at its PGDATA default",
      { image: "postgres:16", mountPath: "/var/lib/postgresql/data" },
      /postgres/,
    ],
    [
      "postgres at the parent of PGDATA",
      { image: "postgres:16", mountPath: "/var/lib/postgresql" },
      /postgres/,
    ],
    [
      "mysql at /var/lib/mysql",
      { image: "docker.io/library/mysql:8.0", mountPath: "/var/lib/mysql" },
      /mysql/,
    ],
    ["Bitnami's postgresql", { image: "bitnami/postgresql:16", mountPath: "/bitnami/postgresql" }, /Bitnami/],
    [
      "any image, PGDATA under the mount",
      { image: "example/db:1", mountPath: "/pgdata", env: [{ name: "PGDATA", value: "/pgdata/16" }] },
      /PGDATA=\/pgdata\/16/,
    ],
    [
      "etcd's --data-dir",
      {
        image: "registry.k8s.io/etcd:3.5.9-0",
        mountPath: "/var/run/etcd",
        args: ["--data-dir=/var/run/etcd"],
      },
      /--data-dir=\/var\/run\/etcd/,
    ],
    [
      "redis-server --dir",
      { image: "example/cache:1", mountPath: "/store", args: ["redis-server", "--dir", "/store"] },
      /--dir \/store/,
    ],
  ])("%s", (_, c, why) => {
    expect(found(c)?.why).toMatch(why);
  });

  it.each<[string, C]>([
    ["redis at /data in memory (medium: Memory)", { image: "redis:7", mountPath: "/data", medium: "Memory" }],
    [
      "mongo's scratch /tmp in memory (Sock Shop's carts-db)",
      { image: "mongo", mountPath: "/tmp", medium: "Memory" },
    ],
    ["mongo's /tmp on disk: scratch", { image: "mongo:7", mountPath: "/tmp" }],
    ["redis's config directory", { image: "redis:7", mountPath: "/etc/redis" }],
    ["postgres's socket directory", { image: "postgres:16", mountPath: "/var/run/postgresql" }],
    [
      "an image called redis-something is not redis",
      { image: "example/redis-exporter:1", mountPath: "/data" },
    ],
    ["nginx at /data", { image: "nginx:1.27", mountPath: "/data" }],
    [
      "PGDATA elsewhere than the mount",
      {
        image: "postgres:16",
        mountPath: "/scratch",
        env: [{ name: "PGDATA", value: "/var/lib/postgresql/data" }],
      },
    ],
  ])("not %s", (_, c) => {
    expect(found(c)).toBeUndefined();
  });
});
