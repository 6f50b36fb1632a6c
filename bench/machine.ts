import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started: above ~0.5 something else was using the CPU. */
  loadAverageAtStart: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${osType()} ${release()}`,
    loadAverageAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
}
