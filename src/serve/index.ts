// `faultline serve` as a library: start the read-only API over a scenario at a virtual time, and the
// kubeconfig that points kubectl at it. The CLI (src/cli/serve.ts) and the tests use this.

import type { Scenario } from "../scenario/types.ts";
import { ServedCluster } from "./served.ts";
import { ApiServer, HOST } from "./server.ts";

export { EPOCH_MS } from "./time.ts";

export interface ServeOptions {
  /** virtual seconds to run to before serving */
  at: number;
  /** play from `at` at this many × real time; undefined: frozen */
  speed?: number;
  /** 0: any free port */
  port: number;
  seed?: number;
  /** engine events one run may take (each re-run after a seek back is a run): the engine's hard cap */
  maxEvents?: number;
}

export interface Serving {
  cluster: ServedCluster;
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startServe(scenario: Scenario, options: ServeOptions): Promise<Serving> {
  const cluster = new ServedCluster(scenario, {
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
  });
  cluster.advanceTo(options.at);
  if (cluster.stoppedBy) throw cluster.stoppedBy;
  const server = new ApiServer(cluster);
  const port = await server.listen(options.port);
  if (options.speed !== undefined) cluster.play(options.speed);
  return {
    cluster,
    port,
    url: `http://${HOST}:${port}`,
    async stop() {
      cluster.close();
      await server.close();
    },
  };
}

/** A kubeconfig with one cluster, context and (credential-less) user for the server. */
export function kubeconfig(scenarioName: string, url: string): string {
  const name = `faultline-${scenarioName.replace(/[^A-Za-z0-9._-]/g, "-")}`;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${name}`,
    "    cluster:",
    `      server: ${url}`,
    "contexts:",
    `  - name: ${name}`,
    "    context:",
    `      cluster: ${name}`,
    "      user: faultline",
    "      namespace: default",
    `current-context: ${name}`,
    "users:",
    "  - name: faultline",
    "    user: {}",
    "",
  ].join("\n");
}
