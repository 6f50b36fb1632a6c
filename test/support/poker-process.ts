import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free TCP port, as the OS hands one out. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface PokerProcess {
  child: ChildProcess;
  url: string;
  output: string[];
}

/** `npm start` as built by the jest global setup: the poker app in its own process, resolved once it listens. */
export async function startPokerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<PokerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/apps/poker/src/main.js'], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('poker listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`poker exited with ${code} before listening:\n${output.join('')}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output };
}

export async function stopPokerProcess({ child }: PokerProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
