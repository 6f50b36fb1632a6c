// The subscribers panel, pushed by the server while open, and a held event's retry now.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const SUBSCRIBERS_PANEL = String.raw`
  // Projections: refreshed every REFRESH_MS while the panel is open. Subscribers: the server pushes
  // the view (GET <api>/subscribers/live) whenever it changes. Switching panels stops either.

  var REFRESH_MS = 2000;
  var RECONNECT_MS = 2000;
  var refreshTimer = null;
  var feed = null;

  function startRefresh(refresh) {
    var tick = function () {
      refresh().catch(failed).then(function () {
        if (refreshTimer !== null) refreshTimer = setTimeout(tick, REFRESH_MS);
      });
    };
    refreshTimer = setTimeout(tick, 0);
  }

  function stopRefresh() {
    if (refreshTimer !== null) clearTimeout(refreshTimer);
    refreshTimer = null;
    if (feed !== null) feed.abort();
    feed = null;
  }

  /**
   * Follows the live view: a fetch whose body is read as server-sent events (EventSource cannot send
   * the token). When the stream ends or fails while the panel is open, it connects again.
   */
  function followSubscribers() {
    var controller = new AbortController();
    feed = controller;
    readFeed(controller.signal)
      .catch(function (error) {
        if (!controller.signal.aborted) failed(error);
      })
      .then(function () {
        if (feed === controller) refreshTimer = setTimeout(followSubscribers, RECONNECT_MS);
      });
  }

  async function readFeed(signal) {
    var headers = { Authorization: 'Bearer ' + token(), Accept: 'text/event-stream' };
    var response = await fetch(API + '/subscribers/live', { headers: headers, cache: 'no-store', signal: signal });
    if (!response.ok) {
      // The JSON route answers the same refusal with its body (and signs out a refused token).
      await call('GET', API + '/subscribers');
      throw new Error('the live view is refused (HTTP ' + response.status + ')');
    }
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffered = '';
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) return;
      buffered += decoder.decode(chunk.value, { stream: true });
      var end = buffered.indexOf('\n\n');
      while (end >= 0) {
        var data = buffered.slice(0, end).split('\n').filter(function (line) { return line.indexOf('data: ') === 0; });
        buffered = buffered.slice(end + 2);
        if (data.length > 0) renderSubscribers(JSON.parse(data[0].slice(6)));
        end = buffered.indexOf('\n\n');
      }
    }
  }

  async function refreshSubscribers() {
    renderSubscribers(await call('GET', API + '/subscribers'));
  }

  function renderSubscribers(report) {
    var instances = report.instances;
    byId('subscribers-summary').textContent =
      'Head position ' + report.headPosition + ' · ' + (report.scaleOut ? 'scale-out' : 'no scale-out') +
      (instances ? ' · this is instance ' + instances.self + ' of live ' + instances.live.join(', ') : '') + ' · read ' + new Date(report.at).toLocaleTimeString();
    var rows = [];
    report.subscribers.forEach(function (subscriber) {
      subscriber.checkpoints.forEach(function (checkpoint) {
        rows.push(checkpointRow(subscriber, checkpoint));
        checkpoint.held.forEach(function (held) {
          rows.push(heldRow(checkpoint, held));
        });
      });
    });
    byId('subscribers').tBodies[0].replaceChildren.apply(byId('subscribers').tBodies[0], rows);
  }

  function checkpointRow(subscriber, checkpoint) {
    var oldest = checkpoint.oldestUnhandled;
    var behind = checkpoint.positionsBehind + ' positions' + (oldest ? ' · oldest unhandled stored ' + duration(oldest.lagMs) + ' ago (#' + oldest.position + ')' : ' · caught up');
    var owner = checkpoint.owner;
    var runs = (owner.instance === null ? 'every instance that runs it' : 'instance ' + owner.instance) + (owner.runsHere ? ' · runs here' : ' · not here');
    return el('tr', { className: 'checkpoint' + (checkpoint.held.length > 0 ? ' has-held' : '') }, [
      el('td', {}, [subscriber.name, el('span', { className: 'kind' }, [subscriber.kind])]),
      el('td', {}, [checkpoint.checkpoint]),
      el('td', {}, [String(checkpoint.position)]),
      el('td', {}, [behind]),
      el('td', {}, [runs]),
      el('td', {}, [String(checkpoint.held.length)]),
    ]);
  }

  function heldRow(checkpoint, held) {
    var detail = held.behind !== undefined
      ? 'waits behind #' + held.behind
      : held.attempts === undefined
        ? 'attempts known where it runs'
        : held.attempts + ' failed attempt(s)' + (held.nextAttemptAt ? ' · next ' + new Date(held.nextAttemptAt).toLocaleTimeString() : '');
    var retry = el('button', { type: 'button', className: 'retry-held', textContent: 'Retry now' });
    retry.addEventListener('click', function () {
      retryHeld(checkpoint.checkpoint, held.position).catch(failed);
    });
    return el('tr', { className: 'held-event', 'data-position': String(held.position) }, [
      el('td', {}, ['held #' + held.position]),
      el('td', {}, [held.aggregateType + '/' + held.aggregateId]),
      el('td', { colSpan: 3 }, [detail, held.lastError ? el('div', { className: 'held-error' }, [held.lastError]) : null]),
      el('td', {}, [retry]),
    ]);
  }

  async function retryHeld(checkpoint, position) {
    if (!(await confirmAction('Retry the held event at position ' + position + ' of ' + checkpoint + ' now?'))) return;
    var answer = await call('POST', API + '/subscribers/held/retry', { checkpoint: checkpoint, position: position });
    status('Retry of #' + answer.position + ' asked' + (answer.requestedBy ? ' by ' + answer.requestedBy : '') + '; it runs at the subscription\u2019s next look.');
    await refreshSubscribers();
  }
`;
