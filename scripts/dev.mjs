// `npm run dev`: the poker app in watch mode. Builds what changed, then recompiles the app and every
// @nest-es package on each save (tsc --watch per project, incremental as the build is) and restarts
// the server when its compiled code changes (node --watch). Ctrl-C stops all of it.
import { spawn } from 'node:child_process';
import { app, build, libraries, tscArguments } from './build.mjs';

build();
const children = [...libraries, app].map((unit) => spawn(process.execPath, [...tscArguments(unit), '--watch', '--preserveWatchOutput'], { stdio: ['ignore', 'inherit', 'inherit'] }));
children.push(spawn(process.execPath, ['--watch', 'dist/apps/poker/src/main.js'], { stdio: 'inherit' }));

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
