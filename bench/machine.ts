import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  /** 1-minute load averages when the run started and ended: well above 1 means something else was using the CPU too. */
  loadAverage: { start: number; end?: number };
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${osType()} ${release()}`,
    loadAverage: { start: loadAverage() },
  };
}

export function loadAverage(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}
