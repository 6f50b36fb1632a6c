import cliProgress from 'cli-progress';

export interface DemoProgress {
  update(handsPlayed: number): void;
  stop(): void;
}

/**
 * Progress of the demo's hands: a bar on a terminal; piped or logged, plain lines (about ten, and
 * the last), since a bar's redraws need a terminal and cli-progress draws nothing without one.
 */
export function demoProgress(total: number, stream: NodeJS.WriteStream = process.stdout, now: () => number = Date.now): DemoProgress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: 'hands {bar} {value}/{total} | {duration_formatted}', hideCursor: true, stream },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return { update: (hands) => bar.update(hands), stop: () => bar.stop() };
  }
  const started = now();
  const every = Math.max(1, Math.ceil(total / 10));
  let printed = 0;
  return {
    update(hands) {
      if (hands === printed || (hands % every !== 0 && hands !== total)) return;
      printed = hands;
      stream.write(`hands ${hands}/${total} (${Math.floor((hands / total) * 100)}%) after ${((now() - started) / 1000).toFixed(1)} s\n`);
    },
    stop: () => undefined,
  };
}
