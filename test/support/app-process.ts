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

export interface AppProcess {
  child: ChildProcess;
  url: string;
  output: string[];
}

/**
 * `node <script>` (compiled by the jest global setup) in its own process, resolved once its output
 * matches `listening` (whose first group, when it has one, is the port it listens on).
 */
export function startAppProcess(script: string, env: Record<string, string>, listening: RegExp, port?: number): Promise<AppProcess> {
  return startProcess(process.execPath, [script], env, listening, port);
}

/** Any program (a server binary too) in its own process, resolved as `startAppProcess` is. */
export async function startProcess(command: string, args: string[], env: Record<string, string>, listening: RegExp, port?: number): Promise<AppProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const listened = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = listening.exec(output.join(''));
      if (match) resolve(match);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`${command} ${args.join(' ')} exited (${code ?? signal}) before listening:\n${output.join('')}`)));
  });
  return { child, url: `http://127.0.0.1:${port ?? listened[1]}`, output };
}

/**
 * Stops the process with `signal` (SIGTERM: a graceful shutdown; SIGKILL: no goodbye) and waits for
 * it to exit; one that is still there after `graceMs` is killed, so a stuck shutdown cannot hang a suite.
 */
export async function stopAppProcess({ child }: AppProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
