// whatif/: the one way to make a variant of a scenario (a patch on its source, loaded again through
// load/), and what is built on it: `--vary`, the levers, the page's what-if, the settings in force.
// Sits above the run (it runs variants); the run never imports it.

export { LEVERS, pullLever, pullLevers } from "./levers.ts";
export { formatMilestones, type Milestones, milestonesOf } from "./milestones.ts";
export { applyWhatIf, currentSettings, type ProbeOverride, type WhatIf, whatIfPatches } from "./panel.ts";
export {
  PROBE_KINDS,
  type ProbeKind,
  type ProbeSettings,
  type ResolvedSettings,
  resolvedSettings,
  type ServiceSettings,
  type SettingOrigin,
} from "./settings.ts";
export { everyCaller, policyServices, servicePolicy, variantOf } from "./variant.ts";
export {
  compareVariants,
  formatComparison,
  formatVariants,
  simulateVariants,
  type Variant,
  type VariantJson,
  type VariantResult,
  type VariantRun,
  type VaryJson,
  variantsOf,
  varyJson,
} from "./variants.ts";
export { applyVariation, parseVary, scalarValue, type Variation, VaryError, varyPatches } from "./vary.ts";
