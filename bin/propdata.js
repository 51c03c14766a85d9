#!/usr/bin/env node
// The command runs the compiled code; `npm install` builds it (the `prepare` script).
import { main } from '../dist/cli/main.js';

await main(process.argv);
