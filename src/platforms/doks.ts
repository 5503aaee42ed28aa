// DigitalOcean Kubernetes, as DigitalOcean documents it (pages read December 2026). The measured
// variant of its control plane is the `doks-measured` profile (seed 001); this one assumes upstream
// timings where DigitalOcean publishes none.

import { clusterAutoscaler, estimatedBoot } from "./cluster-autoscaler.ts";
import type { BootToReady, Platform } from "./types.ts";

/**
 * No source found gives a DOKS node's boot to Ready (searched 2 December 2026:
 * docs.digitalocean.com/products/kubernetes/how-to/autoscale gives none), so the estimate stays,
 * labelled as one. (DigitalOcean's old marketing line, "Spin up a Droplet in 55 seconds or less", is
 * quoted only second-hand and is a bare Droplet's creation, not a node's kubelet and CNI Ready.)
 */
export const DOKS_BOOT_TO_READY: BootToReady = estimatedBoot(
  "no published boot-to-Ready figure for a DOKS node was found (docs.digitalocean.com/products/kubernetes/how-to/autoscale gives none, searched 2026-12-02)",
);

export const DOKS: Platform = {
  name: "doks",
  title: "DigitalOcean Kubernetes",
  providerIdScheme: "digitalocean://",
  nodeGroupLabel: "doks.digitalocean.com/node-pool",
  controlPlaneNote:
    "DigitalOcean does not publish its control plane's node-failure settings: upstream defaults are assumed (the doks-measured profile has the measured ones)",
  // Searched again 2 December 2026 (docs.digitalocean.com Kubernetes pages, release notes, status
  // pages) for an auto-healing or worker-node auto-recovery: none documented, so none modelled.
  noAutoRepair:
    "no automatic repair of a NotReady node is documented: DigitalOcean's own tutorial calls replacing an unhealthy node manual and offers Digital Mobius to automate it (docs.digitalocean.com/developer-center/automatic-node-repair-on-digitalocean-kubernetes, 4/3/2023; searched again 2026-12-02)",
  storageClass: {
    name: "do-block-storage",
    provisioner: "dobs.csi.digitalocean.com",
    volumeBindingMode: "Immediate",
    // A DigitalOcean region is one datacenter: there is no zone for a volume to be stuck in.
    zonal: false,
    source:
      "digitalocean/csi-digitalocean deploy/kubernetes/releases (StorageClass do-block-storage, the default, volumeBindingMode Immediate)",
  },
  loadBalancer: {
    kind: "DigitalOcean Load Balancer",
    healthCheckInterval: 3,
    healthCheckTimeout: 5,
    unhealthyThreshold: 3,
    healthyThreshold: 5,
    source:
      "digitalocean/digitalocean-cloud-controller-manager docs/controllers/services/annotations.md (check-interval-seconds 3, response-timeout-seconds 5, unhealthy-threshold 3, healthy-threshold 5)",
  },
  spot: {
    seconds: 0,
    action: "none",
    handledBy: "DigitalOcean offers no spot Droplets",
    source: "docs.digitalocean.com/products/droplets (no spot or preemptible Droplet type)",
  },
  bootToReady: DOKS_BOOT_TO_READY,
  autoscaler: clusterAutoscaler(
    "docs.digitalocean.com/products/kubernetes/how-to/autoscale (the cluster autoscaler on node pools)",
    DOKS_BOOT_TO_READY,
  ),
};
