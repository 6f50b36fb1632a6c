import 'reflect-metadata';
import { Command } from 'commander';
import { rebuildProjection } from './cli/rebuild-projection.js';
import { rebuildSnapshots } from './cli/rebuild-snapshots.js';

const program = new Command('poker-cli').description('Maintenance commands of the poker app; the database is DATABASE_URL, as for npm start.');

program
  .command('snapshots')
  .description('aggregate snapshots')
  .command('rebuild')
  .description('regenerate the snapshots of every aggregate of a type from its events alone')
  .argument('<aggregateType>', 'the aggregate type, e.g. player')
  .action(async (aggregateType: string) => {
    process.exitCode = await rebuildSnapshots(aggregateType);
  });

program
  .command('projections')
  .description('read models')
  .command('rebuild')
  .description("clear a projector's read model and replay it from the first event")
  .argument('<projector>', 'the projector name, e.g. balances')
  .action(async (projector: string) => {
    process.exitCode = await rebuildProjection(projector);
  });

program
  .parseAsync()
  .catch((error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  })
  // Exit even if a library left a handle open, once stdout has taken everything written to it.
  .finally(() => process.stdout.write('', () => process.exit()));
