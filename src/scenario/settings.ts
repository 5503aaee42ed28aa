// The settings a run uses, resolved once: the version's defaults (kubernetes/defaults.ts), then the
// scenario's profile, then the scenario's own overrides. The run reads these; whatif/ shows them and
// builds variants from them, so that both see the same values.

import {
  type ControlPlaneSettings,
  type KubeletSettings,
  resolveControlPlane,
  resolveKubelet,
} from "../kubernetes/defaults.ts";
import { type Profile, profileOf, resolveNetwork } from "./profiles.ts";
import type { NetworkSettings, Scenario } from "./types.ts";

export interface RunSettings {
  profile: Profile;
  controlPlane: ControlPlaneSettings;
  kubelet: KubeletSettings;
  network: NetworkSettings;
}

export function resolveSettings(scenario: Scenario): RunSettings {
  const profile = profileOf(scenario);
  const version = scenario.kubernetesVersion;
  return {
    profile,
    controlPlane: resolveControlPlane(version, { ...profile.controlPlane, ...scenario.controlPlane }),
    kubelet: resolveKubelet(version, { ...profile.kubelet, ...scenario.kubelet }),
    network: resolveNetwork(profile, scenario.network),
  };
}
