// The dead-letter panel, on the existing dead-letter routes.
// Browser JavaScript kept as a string, one part of /console.js (see console-script.ts).
export const DEAD_LETTERS_PANEL = String.raw`
  // Dead letters, through the dead-letter routes.

  var deadLetterCursor = null;

  async function listDeadLetters(more) {
    var query = new URLSearchParams({ limit: '50' });
    var wanted = byId('dead-letter-status').value;
    if (wanted) query.set('status', wanted);
    if (more && deadLetterCursor) query.set('cursor', deadLetterCursor);
    var page = await call('GET', DEAD_LETTERS + '?' + query.toString());
    deadLetterCursor = page.nextCursor || null;
    show(byId('dead-letters-more'), Boolean(deadLetterCursor));
    var body = byId('dead-letters').tBodies[0];
    var rows = page.deadLetters.map(deadLetterRow);
    if (more) rows.forEach(function (row) { body.appendChild(row); });
    else body.replaceChildren.apply(body, rows);
  }

  function deadLetterRow(letter) {
    var actions = el('td', { className: 'actions' }, []);
    var inspect = el('button', { type: 'button', textContent: 'Inspect' });
    inspect.addEventListener('click', function () { inspectDeadLetter(letter.id).catch(failed); });
    actions.appendChild(inspect);
    if (letter.status === 'pending') {
      var retry = el('button', { type: 'button', textContent: 'Retry' });
      retry.addEventListener('click', function () { retryDeadLetter(letter).catch(failed); });
      var discard = el('button', { type: 'button', textContent: 'Discard' });
      discard.addEventListener('click', function () { discardDeadLetter(letter).catch(failed); });
      actions.appendChild(retry);
      actions.appendChild(discard);
    }
    return el('tr', { 'data-id': letter.id }, [
      el('td', {}, [new Date(letter.createdAt).toLocaleString()]),
      el('td', {}, [letter.kind + (letter.subscriber ? ' · ' + letter.subscriber : '')]),
      el('td', {}, [letter.messageType]),
      el('td', {}, [letter.aggregateType + '/' + letter.aggregateId]),
      el('td', {}, [letter.reason]),
      el('td', {}, [String(letter.attempts)]),
      el('td', {}, [letter.status]),
      actions,
    ]);
  }

  async function inspectDeadLetter(id) {
    var letter = await call('GET', DEAD_LETTERS + '/' + encodeURIComponent(id));
    var detail = byId('dead-letter-detail');
    detail.textContent = JSON.stringify(letter, null, 2);
    show(detail, true);
  }

  async function retryDeadLetter(letter) {
    var body = {};
    if (letter.kind === 'command') {
      var sequence = await confirmAction('Send ' + letter.messageType + ' to ' + letter.aggregateType + '/' + letter.aggregateId + ' again? Give the sequence you reviewed it against.', { label: 'Expected sequence', value: letter.context.actualSequence });
      if (sequence === null) return;
      body.expectedSequence = Number(sequence);
    } else if (!(await confirmAction('Deliver ' + letter.messageType + ' to ' + letter.subscriber + ' again?'))) {
      return;
    }
    await call('POST', DEAD_LETTERS + '/' + encodeURIComponent(letter.id) + '/retry', body);
    status('Dead letter ' + letter.id + ' retried.');
    await listDeadLetters(false);
  }

  async function discardDeadLetter(letter) {
    var reason = await confirmAction('Discard the dead letter ' + letter.id + ' for good?', { label: 'Reason', value: '' });
    if (reason === null) return;
    await call('POST', DEAD_LETTERS + '/' + encodeURIComponent(letter.id) + '/discard', reason ? { reason: reason } : {});
    status('Dead letter ' + letter.id + ' discarded.');
    await listDeadLetters(false);
  }

  byId('dead-letter-filter').addEventListener('submit', function (event) {
    event.preventDefault();
    listDeadLetters(false).catch(failed);
  });
  byId('dead-letters-more').addEventListener('click', function () { listDeadLetters(true).catch(failed); });
`;
