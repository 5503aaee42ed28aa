// The what-if panel's settings and variants live in whatif/panel.ts (one way to vary a scenario);
// the page calls them through here.

export { applyWhatIf, currentSettings, type ProbeOverride, type WhatIf } from "../../whatif/panel.ts";
