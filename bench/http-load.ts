import autocannon from 'autocannon';

export interface HttpLoad {
  url: string;
  connections: number;
  durationS: number;
  accounts: number;
  /** The route's first path segment: the framework's `commands` unless given. */
  prefix?: string;
}

/*
 * autocannon in a process of its own (forked by http.bench.ts with the load as its argument), so that the
 * load generator does not take turns with the server on one event loop; autocannon treats a worker thread
 * as one of its own workers, hence a process. Each request is a Deposit to a random account, as in the
 * in-process figures.
 */
const { url, connections, durationS, accounts, prefix = 'commands' } = JSON.parse(process.argv[2]) as HttpLoad;
const result = await autocannon({
  url,
  connections,
  duration: durationS,
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":1}',
      setupRequest: (request) => ({ ...request, path: `/${prefix}/bench-account/account-${Math.floor(Math.random() * accounts)}/Deposit` }),
    },
  ],
});
process.send!({
  ok: result['2xx'],
  failed: result.non2xx + result.errors,
  durationS: result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
});
