// The event-types panel: the census of the stored events.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const EVENT_TYPES_PANEL = String.raw`
  // Event types.

  async function countEventTypes() {
    status('Counting the stored events…');
    var answer = await call('GET', API + '/event-types');
    var rows = answer.eventTypes.map(function (count) {
      var reading = count.reading + (count.current && count.reading !== 'current' ? ' → ' + count.current.type + ' v' + count.current.version : '');
      return el('tr', { className: 'reading-' + count.reading }, [
        el('td', {}, [count.type]),
        el('td', {}, [String(count.schemaVersion)]),
        el('td', {}, [String(count.events)]),
        el('td', {}, [count.firstPosition + '–' + count.lastPosition]),
        el('td', {}, [reading]),
      ]);
    });
    byId('event-types').tBodies[0].replaceChildren.apply(byId('event-types').tBodies[0], rows);
    show(byId('event-types'), true);
    status('');
  }

  byId('event-types-count').addEventListener('click', function () { countEventTypes().catch(failed); });
`;
