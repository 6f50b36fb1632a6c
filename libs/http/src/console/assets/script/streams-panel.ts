// The streams panel: one aggregate's state and its events as stored and as read.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const STREAMS_PANEL = String.raw`
  // Streams.

  var streamCursor = null;

  async function loadAggregateTypes() {
    var select = byId('stream-type');
    if (select.options.length > 0) return;
    var answer = await call('GET', API + '/streams');
    answer.aggregates.forEach(function (aggregate) {
      select.appendChild(el('option', { value: aggregate.type, textContent: aggregate.type + (aggregate.hasView ? ' (has a view)' : '') }));
    });
  }

  function streamPath() {
    return API + '/streams/' + encodeURIComponent(byId('stream-type').value) + '/' + encodeURIComponent(byId('stream-id').value);
  }

  async function findStream(event) {
    event.preventDefault();
    var state = await call('GET', streamPath());
    byId('stream-title').textContent = state.aggregateType + '/' + state.aggregateId + ' at sequence ' + state.sequence;
    byId('stream-view').textContent = state.hasView ? 'It declares a view: readers see it through the aggregate routes as the view allows.' : 'It declares no view: only this console shows it.';
    byId('stream-state-json').textContent = JSON.stringify(state.state, null, 2);
    show(byId('stream-state'), true);
    streamCursor = 0;
    byId('stream-events').tBodies[0].replaceChildren();
    await nextEvents();
  }

  async function nextEvents() {
    var page = await call('GET', streamPath() + '/events?limit=50&after=' + streamCursor);
    var body = byId('stream-events').tBodies[0];
    page.events.forEach(function (event) {
      body.appendChild(el('tr', { className: event.upcast ? 'upcast' : '' }, [
        el('td', {}, [String(event.stored.sequence)]),
        el('td', {}, [String(event.stored.position)]),
        el('td', {}, [new Date(event.stored.occurredAt).toLocaleString()]),
        el('td', {}, [el('pre', {}, [event.stored.type + ' v' + event.stored.schemaVersion + '\n' + JSON.stringify(event.stored.payload, null, 2)])]),
        el('td', {}, [event.upcast ? el('pre', {}, [event.read.type + ' v' + event.read.schemaVersion + '\n' + JSON.stringify(event.read.payload, null, 2)]) : 'as stored']),
      ]));
    });
    show(byId('stream-events'), true);
    streamCursor = page.nextAfter === undefined ? null : page.nextAfter;
    show(byId('stream-more'), streamCursor !== null);
  }

  byId('stream-find').addEventListener('submit', function (event) { findStream(event).catch(failed); });
  byId('stream-more').addEventListener('click', function () { nextEvents().catch(failed); });
`;
