// The benchmarks' large cluster: 1,000 nodes in 4 zones, 100 Deployments × 300 replicas each behind a
// Service; zone b (every 4th node, 250 in all) loses power at 60s; 15 minutes simulated. `nodes`
// scales it: 30 pods per node (5,000 nodes: 150,000 pods, Kubernetes' documented limits).

export function zoneLossAtScaleText(nodes = 1000): string {
  const zones = ["a", "b", "c", "d"];
  const lines = clusterLines(nodes, "zone-loss-at-scale", "15m");
  lines.push("timeline:");
  // Nodes are named worker-1… and given zones round-robin, so zone b is worker-2, worker-6, …
  for (let i = 2; i <= nodes; i += zones.length)
    lines.push(`  - {at: 60s, do: power-off, node: worker-${i}}`);
  return `${lines.join("\n")}\n`;
}

/** The same cluster with nothing happening to it for `duration` (a Go duration: 15m, 2h, 24h). */
export function idleClusterText(nodes: number, duration: string): string {
  return `${clusterLines(nodes, "idle-cluster", duration).join("\n")}\n`;
}

function clusterLines(nodes: number, name: string, duration: string): string[] {
  const zones = ["a", "b", "c", "d"];
  const lines = [
    `name: ${name}`,
    'kubernetesVersion: "1.32"',
    `duration: ${duration}`,
    `nodes: {count: ${nodes}, zones: [${zones.join(", ")}]}`,
    "manifests:",
  ];
  for (let d = 0; d < 100; d++)
    lines.push(
      "  - apiVersion: apps/v1",
      "    kind: Deployment",
      `    metadata: {name: app-${d}}`,
      "    spec:",
      `      replicas: ${(nodes * 30) / 100}`,
      `      selector: {matchLabels: {app: app-${d}}}`,
      "      template:",
      `        metadata: {labels: {app: app-${d}}}`,
      "        spec:",
      "          containers: [{name: app, image: app, resources: {requests: {cpu: 50m, memory: 64Mi}}}]",
      "  - apiVersion: v1",
      "    kind: Service",
      `    metadata: {name: app-${d}}`,
      `    spec: {selector: {app: app-${d}}, ports: [{port: 80}]}`,
    );
  return lines;
}
