import { PassThrough } from 'node:stream';
import { demoProgress } from './demo-progress.js';

/** A stream that is not a terminal, as when the demo's output is piped. */
function piped(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('demo progress when the output is not a terminal', () => {
  it('prints about ten plain lines and the last one', () => {
    const out = piped();
    let clock = 0;
    const progress = demoProgress(25, out.stream, () => clock);
    for (let hand = 1; hand <= 25; hand++) {
      clock += 100;
      progress.update(hand);
    }
    progress.stop();
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toBe('hands 3/25 (12%) after 0.3 s');
    expect(lines.at(-1)).toBe('hands 25/25 (100%) after 2.5 s');
    expect(lines).toHaveLength(9);
  });

  it('prints every hand of a short demo once', () => {
    const out = piped();
    const progress = demoProgress(3, out.stream, () => 0);
    [1, 1, 2, 3].forEach((hand) => progress.update(hand));
    expect(out.text().trim().split('\n')).toEqual(['hands 1/3 (33%) after 0.0 s', 'hands 2/3 (66%) after 0.0 s', 'hands 3/3 (100%) after 0.0 s']);
  });
});
