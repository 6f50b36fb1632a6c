import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENT_SOURCING_OPTIONS, type EventSourcingModuleOptions } from '../config/event-sourcing-options.js';
import { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { FailedPreconditionError, NotFoundError } from '../errors/index.js';
import { EventProcessor } from '../processing/event-processor.js';
import { CHECKPOINT_STORE, type CheckpointStore } from '../store/checkpoint-store.js';
import { PARTITION_LEASES, type PartitionLeases } from '../store/partition-leases.js';
import { checkpointOwner } from './checkpoint-owner.js';
import { subscriberCheckpoints } from '../discovery/subscriber-checkpoints.js';

export interface HeldEventRetry {
  checkpoint: string;
  position: number;
  /** Who asked (the principal's id), as logged. */
  requestedBy: string | null;
}

/**
 * An operator's "retry now" for a held event: its key's next attempt becomes due at once instead of
 * after its backoff. Only the process that runs the checkpoint can do that (the attempts live in its
 * memory), so another instance is refused with a conflict that names the one to ask.
 */
@Injectable()
export class HeldEventRetrier {
  private readonly logger = new Logger('HeldEventRetrier');

  constructor(
    private readonly registry: EventSourcingRegistry,
    private readonly processor: EventProcessor,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore,
    @Inject(PARTITION_LEASES) private readonly leases: PartitionLeases,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingModuleOptions,
  ) {}

  async retryNow(checkpoint: string, position: number, requestedBy?: string): Promise<HeldEventRetry> {
    if (!subscriberCheckpoints(this.registry, this.options.processing).some((unit) => unit.checkpoint === checkpoint)) {
      throw new NotFoundError(`no subscriber checkpoint is named '${checkpoint}'`);
    }
    const held = await this.checkpoints.loadHeld(checkpoint);
    if (!held.some((event) => event.position === position)) throw new NotFoundError(`${checkpoint} holds no event at position ${position}`);
    const status = this.processor.heldStatus(checkpoint);
    if (!status) throw await this.runsElsewhere(checkpoint);
    // The store holds it but the running subscription does not (yet): it is being released or restored.
    if (!status.retryNow(position)) throw new FailedPreconditionError(`${checkpoint} is settling the event at position ${position} right now; look again`);
    this.logger.log(`${requestedBy ?? 'an operator'} asked for the held event at position ${position} of ${checkpoint} to be retried now`);
    return { checkpoint, position, requestedBy: requestedBy ?? null };
  }

  private async runsElsewhere(checkpoint: string): Promise<FailedPreconditionError> {
    const membership = await this.leases.members().catch(() => null);
    const { instance } = checkpointOwner(this.processor, checkpoint, membership);
    if (instance === null) return new FailedPreconditionError(`${checkpoint} does not run in this process: retry it where it runs`, { ownerInstance: null });
    return new FailedPreconditionError(`${checkpoint} runs on instance ${instance}, not on this one (instance ${membership!.self}): retry it there`, { ownerInstance: instance });
  }
}
