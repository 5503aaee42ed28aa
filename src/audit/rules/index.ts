// The rules, in id order. Each has its own file, a stable id (FL001…) and a page in docs/rules.md.

import { FL001 } from "./fl001-single-replica.ts";
import { FL002 } from "./fl002-concentrated.ts";
import { FL003 } from "./fl003-statefulset-needs-a-person.ts";
import { FL004 } from "./fl004-pdb-blocks-drain.ts";
import { FL005 } from "./fl005-drain-takes-all-endpoints.ts";
import { FL006 } from "./fl006-liveness-restarts-slow-pod.ts";
import { FL007 } from "./fl007-no-readiness-probe.ts";
import { FL008 } from "./fl008-no-startup-budget.ts";
import { FL009 } from "./fl009-no-prestop-delay.ts";
import { FL010 } from "./fl010-toleration-seconds.ts";
import { FL011 } from "./fl011-slower-than-peers.ts";
import { FL012 } from "./fl012-emptydir-state.ts";
import { FL013 } from "./fl013-never-ready.ts";
import type { Rule } from "./rule.ts";

export const RULES: readonly Rule[] = [
  FL001,
  FL002,
  FL003,
  FL004,
  FL005,
  FL006,
  FL007,
  FL008,
  FL009,
  FL010,
  FL011,
  FL012,
  FL013,
];
export type { Draft, Rule, RuleInput } from "./rule.ts";
