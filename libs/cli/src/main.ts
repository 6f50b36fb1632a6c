#!/usr/bin/env node
// nest-es: maintenance commands of an application built on @nest-es/core, run from built JavaScript.
import 'reflect-metadata';
import { Command } from 'commander';
import { loadMaintenanceEntry } from './application.js';
import { eventTypes } from './event-types.command.js';
import { rebuildProjection, switchBackProjection } from './rebuild-projection.command.js';
import { rebuildSnapshots } from './rebuild-snapshots.command.js';
import { errorMessage } from '@nest-es/core/internal';

const program = new Command('nest-es')
  .description('Maintenance commands for an application built on @nest-es/core.')
  .option('--app <file>', 'built JavaScript file whose default export returns your root module (default: $NEST_ES_APP)')
  .showHelpAfterError();

const application = () => loadMaintenanceEntry(program.opts<{ app?: string }>().app ?? process.env.NEST_ES_APP);

program
  .command('snapshots')
  .description('aggregate snapshots')
  .command('rebuild')
  .description('regenerate the snapshots of every aggregate of a type from its events alone')
  .argument('<aggregateType>', 'the aggregate type, e.g. player')
  .action(async (aggregateType: string) => {
    process.exitCode = await rebuildSnapshots(await application(), aggregateType);
  });

const projections = program.command('projections').description('read models');
projections
  .command('rebuild')
  .description("rebuild a projector's read model from the first event: blue/green beside the live tables when it declares them, else cleared and replayed")
  .argument('<projector>', 'the projector name, e.g. balances')
  .option('--in-place', 'clear the live read model and replay it, also for a projector that declares its tables (after a change of scale-out partitions, with the instances stopped)')
  .action(async (projector: string, options: { inPlace?: boolean }) => {
    process.exitCode = await rebuildProjection(await application(), projector, { inPlace: options.inPlace === true });
  });
projections
  .command('switch-back')
  .description('put back live the tables that the last blue/green rebuild of a projector replaced (run again to undo)')
  .argument('<projector>', 'the projector name, e.g. leaderboard')
  .action(async (projector: string) => {
    process.exitCode = await switchBackProjection(await application(), projector);
  });

program
  .command('events')
  .description('the stored events')
  .command('types')
  .description('count the stored events by type and version, and tell which this code cannot read as its current version')
  .action(async () => {
    process.exitCode = await eventTypes(await application());
  });

program
  .parseAsync()
  .catch((error: unknown) => {
    console.error(`error: ${errorMessage(error)}`);
    process.exitCode = 1;
  })
  // Exit even if a library left a handle open, once stdout has taken everything written to it.
  .finally(() => process.stdout.write('', () => process.exit()));
