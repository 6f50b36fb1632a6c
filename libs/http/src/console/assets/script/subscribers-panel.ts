// The subscribers panel, refreshed every REFRESH_MS while open, and a held event's retry now.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const SUBSCRIBERS_PANEL = String.raw`
  // Subscribers: refreshed every REFRESH_MS while the panel is open.

  var REFRESH_MS = 2000;
  var refreshTimer = null;

  function startRefresh() {
    var tick = function () {
      refreshSubscribers().catch(failed).then(function () {
        if (refreshTimer !== null) refreshTimer = setTimeout(tick, REFRESH_MS);
      });
    };
    refreshTimer = setTimeout(tick, 0);
  }

  function stopRefresh() {
    if (refreshTimer !== null) clearTimeout(refreshTimer);
    refreshTimer = null;
  }

  async function refreshSubscribers() {
    var report = await call('GET', API + '/subscribers');
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
