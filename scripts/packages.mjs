// The @nest-es packages under libs/, in build order (each compiles against the .d.ts of those before it).
export const PACKAGES = ['core', 'typeorm', 'http', 'nats', 'cli'];
