#!/usr/bin/env node
// The faultline command. The compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs
// through the `prepare` script).
import { runProcess } from "../dist/cli/main.js";

await runProcess(process.argv.slice(2));
