// Kubernetes objects that several tests build alike.

/** StatefulSet `db`: 3 replicas of postgres, a RollingUpdate strategy with `maxUnavailable`. */
export function dbStatefulSet(maxUnavailable: number | string): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db" },
    spec: {
      replicas: 3,
      serviceName: "db",
      selector: { matchLabels: { app: "db" } },
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable } },
      template: {
        metadata: { labels: { app: "db" } },
        spec: { containers: [{ name: "db", image: "postgres:16" }] },
      },
    },
  };
}
