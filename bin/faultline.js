#!/usr/bin/env node
// The faultline command. The compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs
// through the `prepare` script).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
