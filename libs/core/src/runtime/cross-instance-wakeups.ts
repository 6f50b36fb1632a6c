import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { WAKE_CHANNEL, type WakeChannel } from '../store/wake-channel.js';
import { EventNotifier } from './event-notifier.js';

/**
 * Carries this process's wake-ups to the other instances on the store and theirs to this one's
 * waiters (subscriptions, sync waits), when the store has a channel. Nothing depends on it for
 * correctness: a lost wake-up costs one poll interval.
 */
@Injectable()
export class CrossInstanceWakeups implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly notifier: EventNotifier,
    @Inject(WAKE_CHANNEL) private readonly channel: WakeChannel | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const channel = this.channel;
    if (!channel) return;
    await channel.listen((kind) => this.notifier.wokenFromElsewhere(kind));
    this.unsubscribe.push(
      this.notifier.onAppend(() => channel.announce('append')),
      this.notifier.onCheckpoint(() => channel.announce('checkpoint')),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.channel?.close();
  }
}
